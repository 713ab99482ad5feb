"""math.floor / ceil / trunc return int, so integer // and % follow."""
import math

from spirthon import kernel, Array, f32, i32, global_id


@kernel
def floor_returns_int(x: Array[f32], out: Array[i32]):
    i = global_id().x
    f = math.floor(x[i])
    out[i] = f // 2 + math.ceil(x[i]) % 3 + math.trunc(x[i]) * 100

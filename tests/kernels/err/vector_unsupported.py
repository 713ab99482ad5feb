from spirthon import kernel, func, Array, f32, i32, u32, global_id
from spirthon import vec3


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    v = vec3(1.0)
    out[i] = x[i]

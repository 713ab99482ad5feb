"""int / int is true division: a float, never truncated."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def true_division(a: Array[i32], b: Array[i32], out: Array[f32]):
    i = global_id().x
    out[i] = a[i] / b[i] + 7 / 2

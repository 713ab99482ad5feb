"""A control character in the source is named by its code point, as CPython names it."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    C[i] = 1.0

"""A compound statement without its colon: CPython's expected ':'."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    while C[i] > 1.0
        C[i] -= 1.0

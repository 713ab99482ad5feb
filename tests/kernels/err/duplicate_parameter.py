"""A parameter named twice: CPython refuses the file, and so does the compiler (the fast
path leaves it to the reference path, which reports it)."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32], x: Array[f32]):
    i = global_id().x
    x[i] = 1.0

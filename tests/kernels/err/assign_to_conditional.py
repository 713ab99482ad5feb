"""A conditional expression is no assignment target: Python refuses the file."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32], c: f32):
    i = global_id().x
    a if c > 0.0 else b = x[i]

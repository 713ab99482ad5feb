"""A closing bracket that closes nothing: CPython's "unmatched ')'"."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    x[i] = x[i] * 2.0)

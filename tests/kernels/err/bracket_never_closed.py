"""A bracket left open is reported where it opens, in CPython's words."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    x[i] = min(x[i], (1.0 + 2.0)
    x[i] = 2.0

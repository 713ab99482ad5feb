"""A triple-quoted string left open: the error is at its opening quotes."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    """Doubles x.
    i = global_id().x
    x[i] *= 2.0

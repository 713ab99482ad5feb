"""An assert with a message, failing for every invocation."""
from spirthon import Array, f32, i32, global_id, kernel


@kernel(workgroup_size=4)
def scale(x: Array[f32], n: i32):
    i = global_id().x
    assert n > 0, "n must be positive"
    x[i] = x[i] / float(n)

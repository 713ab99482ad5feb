"""A negative index is out of range: kernels do not wrap it as Python lists do."""
from spirthon import Array, f32, global_id, kernel


@kernel(workgroup_size=4)
def diff(x: Array[f32], d: Array[f32]):
    i = global_id().x
    d[i] = x[i] - x[i - 1]

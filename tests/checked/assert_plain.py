"""A plain assert failing for some invocations only."""
from spirthon import Array, f32, global_id, kernel


@kernel(workgroup_size=4)
def check_sorted(x: Array[f32]):
    i = global_id().x
    if i > 0:
        assert x[i - 1] <= x[i]

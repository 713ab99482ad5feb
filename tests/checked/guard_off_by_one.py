"""A guard one too generous (`<=`): the check it seems to make redundant must stay."""
from spirthon import Array, f32, global_id, kernel


@kernel(workgroup_size=4)
def copy_guarded(x: Array[f32], y: Array[f32]):
    i = global_id().x
    if i <= len(x):
        y[i] = x[i] * 2.0

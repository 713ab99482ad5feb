"""A load past the end: a neighbour read at the last thread."""
from spirthon import Array, f32, global_id, kernel


@kernel(workgroup_size=8)
def smooth(x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = (x[i] + x[i + 1]) * 0.5

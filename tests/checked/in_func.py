"""A failure inside a func (two calls deep) called from the kernel."""
from spirthon import Array, f32, func, global_id, i32, kernel


@func
def at(x: Array[f32], i: i32) -> f32:
    return x[i]


@func
def window(x: Array[f32], i: i32) -> tuple[f32, f32]:
    return at(x, i - 1), at(x, i + 1)


@kernel(workgroup_size=4)
def gradient(x: Array[f32], g: Array[f32]):
    i = global_id().x + 1
    left, right = window(x, i)
    g[i] = right - left

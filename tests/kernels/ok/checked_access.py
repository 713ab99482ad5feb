"""Checked mode's golden: a load, a 2-D store (one branch for both axes), an integer `//`,
an assert with a message, and a call whose failure the caller follows."""
from spirthon import Array, Array2D, f32, func, global_id, i32, kernel


@func
def ratio(x: Array[i32], i: i32, d: i32) -> i32:
    return x[i] // d


@kernel(workgroup_size=8)
def checked_access(x: Array[i32], d: i32, grid: Array2D[f32]):
    i = global_id().x
    assert d != 0, "d must not be zero"
    grid[i, 1] = float(ratio(x, i, d))

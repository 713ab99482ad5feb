"""Multi-dimensional arrays take one index per axis; a 1-D array takes one; shapes are read
with constant axes; funcs get arrays of the dimensions they declare."""
from spirthon import kernel, func, Array, Array2D, Array3D, f32, i32, vec3, global_id


@func
def row_sum(a: Array2D[f32], i: i32) -> f32:
    return a[i, 0] + a[i, 1]


@kernel
def k(flat: Array[f32], grid: Array2D[f32], cube: Array3D[i32], out: Array[f32]):
    i = global_id().x
    a = flat[i, 0]
    b = grid[i]
    c = cube[i, i]
    d = grid.shape[i]
    e = grid.shape[2]
    s = row_sum(flat, i)
    t = row_sum(grid, -1)
    u = grid[-1, i]
    out[i] = a + b + d + e + s + t + u + flat.shape

"""Two- and three-dimensional shared arrays: each size a positive constant, indexed with one
index per axis, a constant index within its axis."""
from spirthon import kernel, Array, f32, i32, local_id, shared_array

TILE = 4


@kernel(workgroup_size=(TILE, TILE))
def k(x: Array[f32], n: i32):
    a = shared_array(f32, (TILE, TILE + 1))
    b = shared_array(f32, (TILE, 0))
    c = shared_array(i32, (2, n))
    tx, ty, _ = local_id()
    a[ty, tx] = x[tx]
    x[tx] = a[tx]
    x[ty] = a[0, TILE + 1]
    x[tx] += a[TILE, 0]

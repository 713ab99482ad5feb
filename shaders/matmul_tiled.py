"""C = A @ B (row-major, m x k times k x n) in 8 x 8 tiles: each workgroup stages a tile of A
and of B in shared memory, then every invocation accumulates its dot product from them."""
from spirthon import kernel, Array, f32, i32, global_id, local_id, shared_array, barrier

TILE = 8


@kernel(workgroup_size=(TILE, TILE))
def matmul_tiled(m: i32, n: i32, k: i32, a: Array[f32], b: Array[f32], c: Array[f32]):
    ta = shared_array(f32, TILE * TILE)
    tb = shared_array(f32, TILE * TILE)
    col, row, _ = global_id()
    lx, ly, _ = local_id()
    acc = 0.0
    for t in range((k + TILE - 1) // TILE):
        ak = t * TILE + lx
        bk = t * TILE + ly
        ta[ly * TILE + lx] = a[row * k + ak] if row < m and ak < k else 0.0
        tb[ly * TILE + lx] = b[bk * n + col] if bk < k and col < n else 0.0
        barrier()
        for j in range(TILE):
            acc += ta[ly * TILE + j] * tb[j * TILE + lx]
        barrier()
    if row < m and col < n:
        c[row * n + col] = acc

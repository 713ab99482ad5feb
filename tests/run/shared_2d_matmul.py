"""A tiled matrix multiply on two-dimensional shared arrays, `shared_array(f32, (TPB, TPB))`
as Numba's `cuda.shared.array((TPB, TPB), float32)`, whose tiles go to a func's `Array2D`
parameters; the matrices' sizes are not multiples of the tile."""
from spirthon import kernel, func, Array2D, f32, i32, global_id, local_id, shared_array, barrier

TPB = 8


@func
def tile_dot(a: Array2D[f32], b: Array2D[f32], tx: i32, ty: i32) -> f32:
    s = 0.0
    for k in range(a.shape[1]):
        s += a[ty, k] * b[k, tx]
    return s


@kernel(workgroup_size=(TPB, TPB))
def matmul(A: Array2D[f32], B: Array2D[f32], C: Array2D[f32]):
    sA = shared_array(f32, (TPB, TPB))
    sB = shared_array(f32, (TPB, TPB))
    x, y, _ = global_id()
    tx, ty, _ = local_id()
    n = A.shape[1]
    acc = 0.0
    for t in range((n + TPB - 1) // TPB):
        sA[ty, tx] = A[y, t * TPB + tx] if y < A.shape[0] and t * TPB + tx < n else 0.0
        sB[ty, tx] = B[t * TPB + ty, x] if x < B.shape[1] and t * TPB + ty < n else 0.0
        barrier()
        acc += tile_dot(sA, sB, tx, ty)
        barrier()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc

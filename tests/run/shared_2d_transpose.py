"""A padded transpose tile (`shared_array(i32, (4, 5))`) and a three-dimensional histogram
in workgroup memory updated by atomics with a tuple index; `len()` and `.shape` of shared
arrays are constants."""
from spirthon import (kernel, Array, Array2D, i32, global_id, local_id, workgroup_id,
                      shared_array, barrier, atomic_add)


@kernel(workgroup_size=(4, 4))
def transpose(src: Array2D[i32], dst: Array2D[i32], counts: Array[i32]):
    tile = shared_array(i32, (4, 5))
    hist = shared_array(i32, (2, 3, 2))
    x, y, _ = global_id()
    tx, ty, _ = local_id()
    h, w = src.shape
    if tx < 2 and ty < 3:
        hist[tx, ty, 0] = 0
        hist[tx, ty, 1] = 0
    inside = y < h and x < w
    tile[ty, tx] = src[y, x] if inside else -1
    barrier()
    if inside:
        atomic_add(hist, (tile[ty, tx] % 2, tile[ty, tx] % 3, 0), 1)
    barrier()
    bx = workgroup_id().x * 4
    by = workgroup_id().y * 4
    if bx + ty < w and by + tx < h:
        dst[bx + ty, by + tx] = tile[tx, ty] + len(tile) * 0 + tile.shape[1] * 0
    if tx < 2 and ty < 3:
        atomic_add(counts, tx * 3 + ty, hist[tx, ty, 0])

"""Loops over tuples written in place, as Python programs write them: a 3x3 neighbourhood
with `for di in (-1, 0, 1)`, weights with `enumerate((...))`, items that are module
constants, floats, and a u32 tuple; and an atomic on a 2-D array indexed by a tuple."""
from spirthon import kernel, Array, Array2D, f32, i32, u32, global_id, atomic_add

EDGE = 2
SCALE: f32 = 0.5


@kernel
def tuple_loops(grid: Array2D[i32], out: Array2D[i32], blur: Array2D[f32], hashes: Array[u32],
                counts: Array2D[i32]):
    i, j, _ = global_id()
    h, w = grid.shape
    n = 0
    for di in (-1, 0, 1):
        for dj in (-1, 0, EDGE - 2 + 1):
            if di != 0 or dj != 0:
                n += grid[(i + di) % h, (j + dj) % w]
    alive = grid[i, j] == 1
    out[i, j] = 1 if (alive and (n == 2 or n == 3)) or (not alive and n == 3) else 0
    acc = 0.0
    for k, wt in enumerate((0.25, SCALE, 0.25)):
        acc += wt * float(grid[i, min(max(j + k - 1, 0), w - 1)])
    blur[i, j] = acc
    hv = u32(i * w + j)
    for m in (0x9E3779B9, 2654435761, 7):
        hv = (hv ^ (hv >> 15)) * m
    hashes[i * w + j] = hv
    total = 0
    for e in (EDGE, EDGE * 3, -EDGE):
        total += e
    atomic_add(counts, (n % 3, total % 4), 1)

"""A tuple of equal-length tuples of numbers is looped over with its items unpacked, as
stencil code writes neighbour offsets: a module-level one (`for dr, dc in NEIGHBOURS:`), one
written in place, with `enumerate`, in a func, and columns of different types (ints, and
floats that round to f32)."""
from spirthon import kernel, func, Array, Array2D, f32, i32, global_id

NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
TAPS = ((-1, 0.1), (0, 0.8), (1, 0.1))


@func
def smooth(x: Array[f32], i: i32, n: i32) -> f32:
    s = 0.0
    for d, w in TAPS:
        j = min(max(i + d, 0), n - 1)
        s += w * x[j]
    return s


@kernel
def rows(grid: Array2D[i32], x: Array[f32], live: Array2D[i32], out: Array[f32], marks: Array[i32]):
    r, c, _ = global_id()
    h, w = grid.shape
    count = 0
    for dr, dc in NEIGHBOURS:
        rr = r + dr
        cc = c + dc
        if 0 <= rr < h and 0 <= cc < w:
            count += grid[rr, cc]
    for dr, dc, weight in ((-1, -1, 2), (1, 1, 3)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            count += weight * grid[r + dr, c + dc]
    live[r, c] = count
    if c == 0:
        out[r] = smooth(x, r, len(x))
        m = 0
        for k, (d, wt) in enumerate(TAPS):
            m += k * d + int(wt * 10.0)
        marks[r] = m

"""A row of a tuple of tuples unpacked at a run-time index (`dx, dy, c = DIRS[k]`, the index
evaluated once for every column) and at a constant one (`DIRS[-1]`, from the end as in
Python); `len(DIRS)` is its number of rows."""
from spirthon import kernel, Array, f32, i32, global_id

DIRS = ((1, 0, 0.5), (0, 1, 1.5), (-1, 0, 2.5), (0, -1, 3.5))


@kernel
def walk(steps: Array[i32], pos: Array[i32], w: Array[f32]):
    i = global_id().x
    x, y = 0, 0
    acc = 0.0
    for s in range(steps[i]):
        dx, dy, c = DIRS[(i + s * 3) % len(DIRS)]
        x += dx
        y += dy
        acc += c
    a, b, _ = DIRS[-1]
    pos[2 * i] = x + a
    pos[2 * i + 1] = y + b
    w[i] = acc

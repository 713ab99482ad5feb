"""Module-level lists as constant tables, as tuples are: D2Q9 lattice weights (a list of
floats), its velocities (a list of tuples, and the same as a list of lists), a row's items
by a constant index (`C[q][0]`), a loop over the rows, `len`, a negative constant index,
and an item of a func's tuple result."""
from spirthon import kernel, func, Array, f32, i32, global_id

W = [4.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0,
     1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0]
C = [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]
OPPOSITE = [[0], [3], [4], [1], [2], [7], [8], [5], [6]]


@func
def split(v: f32) -> tuple[f32, f32]:
    return v * 0.5, v * 2.0


@kernel
def lattice(u: Array[f32], feq: Array[f32], moment: Array[i32], back: Array[i32]):
    i = global_id().x
    q = i % len(W)
    ux = u[i]
    cu = 3.0 * (C[q][0] * ux + C[q][1] * 0.25)
    feq[i] = W[q] * (1.0 + cu + 0.5 * cu * cu) + W[-1] * split(ux)[1]
    m = 0
    for cx, cy in C:
        m += cx * cx + 2 * cy
    moment[i] = m + C[q][-1] * 100
    back[i] = OPPOSITE[q][0]

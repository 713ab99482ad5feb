"""A name assigned in a `for` loop whose range is known not to be empty is assigned after it,
as Python and Warp run it (the body runs at least once): `range(128)`, `range(2, 5)`, a
negative step, a constant tuple, `enumerate` of one, and a nested loop."""
from spirthon import kernel, Array, f32, i32, global_id

WEIGHTS = (0.25, 0.5, 0.25)
TRIPS = 3


@kernel
def assigned_in_loops(a: Array[f32], out: Array[f32]):
    i = global_id().x
    x = a[i]
    for t in range(128):
        d = x * 2.0 + f32(t)
    for j in range(2, 5):
        e = f32(j) + x
    for j in range(10, 0, -3):
        h = f32(j)
    for w in WEIGHTS:
        g = w * x
    for k, w in enumerate(WEIGHTS):
        m = w + f32(k)
    for r in range(TRIPS):
        for c in range(2):
            inner = f32(r * 10 + c)
        last = inner
    out[i] = d + e + g + h + m + last

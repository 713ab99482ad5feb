"""A conditional expression in a test position: each side is a test, so the sides may differ in type."""
from spirthon import kernel, Array, f32, i32, global_id
@kernel
def ifexp_tests(x: Array[f32], out: Array[i32]):
    i = global_id().x
    if x[i] if i > 1 else i:
        out[i] = 1
    while (x[i] if x[i] > 5.0 else 0) and x[i] < 9.0:
        x[i] += 1.0
    out[i] += 1 if not (i if x[i] > 2.0 else x[i]) else 5

"""Floats against constants, computed in float32 on both sides: `LIMIT = 0.02` compared with
an element equal to float32's 0.02 (CPython's double 0.02 is larger, the kernel's constant is
rounded to float32 as the element is), a histogram of float data whose bin edges fall on
values that are not binary-exact, and a derived annotated constant."""

from spirthon import Array, f32, global_id, i32, kernel

LIMIT = 0.02
LOW = -1.0
WIDTH: f32 = 0.1
INV_WIDTH = 1.0 / WIDTH
BINS = 20


@kernel
def float_threshold(x: Array[f32], below: Array[i32], bins: Array[i32], scaled: Array[f32]):
    i = global_id().x
    below[i] = 1 if x[i] < LIMIT else 0
    k = int((x[i] - LOW) * INV_WIDTH)
    bins[i] = min(max(k, 0), BINS - 1)
    t = 0.1
    for _ in range(10):
        t = t * 1.1 + x[i] * WIDTH
    scaled[i] = t

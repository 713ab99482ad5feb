"""A module-level tuple that cannot be a constant table (a number past 32 bits) is for the
CPU side: no error until a kernel uses it (SIZES is never used, so it is not reported)."""
from spirthon import kernel, Array, f32, global_id

SIZES = ((1024, 768), (2**33, 1))
BIG = (1, 2**40)


@kernel
def k(x: Array[f32]):
    x[global_id().x] += BIG[0]

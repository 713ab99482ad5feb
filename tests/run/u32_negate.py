"""Negating a u32 wraps modulo 2**32, as every u32 result stored to an array does."""
from spirthon import kernel, Array, u32, global_id


@kernel
def u32_negate(w: Array[u32]):
    i = global_id().x
    v = w[i]
    w[i] = -v + (-(v >> 3)) * u32(3)

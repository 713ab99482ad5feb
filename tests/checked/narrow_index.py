"""Narrow ints as indices (their i32 value) and divisors: a packed array's length is its
element count, and an i8 index of -1 is out of range, not wrapped."""
from spirthon import Array, global_id, i8, kernel, u8


@kernel
def narrow_index(a: Array[u8], s: Array[i8], out: Array[u8]):
    i = global_id().x
    out[i] = a[s[i]] // a[i]

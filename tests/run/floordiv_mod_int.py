"""Python's // floors and % takes the divisor's sign, unlike C's truncation."""
from spirthon import kernel, Array, i32, global_id


@kernel
def floordiv_mod_int(a: Array[i32], b: Array[i32], q: Array[i32], r: Array[i32]):
    i = global_id().x
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]

"""Ints beyond f32's 24-bit mantissa: 33554435 % 4 is 3, not what an f32 path gives."""
from spirthon import kernel, Array, i32, global_id


@kernel
def big_int_mod(a: Array[i32], out: Array[i32], q: Array[i32], q8: Array[i32]):
    i = global_id().x
    out[i] = a[i] % 4
    q[i] = a[i] // 3
    q8[i] = a[i] // 8 + a[i] % 16 * 1000

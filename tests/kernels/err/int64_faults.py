"""A constant zero divisor and a constant negative shift count are refused on i64 and u64 as
on i32: Python raises on every run there."""
from spirthon import kernel, Array, i64, u64, global_id


@kernel
def k(a: Array[i64], b: Array[u64]):
    i = global_id().x
    a[i] = a[i] // 0
    b[i] = b[i] % u64(0)
    a[i] = a[i] >> i64(-3)

"""i64 and u64 do not mix with the other int types (convert one side), a literal must fit the
type (up to 2**64 - 1 for a u64, never negative), one past 64 bits is an error anywhere, and
constant faults (a zero divisor, a negative shift count) are refused as for i32."""
from spirthon import kernel, Array, i32, i64, u64, global_id


@kernel
def k(a: Array[i64], b: Array[u64], n: i32):
    i = global_id().x
    x = a[i] + n
    y = b[i] + a[i]
    z = b[i] + 18446744073709551616
    w = b[i] < -1
    a[i] = a[i] // 0
    b[i] = b[i] << -3
    a[i] = 2 ** 64
    b[i] = 18446744073709551615
    a[i] = 9223372036854775808

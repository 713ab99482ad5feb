"""A func returns i64s (u64s, f64s) in a tuple or a struct only with values of their own
type in this version: the carrier of a mixed tuple holds 32-bit words."""
from spirthon import kernel, func, struct, Array, f32, i32, i64, global_id


@struct
class Keyed:
    key: i64
    weight: f32


@func
def split(x: i64) -> (i64, i32):
    return x >> 32, i32(x)


@func
def keyed(x: i64) -> Keyed:
    return Keyed(x, 1.0)


@kernel
def k(a: Array[i64]):
    i = global_id().x
    hi, lo = split(a[i])
    a[i] = hi + keyed(a[i]).key

"""Narrow ints converted both ways: to floats and bools, abs and max of them, through a func
taking an Array[u8] (a local array and a packed buffer), from float results with round and
int, and explicit conversions of literals that wrap (u8(300), u8(-1.5), i8(200)) as a
run-time value does."""
from spirthon import kernel, func, Array, u8, i8, u16, f32, f64, global_id, local_array

@func
def first(a: Array[u8]) -> u8:
    return a[0]

@kernel
def narrow_conversions(a: Array[u8], out: Array[f32], o: Array[u16]):
    i = global_id().x
    x = a[i]
    loc = local_array(u8, 3)
    loc[0] = x
    out[i] = float(x) + f32(f64(i8(x))) + (1.0 if bool(x) else 0.0) + f32(abs(x)) + f32(max(x, u8(7))) + f32(first(loc)) + f32(first(a))
    o[i] = u16(round(float(x) * 2.6)) + u16(int(f32(x) / 3.0)) + u16(x > 3) + u16(-u8(1))

@kernel
def narrow_literals(o: Array[u8], p: Array[i8]):
    i = global_id().x
    o[i] = u8(300) + u8(3.7) + u8(-1.5)
    p[i] = i8(200) + i8(-129)

"""i64 and u64 arithmetic as NumPy's int64 and uint64 compute it: wrapping at 64 bits,
Python's floored `//` and `%`, shifts of any count (every bit out at 64 or more, a 64-bit
count of a 32-bit value capped, not cut), conversions between every width (widening by the
source's sign, narrowing by dropping bits), to and from floats (rounded once; truncated and
wrapped), abs/min/max, and literals up to 2**64 - 1 meeting a u64."""
from spirthon import kernel, Array, i64, u64, i32, u32, u8, i16, f32, f64, global_id


@kernel(workgroup_size=(64, 1, 1))
def ops(a: Array[i64], b: Array[i64], out: Array[i64], uo: Array[u64], fo: Array[f64],
        so: Array[f32], io: Array[i32], ko: Array[i64], k: i64, m: u64):
    i = global_id().x
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    o = i * 12
    out[o + 0] = x + y * k
    out[o + 1] = x // y if y != 0 else i64(0)
    out[o + 2] = x % y if y != 0 else i64(0)
    out[o + 3] = x << (y & 63)
    out[o + 4] = x >> (y & 63)
    out[o + 5] = i64(i32(x))
    out[o + 6] = -x ^ y
    out[o + 7] = i64(f64(x) * 0.5)
    out[o + 8] = x >> y if y >= 0 else x << -y
    out[o + 9] = abs(x) + min(x, y) - max(y, i64(-3))
    out[o + 10] = i64(u8(x)) + i64(i16(x)) * 1000000
    out[o + 11] = i64(f32(x) * 3.0e19)
    h = u64(x) * 6364136223846793005 + 1442695040888963407
    uo[i * 4] = h ^ (h >> 33)
    uo[i * 4 + 1] = u64(x) // u64(3) + (u64(y) % m)
    uo[i * 4 + 2] = u64(i32(y)) + u64(u32(y))
    uo[i * 4 + 3] = h ^ 0xcbf29ce484222325 if x > 0 else ~h
    fo[i] = f64(x) + f64(y)
    so[i] = f32(x) + f32(u64(y))
    io[i * 2] = i32(1) << y if y >= 0 else i32(-1)
    if i == 0:
        # Constants convert as values do: truncated, wrapped to 64 bits.
        ko[0] = i64(1e19)
        ko[1] = i64(u64(-2.5))
        ko[2] = i64(-1e30)
        ko[3] = i64(u64(3.0e38)) + i64(f32(2 ** 63)) + i64(18446744073709551615)
    io[i * 2 + 1] = i32(x > y) + i32(u64(x) > u64(y)) * 2 + i32(x == -9223372036854775808) * 4

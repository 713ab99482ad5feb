"""i8 u8 i16 u16: a packed Array2D[u8] read by shape, a u16 and an i8 buffer written, a local
array of u8 and a shared one of i16 (a word an element), funcs taking and returning narrow
ints in a tuple, and arithmetic that wraps at every step as NumPy's fixed-width ints do
(i8(-128) - 1, abs(i8(-128)), i8(100) ** 2, ~, // and % of negatives); a range over a
narrow int counts in i32."""
from spirthon import kernel, func, Array, Array2D, u8, i8, u16, i16, i32, u32, f32, global_id, local_id, local_array, shared_array, barrier

@func
def split(v: u16) -> tuple[u8, u8]:
    return u8(v >> 8), u8(v)

@func
def mix8(a: u8, b: i8) -> i16:
    return i16(a) * i16(b)

@kernel
def narrow_ints(src: Array2D[u8], out: Array[u16], neg: Array[i8], k: i32):
    i = global_id().x
    loc = local_array(u8, 4)
    sh = shared_array(i16, 64)
    h, w = src.shape
    for c in range(4):
        loc[c] = src[i % h, c % w] + u8(c)
    sh[local_id().x] = i16(loc[0]) - 300
    barrier()
    if i >= len(out):
        return
    hi, lo = split(u16(loc[1]) * 257 + u16(k))
    v: u16 = u16(hi) << 8 | u16(lo)
    out[i] = v + u16(sh[(local_id().x + 1) % 8]) + u16(mix8(loc[2], i8(-5)))
    x: i8 = -128
    x -= 1
    for j in range(loc[0] % 4):
        x += i8(j)
    neg[i] = x + i8(i) * 3 + (~i8(loc[3]) // 7) % 5 + abs(i8(-128)) + min(i8(i), i8(-2)) + (i8(100) ** 2)

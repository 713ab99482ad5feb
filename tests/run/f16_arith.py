"""f16 beside everything: a func returning a tuple with an f16, a struct with f16 fields in
an Array, a local array of f16, ** and // and %, conversions and math."""
import math
from spirthon import kernel, func, struct, Array, f16, f32, i32, u8, global_id, local_array

@struct
class Px:
    h: f16
    tag: u8
    g: f16
    w: f32

@func
def split(x: f16) -> tuple[f16, i32]:
    return x * 0.5, int(x)

@kernel
def k(a: Array[f16], px: Array[Px], out: Array[f16], ints: Array[i32], s: f16):
    i = global_id().x
    x = a[i]
    h, n = split(x)
    acc = local_array(f16, 4)
    for j in range(4):
        acc[j] = x ** 2 + f16(j) * s
    p = px[i]
    p.h = p.h * x + acc[i % 4]
    p.g = f16(math.sin(f32(p.g))) + math.cos(x)
    p.w = f32(p.h) + f32(x // s) + f32(x % s)
    p.tag += u8(1)
    px[i] = p
    out[i] = h + f16(round(x)) + abs(-x) - min(x, s) + max(x, h) + x ** -1
    ints[i] = n + int(x * 10.0) + (1 if math.isnan(x) else 0) + math.floor(x)

"""A float converted to an int is truncated toward zero and then wrapped to 32 bits, as the
kernel's ints are (`int(1e10)` is 1410065408, `u32(-1.5)` is 4294967295), where SPIR-V
leaves a conversion out of the result's range undefined: `int()`, `u32()`, `math.floor`,
`math.ceil`, `math.trunc`, `round`, and int vectors built from float ones, at run time and
on constants."""
import math
from spirthon import kernel, Array, f32, i32, u32, ivec2, uvec2, vec2, global_id

BIG = 3e9


@kernel
def wraps(x: Array[f32], out: Array[i32], uout: Array[u32], vout: Array[ivec2], uvout: Array[uvec2]):
    i = global_id().x
    v = x[i]
    out[6 * i] = int(v)
    out[6 * i + 1] = math.floor(v)
    out[6 * i + 2] = math.ceil(v)
    out[6 * i + 3] = round(v)
    out[6 * i + 4] = math.trunc(-v) + int(BIG)
    out[6 * i + 5] = i32(v * 16.0)
    uout[2 * i] = u32(v)
    uout[2 * i + 1] = u32(-v) + u32(-2.5)
    vout[i] = ivec2(vec2(v, -v * 3.0))
    uvout[i] = uvec2(vec2(-v, v * 0.5))

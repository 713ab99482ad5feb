"""Vectors of every scalar width (Warp's vec3h, vec4ub, vec3l, ...): f16vec3 arrays packed two
halves to a word, u8vec4 pixels packed four bytes to a word, i64vec3 arrays, narrow vectors
in a struct, a local array of f16vec3 and a shared array of u8vec4, uniform parameters of
each kind (a narrow component a whole word), funcs taking and returning them, and every
operation rounding or wrapping per component as its scalar does (u8 wraps, f16 rounds to
half, i64 floors and wraps at 64 bits), conversions from and to the 32-bit vectors, and a
print of each."""
from spirthon import (u32, i8, u16, i16vec2, i16, kernel, func, struct, Array, global_id, local_array, shared_array, barrier, i64, u64, f16, f32, i32, u8,
    i64vec2, i64vec3, u64vec2, f16vec2, f16vec3, f16vec4, u8vec4, i8vec2, i16vec3, u16vec2, vec3, ivec3, uvec4, dvec3, local_id)

@struct
class P:
    pos: f16vec3
    tag: u8vec4
    big: i16vec2

@func
def mixed(a: f16vec3, b: i64vec3) -> f16vec3:
    return a * f16(2) - f16vec3(f16(b.x % 7), f16(b.y % 7), f16(b.z % 7))

@func
def scale(p: u8vec4, k: u8) -> u8vec4:
    return p * k

@kernel(workgroup_size=8)
def k(h: Array[f16vec3], q: Array[u8vec4], w: Array[i64vec3], ps: Array[P], out_h: Array[f16vec3], out_q: Array[u8vec4],
      out_w: Array[i64vec3], out_p: Array[P], hp: f16vec3, qp: u8vec4, wp: i64vec3, sv: i16vec3):
    i = global_id().x
    loc = local_array(f16vec3, 4)
    sh = shared_array(u8vec4, 8)
    sh[local_id().x] = q[i] + qp
    barrier()
    for j in range(4):
        loc[j] = h[i] + f16vec3(f16(j))
    v = loc[i % 4] * hp + mixed(h[i], w[i])
    if v == f16vec3(f16(0)):
        v = -v
    out_h[i] = f16vec3(vec3(v) * 0.5) + f16vec3(abs(v.x), min(v.y, v.z), max(v.x, v.z))
    t = scale(sh[(local_id().x + 1) % 8], u8(3)) ^ u8vec4(255, 0, 15, 240)
    t.w = t.x >> u8(2)
    out_q[i] = t + u8vec4(uvec4(7, 8, 9, 10))
    x = w[i] * wp + i64vec3(ivec3(i, -i, 3)) + i64vec3(sv)
    x.y = x.y // -3
    out_w[i] = (x << i64(3)) % i64vec3(1000000007, -97, 1 << 40) + i64vec3(abs(x.z), min(x.x, x.y), i64(i))
    p = ps[i]
    p.pos = p.pos + f16vec3(f16(0.5))
    p.tag.y = p.tag.x + u8(1)
    p.big = p.big * i16(-3)
    out_p[i] = p
    r = i8vec2(i8(i32(i) * 100), i8(-i32(i) * 100)) * i8vec2(3, 5)
    s = u16vec2(u16(u32(r.x) & 0xFFFF), 60000) + u16vec2(10000, 10000)
    f = f16vec2(i16vec3(i16(s.x), i16(s.y), 0).xy) + f16vec2(f16(r.y), f16(0.1))
    out_h[i + 8] = f16vec3(f, f16(s.y))
    if i == 3:
        print(v, t, x, p, r, s, f)

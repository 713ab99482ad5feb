"""Vector constructors, components, swizzles, component assignment and element-wise operators
with Python's semantics per component (// floors, % takes the divisor's sign)."""
from spirthon import kernel, Array, f32, i32, vec2, vec3, vec4, ivec2, ivec3, ivec4, uvec2, global_id


@kernel(workgroup_size=8)
def vector_ops(a: Array[ivec4], b: Array[ivec4], f: Array[vec4], qi: Array[ivec4], ri: Array[ivec4],
               fo: Array[vec4], misc: Array[i32]):
    i = global_id().x
    x = a[i]
    y = b[i]
    qi[i] = x // y
    ri[i] = x % y
    v = f[i]
    w = vec4(v.zw, 1.5, v.x)
    w.y = w.y * 2.0
    w.z += float(i)
    s = v.wzyx - w * 0.5 + 1
    t = vec3(v.xy, 2.0) / 4 + vec3(ivec3(x.xyz)) // 3.0
    u = -v % 1.5 + abs(s) - min(v, w) * max(w, 0.25)
    fo[i] = vec4(t, 0.0) + u + v ** 2 + ivec4(x.w, y.z, 1, 2) / 2
    p, q = ivec2(x.x, y.y) * 3 - 1
    m = ~x + (x << 2) + (y >> 1) + (x & 0xFF) + (x | 1) + (x ^ y)
    misc[i * 8] = p
    misc[i * 8 + 1] = q
    misc[i * 8 + 2] = m.x + m.y + m.z + m.w
    misc[i * 8 + 3] = int(x == y)
    misc[i * 8 + 4] = int(x.xy != ivec2(0))
    misc[i * 8 + 5] = int(vec2(2.0) == vec2(2.0, float(i)))
    n = uvec2(7, 9)
    n = -n // uvec2(3, 1000000000)
    misc[i * 8 + 6] = i32(n.x) + i32(n.y)
    z = vec2(1.0) if x.x > 0 else vec2(-1.0, 2.0)
    misc[i * 8 + 7] = int(z.x * 10.0 + z.y)

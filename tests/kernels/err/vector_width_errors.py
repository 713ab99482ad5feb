"""Vectors of the other widths: an f16vec3 does not mix with a vec3 nor an i64vec3 with an
ivec3 (convert one side), a float does not meet an int vector, a component takes its own
type only, there are no atomics on them, and a shading function of halves takes no f32."""
from spirthon import kernel, Array, f16vec3, u8vec4, i64vec3, ivec3, vec3, i32, global_id, atomic_add, dot


@kernel
def k(h: Array[f16vec3], q: Array[u8vec4], w: Array[i64vec3], n: Array[i32]):
    i = global_id().x
    a = h[i] + vec3(1.0)
    b = w[i] + ivec3(1)
    c = q[i] * 2.5
    d = u8vec4(n[i], 1, 2, 3)
    atomic_add(q, i, u8vec4(1))
    s = dot(h[i], vec3(1.0))

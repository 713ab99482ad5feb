"""Mistakes with vectors: sizes and types that do not match, components that do not exist,
swizzles and array elements assigned in place, ordering comparisons, truth values."""
from spirthon import kernel, func, Array, f32, i32, u32, vec2, vec3, vec4, ivec2, uvec2, global_id, dot, cross, length

@kernel
def k(xs: Array[vec2], n: Array[ivec2], out: Array[f32]):
    i = global_id().x
    a = xs[i] + vec3(1.0)
    b = xs[i].xyz
    c = xs[i] < xs[i]
    xs[i].x = 1.0
    d = n[i] + 0.5
    e = vec3(1.0, 2.0)
    f = cross(xs[i], xs[i])
    g = dot(xs[i], 1.0)
    h = xs[i] + n[i]
    v = xs[i]
    v.xy = v
    v.q = 1.0
    out[i] = xs[i]
    xs[i] = 1.0
    if v:
        pass

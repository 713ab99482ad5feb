"""Arrays of 2- and 4-component vectors (std430 strides 8 and 16) of every component type:
loads, stores, swizzles, tuple assignment and augmented assignment of whole elements."""
from spirthon import kernel, Array, i32, u32, vec2, vec4, ivec2, ivec4, uvec2, uvec4, global_id


@kernel(workgroup_size=2)
def vector_arrays(a: Array[vec2], b: Array[vec4], c: Array[ivec2], d: Array[ivec4],
                  e: Array[uvec2], g: Array[uvec4], n: Array[i32]):
    i = global_id().x
    a[i] = a[i].yx
    if i == 0:
        d[i], c[i] = ivec4(c[i], c[i]), d[i].xw
    b[i] += vec4(a[i], 1.0, 2.0)
    c[i] = c[i] * 2 - ivec2(i)
    d[i] = ivec4(c[i], d[i].zw) - d[i].wzyx
    v = e[i]
    v.y = v.y * 3 + u32(i)
    v = 1
    e[i] = v
    g[i] = uvec4(v, v) ^ g[i]
    n[i] = len(a) * 100 + len(b) * 10 + len(g)

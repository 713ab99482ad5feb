"""spirthon's vector and shading functions, vector parameters in the uniform block (std140
offsets: a vec2 after an f32, an ivec4 at a 16-byte boundary), funcs taking and returning
vectors."""
from spirthon import (kernel, func, Array, f32, i32, vec2, vec3, vec4, ivec4, uvec2, global_id,
                      dot, cross, length, distance, normalize, clamp, mix, step, smoothstep)


@func
def reflect(d: vec3, n: vec3) -> vec3:
    return d - 2.0 * dot(d, n) * n


@func
def shade(p: vec3, light: vec3) -> vec4:
    n = normalize(p)
    l = normalize(light - p)
    diffuse = max(dot(n, l), 0.0)
    r = reflect(-l, n)
    return vec4(n * 0.5 + 0.5, diffuse + 0.1 * length(r))


@kernel(workgroup_size=4)
def vector_geometry(gain: f32, offset: vec2, bias: ivec4, mask: uvec2, pts: Array[vec4],
                    out: Array[vec4], scal: Array[f32], ints: Array[i32]):
    i = global_id().x
    p = pts[i]
    q = vec3(p.xy + offset, p.z)
    c = cross(q, vec3(0.0, 1.0, 0.0))
    out[i * 3] = shade(q, vec3(2.0, 3.0, 4.0)) * gain
    out[i * 3 + 1] = vec4(c, distance(q, c))
    out[i * 3 + 2] = (clamp(p, -0.5, 0.75) + mix(p, vec2(1.0), 0.25) + step(0.0, p)
                      + smoothstep(-1.0, 2.0, p) + mix(vec4(0.0), p, p.w))
    scal[i * 4] = clamp(p.x, 0.0, 1.0) + step(0.5, p.y) + smoothstep(0.0, 4.0, p.z)
    scal[i * 4 + 1] = mix(p.x, p.y, 0.5) + length(p.x) + normalize(p.y)
    scal[i * 4 + 2] = dot(p, p) + length(p.xy)
    scal[i * 4 + 3] = clamp(float(i), 2.5, 1.5)
    k = ivec4(i, -i, 3, -4) + bias
    ints[i * 4] = dot(k, ivec4(1, 2, 3, 4))
    ints[i * 4 + 1] = clamp(k.x, -1, 1) + max(k, ivec4(0)).y
    m = clamp(k, ivec4(-2), 2)
    ints[i * 4 + 2] = m.x * 1000 + m.y * 100 + m.z * 10 + m.w
    ints[i * 4 + 3] = i32(mask.x & 0xF) + i32(mask.y)

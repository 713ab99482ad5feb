from spirthon import kernel, Array, vec2, vec3, vec4, ivec2, global_id, mix, clamp, step, smoothstep, distance
@kernel
def k(out: Array[vec4]):
    i = global_id().x
    p = vec4(1.0)
    a = mix(p, vec2(1.0), 0.25)
    b = clamp(p, vec4(0.0), vec3(1.0))
    c = step(vec2(0.5), p)
    d = smoothstep(0.0, vec3(1.0), p)
    e = distance(p, vec2(1.0))
    f = mix(vec2(1.0), ivec2(1, 2), 0.5)
    out[i] = p

"""Shading functions of f16vec3s (Warp's vec3h), as a math function of an f16 is: the f32
function of the widened values, its result rounded to half; clamp stays in halves."""
from spirthon import kernel, Array, global_id, f16, f16vec3, dot, cross, length, distance, normalize, mix, step, smoothstep, clamp

@kernel
def hgeo(a: Array[f16vec3], b: Array[f16vec3], out: Array[f16vec3], s: Array[f16]):
    i = global_id().x
    x, y = a[i], b[i]
    out[i] = normalize(x) + cross(x, y) * f16(0.01) + mix(x, y, 0.25) + step(y, x) + smoothstep(f16vec3(-1), f16vec3(1), x) + clamp(x, f16(-1), f16(1))
    s[i] = length(x) + dot(x, y) + distance(x, y)

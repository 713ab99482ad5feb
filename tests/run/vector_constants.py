"""Module-level constant vectors (`ORIGIN = vec3(0.0, 1.0, 2.0)`, a splat `ONES = ivec2(1)`,
ints converted into a float vector) used in kernels and funcs as values: arithmetic,
swizzles, components, constructors."""
from spirthon import kernel, func, Array, f32, i32, vec3, vec4, ivec2, global_id, dot, length

ORIGIN = vec3(0.0, 1.0, 2.0)
LIGHT = vec3(1, 2, 2)
ONES = ivec2(1)
SCALE = 0.5


@func
def shade(p: vec3) -> f32:
    return dot(p - ORIGIN, LIGHT / length(LIGHT)) * SCALE


@kernel
def consts(p: Array[vec4], out: Array[f32], ids: Array[ivec2]):
    i = global_id().x
    q = p[i].xyz + ORIGIN.zyx
    out[i] = shade(q) + ORIGIN.y + LIGHT[2]
    ids[i] = ONES * i + ivec2(ONES.x, -ONES.y)

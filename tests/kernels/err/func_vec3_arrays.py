"""A func may take a `shared_array(vec3, N)` as `Array[vec3]`, but no storage buffer has that
layout: a kernel's `Array[vec4]` passed to it is a type error."""
from spirthon import kernel, func, Array, vec3, vec4, shared_array


@func
def first(t: Array[vec3]) -> vec3:
    return t[0]


@kernel
def k(p: Array[vec4], out: Array[vec4]):
    tile = shared_array(vec3, 8)
    tile[0] = p[0].xyz
    out[0] = vec4(first(tile), 0.0) + vec4(first(p), 1.0)

"""Vectors are values: a kernel's vector parameter is each invocation's own, and a func
changing a component of its parameter leaves the caller's vector as it was."""
from spirthon import kernel, func, Array, f32, vec2, global_id

@func
def bump(v: vec2) -> f32:
    v.x += 1.0
    return v.x

@kernel
def vector_values(p: vec2, out: Array[vec2]):
    i = global_id().x
    p.y += 1.0
    s = bump(p)
    out[i] = p + s

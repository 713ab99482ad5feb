"""Vectors of f64: a dvec does not mix with a vec or an f32 (convert one side), has no
bitwise atomics (the float ones work per component), no ordering and no truth value, and
its components are f64."""
from spirthon import kernel, Array, dvec3, dvec2, vec3, f32, f64, global_id, atomic_and, length


@kernel
def k(a: Array[dvec3], b: Array[vec3], x: Array[f32], out: Array[dvec3]):
    i = global_id().x
    v = a[i]
    w = v + b[i]
    u = v * x[i]
    c = dvec3(x[i], 1.0, 2)
    atomic_and(out, i, v)
    if v < a[0]:
        out[i] = v
    if v:
        out[i] = v
    s: f32 = length(v)
    d = dvec2(v)
    v.x = x[i]

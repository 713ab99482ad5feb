"""A `for` loop over values computed at run time: numbers, vectors, matrices or quats of one
type, and the loop variable is a copy of each (no component assignment)."""
from spirthon import kernel, Array, f32, vec3, global_id

@kernel
def k(x: Array[f32], vs: Array[vec3], out: Array[f32]):
    i = global_id().x
    a = vs[i]
    for v in (a, vs[i]):
        v.x = 1.0
    for q in (i, x[i]):
        pass
    for r in (x, x):
        pass
    for b in (i > 0, True):
        pass

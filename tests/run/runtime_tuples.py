"""`for` loops over tuples of values computed at run time (evaluated once, before the loop),
with `break` and `else`, over vectors with `enumerate`, and the children of a tree node."""
from spirthon import kernel, Array, f32, vec3, global_id

@kernel
def k(x: Array[f32], out: Array[f32], vs: Array[vec3]):
    i = global_id().x
    s = 0.0
    for v in (x[i], x[i] * 2.0, 1, -x[i]):
        s += v
        if v > 100.0:
            break
    else:
        s += 0.5
    t = vec3(0.0)
    for k, w in enumerate((vs[i], vs[i] * 2.0, vec3(1.0))):
        t += w * float(k)
    for node in (2 * i + 1, 2 * i + 2):
        s += float(node)
    out[i] = s + t.x + t.y + t.z

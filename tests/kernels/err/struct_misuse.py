# Misused structs: each error located, with the fields or the way out.
from spirthon import kernel, func, struct, Array, f32, i32, vec3, global_id, atomic_add, local_array

@struct
class P:
    pos: vec3
    mass: f32

@struct
class Q:
    p: P
    n: i32

@kernel
def k(a: Array[P], out: Array[f32], q: Q):
    i = global_id().x
    p = a[i]
    out[i] = p
    x = p + 1.0
    p.velocity = vec3(0.0)
    p.mass = vec3(1.0)
    p = Q()
    r = P(vec3(0.0), 1.0, 2.0)
    s = P(weight=2.0)
    atomic_add(a, i, 1)
    t = local_array(P, 4)
    t2 = t
    t[0] += 1
    t[1].velocity = 2.0
    a[i] += 1
    a[i].pos.w = 1.0
    q.p.mass = p
    u = P(pos=1.0)
    if p == p:
        pass

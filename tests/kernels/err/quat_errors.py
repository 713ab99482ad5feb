"""Quaternions: `*` of two is the Hamilton product, vectors are rotated with `quat_rotate`;
constructors take four numbers, a `vec3` and `w`, or a quat."""
from spirthon import (kernel, Array, f32, vec3, vec4, quat, global_id, mix, quat_rotate,
                      atomic_add)


@kernel
def k(qs: Array[quat], out: Array[f32]):
    i = global_id().x
    q = qs[i]
    a = q * vec3(1.0)
    b = q + vec4(1.0)
    c = quat(1.0)
    d = mix(q, q, 0.5)
    e = quat_rotate(vec3(1.0), q)
    f = q == q
    g = q // 2.0
    atomic_add(qs, i, q)
    out[i] = q.x + q.v

"""`m[i, j] op= x` and `m[i] op= row` evaluate the indices once, as CPython does: the atomic in
the index runs once per invocation."""
from spirthon import kernel, func, Array, mat33, vec3, global_id, atomic_add

@kernel
def k(ms: Array[mat33], c: Array[int], out: Array[mat33]):
    i = global_id().x
    m = ms[i]
    m[atomic_add(c, i, 1) % 3, 1] += 10.0
    m[2] *= 2.0
    m[i % 3] -= vec3(1.0)
    out[i] = m

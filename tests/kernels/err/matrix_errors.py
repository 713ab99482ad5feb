"""Matrices: `@` for products, `*` and `/` by numbers, `+ -` of one size; constructors take
rows or every entry; functions take the types they name."""
from spirthon import (kernel, Array, f32, vec2, vec3, ivec3, mat22, mat33, global_id, inverse, atomic_add,
                      outer, identity, diag)


@kernel
def k(ms: Array[mat33], out: Array[f32], n: int):
    i = global_id().x
    m = ms[i]
    a = m * m
    b = m @ vec2(1.0)
    c = m + 1.0
    d = mat33(1.0, 2.0)
    e = mat22(vec3(1.0), vec3(2.0))
    f = inverse(vec3(1.0))
    g = outer(vec3(1.0), vec2(1.0))
    h = identity(n)
    j = diag(ivec3(1))
    out[i] = m[0, 3] + m[1, 2, 0] + 2 @ 3
    x = m == m
    y = abs(m)
    atomic_add(ms, i, m)

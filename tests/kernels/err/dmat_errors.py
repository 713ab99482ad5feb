"""Matrices of f64: a dmat does not mix with a mat, a vec or an f32 (convert one side with
`dmat33(m)` or `mat33(m)`), and takes rows of its own vector type."""
from spirthon import kernel, Array, dmat33, mat33, vec3, dvec3, f32, global_id


@kernel
def k(a: Array[dmat33], b: Array[mat33], x: Array[f32], v: Array[vec3], out: Array[dmat33]):
    i = global_id().x
    m = a[i]
    p = m @ b[i]
    q = m + b[i]
    r = m * x[i]
    w = m @ v[i]
    n = dmat33(v[i], v[i], v[i])
    m[0, 1] = x[i]
    m[1] = v[i]
    out[i] = b[i]
    good = dmat33(b[i]) @ m + m * 2 - m / 3.0

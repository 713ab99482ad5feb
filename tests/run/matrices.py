"""Matrices as Warp and NumPy users write them: a rotation as a kernel parameter applied with
`@`, `Array[mat33]` as NumPy's `(N, 3, 3)`, entries and rows (`m[i, j]`, `m[i]`, at constant
and run-time indices, read and assigned), `transpose`, `determinant`, `inverse`, `outer`,
`diag`, `identity`, `mat22` and `mat44` through a func, and a local array of matrices."""
from spirthon import (kernel, func, Array, f32, vec2, vec3, vec4, mat22, mat33, mat44,
                      global_id, local_array, transpose, determinant, inverse, outer, diag,
                      identity)


@func
def rigid(R: mat33, t: vec3, p: vec3) -> vec3:
    return R @ p + t


@func
def spin(a: f32) -> mat22:
    return mat22(vec2(1.0 - a * a, -2.0 * a), vec2(2.0 * a, 1.0 - a * a)) / (1.0 + a * a)


@kernel
def bodies(R: mat33, t: vec3, pts: Array[vec3], ms: Array[mat33], moved: Array[vec3],
           dets: Array[f32], inv: Array[mat33], rows: Array[vec4], sums: Array[f32]):
    i = global_id().x
    p = pts[i]
    moved[i] = rigid(R, t, p) + p @ transpose(R) * 0.5
    m = ms[i]
    dets[i] = determinant(m)
    inv[i] = inverse(m)
    k = i % 3
    m[k, (k + 1) % 3] = -1.5
    m[-1] = vec3(m[0, 0], m[k][k], 2.0)
    m[0, 2] += 0.25
    rows[i] = vec4(m[k], m[2, k])
    q = outer(p, vec3(1.0, 2.0, 3.0)) - diag(p) + identity(3) * 2.0
    h = mat44(vec4(q[0], 0.0), vec4(q[1], 0.0), vec4(q[2], 0.0), vec4(0.0, 0.0, 0.0, 1.0))
    g = (h @ transpose(h))[k]
    s = spin(p.x * 0.1) @ vec2(p.y, p.z)
    stack = local_array(mat22, 2)
    stack[0] = spin(0.5)
    stack[1] = -stack[0] @ stack[0]
    sums[i] = g.x + g.y + g.z + g.w + s.x + s.y + determinant(stack[1]) + determinant(q)

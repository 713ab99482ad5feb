"""The polar decomposition `A = R S` of 3x3 deformation gradients, as FEM and MPM codes take
it (R the rotation, S the symmetric stretch): Higham's Newton iteration
`R <- (g R + R^-T / g) / 2`, scaled by `g = sqrt(|R^-1| / |R|)` (Frobenius norms) so that it
converges in a few steps, then `S = R^T A`. Matrices are `Array[mat33]`, NumPy's
`(N, 3, 3)` float32, row-major."""
import math

from spirthon import kernel, func, Array, f32, mat33, global_id, transpose, inverse, dot

ITERS = 8


@func
def frobenius(m: mat33) -> f32:
    return math.sqrt(dot(m[0], m[0]) + dot(m[1], m[1]) + dot(m[2], m[2]))


@func
def rotation_of(a: mat33) -> mat33:
    r = a
    for _ in range(ITERS):
        inv_t = transpose(inverse(r))
        g = math.sqrt(frobenius(inv_t) / frobenius(r))
        r = (r * g + inv_t * (1.0 / g)) * 0.5
    return r


@kernel(workgroup_size=64)
def polar_mat33(a: Array[mat33], rot: Array[mat33], stretch: Array[mat33]):
    i = global_id().x
    m = a[i]
    r = rotation_of(m)
    rot[i] = r
    stretch[i] = transpose(r) @ m

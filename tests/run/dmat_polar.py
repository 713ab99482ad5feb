"""Matrices of f64 (`dmat22 dmat33 dmat44`), as Warp's `mat33d`: the polar decomposition
`F = R·S` of deformation gradients in double precision by Higham's iteration `X ← (X +
X⁻ᵀ)/2` (`inverse`, `transpose`, `determinant`), then `S = Rᵀ·F`, over `Array[dmat33]`
(NumPy `(N, 3, 3)` `float64`), a `dmat22` parameter, a func returning a `dmat33`, entry and
row assignment, `outer`, `diag`, `@` with `dvec3`, and conversions to and from `mat33`."""
from spirthon import (kernel, func, Array, dmat22, dmat33, dmat44, mat33, dvec3, dvec4, f64,
                      i32, global_id, determinant, diag, identity, inverse, outer, transpose)


@func
def polar(f: dmat33, steps: i32) -> dmat33:
    x = f
    for _ in range(steps):
        x = (x + transpose(inverse(x))) * 0.5
    return x


@kernel(workgroup_size=(32, 1, 1))
def decompose(fs: Array[dmat33], shear: dmat22, rot: Array[dmat33], stretch: Array[dmat33],
              axis: Array[dvec3], misc: Array[f64], low: Array[mat33]):
    i = global_id().x
    if i >= len(fs):
        return
    f = fs[i]
    f[0, 1] = f[0, 1] + shear[0, 1] * 0.001
    r = polar(f, 12)
    rot[i] = r
    s = transpose(r) @ f
    s[2] = s[2] * 1.0
    stretch[i] = s
    axis[i] = r @ dvec3(1.0, 0.0, 0.0) + dvec3(0.0, 1.0, 0.0) @ r
    big = dmat44(dvec4(r[0], 0.0), dvec4(r[1], 0.0), dvec4(r[2], 0.0), dvec4(0.0, 0.0, 0.0, 1.0))
    misc[4 * i] = determinant(r)
    misc[4 * i + 1] = determinant(big) + determinant(shear)
    misc[4 * i + 2] = (outer(axis[i], axis[i]) - diag(axis[i]))[1, 2]
    misc[4 * i + 3] = (dmat33(identity(3)) - r @ transpose(r))[i % 3, (i + 1) % 3] * 1e12
    low[i] = mat33(s)

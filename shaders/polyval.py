"""Evaluates a polynomial at every point with Horner's rule."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel(workgroup_size=64)
def polyval(coeffs: Array[f32], degree: i32, xs: Array[f32], out: Array[f32]):
    i = global_id().x
    x = xs[i]
    acc = 0.0
    for k in range(degree, -1, -1):
        acc = acc * x + coeffs[k]
    out[i] = acc

"""f64: it does not mix with f32 (convert one side), and what it lacks in this version is a
located error: atomics, and a vec2 does not take an f64 component (a dvec2 does)."""
from spirthon import kernel, Array, f32, f64, i32, vec2, global_id, atomic_add


@kernel
def k(xs: Array[f64], ys: Array[f32], out: Array[f64]):
    i = global_id().x
    x = xs[i]
    a = x * ys[i]
    e = x ** ys[i]
    atomic_add(out, i, x)
    v = vec2(x, 1.0)
    ys[i] = x
    out[i] = x / ys[i]

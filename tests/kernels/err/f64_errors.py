"""f64: it does not mix with f32 (convert one side), and what it lacks is a located error:
bitwise atomics (the float ones work), and a vec2 does not take an f64 component (a dvec2
does)."""
from spirthon import kernel, Array, f32, f64, i32, vec2, global_id, atomic_and


@kernel
def k(xs: Array[f64], ys: Array[f32], out: Array[f64]):
    i = global_id().x
    x = xs[i]
    a = x * ys[i]
    e = x ** ys[i]
    atomic_and(out, i, x)
    v = vec2(x, 1.0)
    ys[i] = x
    out[i] = x / ys[i]

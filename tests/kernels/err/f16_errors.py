"""f16 does not mix with f32 or f64 (convert one side), converts from an f64 only through
f32, has `**` with an int literal exponent only, no vectors and no atomics."""
from spirthon import kernel, Array, f16, f32, f64, i32, vec3, global_id, atomic_add


@kernel
def k(h: Array[f16], f: Array[f32], d: Array[f64], out: Array[f16]):
    i = global_id().x
    a = h[i] + f[i]
    b = f16(d[i])
    c = h[i] ** 2.5
    e = h[i] / f[i]
    v = vec3(h[i])
    atomic_add(h, i, 1.0)
    out[i] = h[i] ** 2 + f16(f32(d[i]))

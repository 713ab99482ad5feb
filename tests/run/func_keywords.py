"""Funcs called as Python code calls them: default parameter values (literals, module
constants and constant expressions of them, converted to the parameter's type) and
keyword arguments in any order, mixed with positional ones, each argument evaluated where
the call writes it (a walrus in an argument sees the ones before it)."""
from spirthon import kernel, func, Array, f32, f64, i32, u32, global_id

STEPS = 4
GAIN: f32 = 0.1


@func
def blend(a: f32, b: f32, t: f32 = 0.25, bias: f32 = GAIN * 4, n: i32 = STEPS - 1) -> f32:
    return a * (1.0 - t) + b * t + bias * f32(n)


@func
def mix_hash(h: u32, k: u32 = 0x9E3779B9, rounds: i32 = 2) -> u32:
    for _ in range(rounds):
        h = (h ^ k) * 16777619
        h ^= h >> 15
    return h


@func
def wide(x: f64, scale: f64 = 0.1, shift: f64 = 1e-9) -> f64:
    return x * scale + shift


@kernel
def k(x: Array[f32], seeds: Array[u32], d: Array[f64], out: Array[f32], hs: Array[u32],
      od: Array[f64]):
    i = global_id().x
    out[4 * i] = blend(x[i], 2.0)
    out[4 * i + 1] = blend(x[i], 2.0, t=0.5)
    out[4 * i + 2] = blend(b=x[i], a=1.0, n=i, bias=0.5)
    out[4 * i + 3] = blend(x[i], b=(w := x[i] * 2.0), t=w * 0.125)
    hs[3 * i] = mix_hash(seeds[i])
    hs[3 * i + 1] = mix_hash(seeds[i], rounds=i % 3)
    hs[3 * i + 2] = mix_hash(k=seeds[i], h=u32(i))
    od[2 * i] = wide(d[i])
    od[2 * i + 1] = wide(d[i], shift=0.0) + wide(scale=2.0, x=d[i])

"""f64 end to end: arrays, a uniform parameter, a typed module constant, literals taken at
double precision, ints promoting, funcs and their tuples, local and shared arrays, the exact
math functions, conversions both ways, and `//` and `%` with both signs and large
quotients. (No cancelling sum: lavapipe reassociates
`(1.0 + d) - 1.0` into `d`, in f32 as in f64.)"""
import math

from spirthon import (kernel, func, Array, f64, f32, i32, global_id, local_id, local_array,
                      shared_array, barrier)

TENTH: f64 = 0.1


@func
def horner(x: f64) -> f64:
    return ((0.5 * x + 0.25) * x - 1.0) * x + 2.0


@func
def halves(x: f64) -> tuple[f64, f64]:
    return x * 0.5, x / 3.0


@kernel
def f64_arith(x: Array[f64], out: Array[f64], flags: Array[i32], bump: f64):
    i = global_id().x
    # A kernel with a barrier has no implicit guard: every invocation of the workgroup runs.
    v = x[i % len(x)]
    tmp = local_array(f64, 4)
    for k in range(4):
        tmp[k] = v * k
    sh = shared_array(f64, 64)
    sh[local_id().x] = v + bump
    barrier()
    a, b = halves(v)
    s = math.sqrt(abs(v)) + math.floor(v) + min(v, 2.0) + max(v, i) + round(v) + a + b
    s += horner(v) * TENTH + tmp[3] + f64(f32(v)) + 1 / (v + 10.0) + v ** 3 + f64(i) / 7
    s -= sh[(local_id().x + 1) % 8]
    # Python's floored `//` and `%`, on an exact remainder (also of huge quotients).
    s += v % 0.7 + v // 0.3 + (v * 1e12) % -3.25 + (-v) // 1e-3 + (v + 0.5) % (v + 0.25)
    if i >= len(x):
        return
    out[2 * i] = s
    out[2 * i + 1] = (1.0 + bump) * 0.5 + f64(math.trunc(v)) * 1e-3 + math.ceil(-v)
    flags[i] = (int(math.isnan(v)) + 2 * int(math.isinf(v * 1e307)) + 4 * int(math.isfinite(v))
                + 8 * int(v < TENTH) + 16 * (1 if v else 0) + 32 * int(v) + 4096 * u32_bits(v))


@func
def u32_bits(v: f64) -> i32:
    return int(f32(v) > 1.0)

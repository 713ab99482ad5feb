"""Black-Scholes with the exact normal distribution (`erfc`), and the functions that keep
precision near zero: continuously compounded returns (`log1p`, `expm1`), a cube root."""
import math
from math import erf
from spirthon import kernel, func, Array, f32, global_id

SQRT_HALF = 0.7071067811865476


@func
def normal_cdf(d: f32) -> f32:
    return 0.5 * math.erfc(-d * SQRT_HALF)


@kernel
def special_functions(r: f32, v: f32, s: Array[f32], x: Array[f32], t: Array[f32],
                      call: Array[f32], growth: Array[f32], side: Array[f32], odd: Array[f32]):
    i = global_id().x
    sqrt_t = math.sqrt(t[i])
    d1 = (math.log1p(s[i] / x[i] - 1.0) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    call[i] = s[i] * normal_cdf(d1) - x[i] * math.exp(-r * t[i]) * normal_cdf(d2)
    # The interest earned on 1.0 over t at rate r, precise for tiny r * t.
    growth[i] = math.expm1(r * 1e-3 * t[i])
    side[i] = math.cbrt(s[i] * x[i] * t[i]) - erf(d1) + math.erf(0.5)
    odd[i] = math.cbrt(-s[i]) + math.log1p(-1.0 / (s[i] + 1.0))

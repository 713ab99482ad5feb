"""Black-Scholes prices of European options: one func returns the call and the put price as
a tuple, unpacked at the call."""
import math
from spirthon import kernel, func, Array, f32, global_id


@func
def cnd(d: f32) -> f32:
    """The cumulative normal distribution (Abramowitz and Stegun 26.2.17)."""
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    w = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    c = 1.0 - 0.3989422804014327 * math.exp(-0.5 * d * d) * w
    return c if d >= 0.0 else 1.0 - c


@func
def price(s: f32, x: f32, t: f32, r: f32, v: f32) -> tuple[f32, f32]:
    sqrt_t = math.sqrt(t)
    d1 = (math.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    discount = x * math.exp(-r * t)
    call = s * cnd(d1) - discount * cnd(d2)
    put = discount * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1))
    return call, put


@kernel
def black_scholes(r: f32, v: f32, s: Array[f32], x: Array[f32], t: Array[f32],
                  call: Array[f32], put: Array[f32]):
    i = global_id().x
    c, p = price(s[i], x[i], t[i], r, v)
    call[i] = c
    put[i] = p

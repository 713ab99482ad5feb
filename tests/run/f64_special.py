"""cbrt, erf, erfc, copysign and fmod on f64, the module's own: Black-Scholes prices in
double precision from the normal distribution (`erfc`), the side of a cube from its volume,
an angle wrapped to (-π, π] by `fmod` with the sign put back by `copysign`."""
import math
from spirthon import kernel, func, Array, f64, global_id

SQRT_HALF = 0.7071067811865476


@func
def cnd(d: f64) -> f64:
    return 0.5 * math.erfc(-d * SQRT_HALF)


@kernel(workgroup_size=(64, 1, 1))
def price(s: Array[f64], k: Array[f64], t: Array[f64], rate: f64, vol: f64, out: Array[f64]):
    i = global_id().x
    if i >= len(s):
        return
    sq = vol * math.sqrt(t[i])
    d1 = (math.log(s[i] / k[i]) + (rate + 0.5 * vol * vol) * t[i]) / sq
    d2 = d1 - sq
    call = s[i] * cnd(d1) - k[i] * math.exp(-rate * t[i]) * cnd(d2)
    out[5 * i] = call
    out[5 * i + 1] = math.erf(d1 * 0.1) + math.erf(d2 * 10.0)
    out[5 * i + 2] = math.cbrt(s[i] * k[i] * t[i]) + math.cbrt(-d2)
    a = math.fmod(s[i] * 37.0, 2.0 * math.pi)
    out[5 * i + 3] = math.copysign(a, d2)
    out[5 * i + 4] = math.fmod(-s[i], k[i]) + s[i] % k[i]

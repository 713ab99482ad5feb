"""exp, log, log2, log10, sin, cos, tan, atan, atan2, asin and acos on f64, the module's own:
a Kepler orbit solved by Newton's method in double precision (sin and cos of the eccentric
anomaly, the true anomaly by atan2, the latitude of an inclined orbit by asin), the
Arrhenius rate of a temperature (exp of a quotient), and the decibels and bits of a power
(log10, log2), powers with float exponents, for arguments from tiny to huge (a sine of 1e22 is reduced by 2/π exactly)."""
import math
from spirthon import kernel, Array, f64, i32, global_id


@kernel(workgroup_size=(64, 1, 1))
def orbit(mean: Array[f64], ecc: f64, pos: Array[f64], misc: Array[f64], ang: Array[f64]):
    i = global_id().x
    if i >= len(mean):
        return
    m = mean[i]
    e = m
    for _ in range(8):
        e = e - (e - ecc * math.sin(e) - m) / (1.0 - ecc * math.cos(e))
    pos[2 * i] = math.cos(e) - ecc
    pos[2 * i + 1] = math.sqrt(1.0 - ecc * ecc) * math.sin(e)
    nu = math.atan2(pos[2 * i + 1], pos[2 * i])
    ang[3 * i] = nu
    ang[3 * i + 1] = math.asin(0.3 * math.sin(nu)) + math.atan(m)
    ang[3 * i + 2] = math.acos(math.cos(nu) * 0.999)
    x = math.fabs(m) + 1e-3
    misc[6 * i] = math.exp(-5000.0 / (300.0 + 10.0 * x))
    misc[6 * i + 1] = 10.0 * math.log10(x * 1e12)
    misc[6 * i + 2] = math.log2(x) + math.log(x)
    misc[6 * i + 3] = math.tan(m * 0.25)
    misc[6 * i + 4] = math.sin(m * 1e15) + math.cos(1e22 + m)
    misc[6 * i + 5] = math.exp(m) * math.exp(-m) + (1.0 + x) ** 1.5 + math.pow(x, -0.25)

"""f64 rounding at the edges: round() of ties (half to even), int() and math.trunc of
negative doubles past 2^31 with a fraction, floor and ceil. (lavapipe's own double
RoundEven and Trunc get some of these wrong; the module builds them from floor and ceil.)"""
import math

from spirthon import Array, f64, global_id, i32, kernel


@kernel
def f64_rounding(x: Array[f64], r: Array[i32], t: Array[i32], fl: Array[f64], ce: Array[f64], tr: Array[f64]):
    i = global_id().x
    v = x[i]
    r[i] = round(v)
    t[i] = int(v) + math.trunc(v)
    fl[i] = f64(math.floor(v * 0.25))
    ce[i] = f64(math.ceil(v * 0.25))
    tr[i] = f64(round(v * 0.5)) + f64(int(v / 3.0))

import math
from math import sqrt, pi

from spirthon import kernel, Array, f32, i32, global_id


@kernel
def math_fns(x: Array[f32], out: Array[f32], ints: Array[i32], flags: Array[i32]):
    i = global_id().x
    v = x[i]
    s = sqrt(v) + math.sin(v) + math.cos(v) + math.tan(v) + math.asin(v) + math.acos(v)
    s += math.atan(v) + math.atan2(v, 2.0) + math.sinh(v) + math.cosh(v) + math.tanh(v)
    s += math.exp(v) + math.exp2(v) + math.log(v) + math.log2(v) + math.log10(v) + math.log(v, 3.0)
    s += math.pow(v, 1.5) + math.fabs(v) + math.copysign(1.0, v) + math.hypot(v, 4.0)
    s += math.fmod(v, 0.75) + pi + math.e + math.tau + math.sqrt(2)
    out[i] = s
    ints[i] = math.floor(v) + math.ceil(v) + math.trunc(v)
    flags[i] = int(math.isnan(v)) + int(math.isinf(v)) * 2 + int(math.isfinite(v)) * 4

"""A float `//` whose quotient is zero has the sign of `a / b`, as in CPython
(`-0.0 // 1.5` is `-0.0`, `0.5 // -2.0` is `-1.0`); `copysign` makes the sign visible."""
import math

from spirthon import kernel, Array, f32, global_id


@kernel
def signed_zero_floordiv(a: Array[f32], b: Array[f32], s: Array[f32], q: Array[f32], folded: Array[f32]):
    i = global_id().x
    q[i] = a[i] // b[i]
    s[i] = math.copysign(1.0, a[i] // b[i])
    folded[i] = 2.0 * math.copysign(1.0, -0.0 // 1.5) + math.copysign(1.0, 0.0 // -3.0)

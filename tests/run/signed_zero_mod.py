"""A float `%` whose remainder is zero takes the divisor's sign, as in CPython (`0.0 % -2.0`
is `-0.0`); `copysign` makes the sign visible, since `-0.0 == 0.0`."""
import math

from spirthon import kernel, Array, f32, global_id


@kernel
def signed_zero_mod(a: Array[f32], b: Array[f32], s: Array[f32], folded: Array[f32]):
    i = global_id().x
    s[i] = math.copysign(1.0, a[i] % b[i])
    folded[i] = 2.0 * math.copysign(1.0, 0.0 % -2.0) + math.copysign(1.0, -4.0 % 2.0)

"""Scales values, then clamps them with value-returning `or` and a conditional expression."""
from spirthon import kernel, Array, f32, global_id

LIMIT: f32 = 10.0


@kernel
def clamp_scale(x: Array[f32], scale: f32, out: Array[f32]):
    i = global_id().x
    factor = scale or 1.0
    v = x[i] * factor
    out[i] = LIMIT if v > LIMIT else (-LIMIT if v < -LIMIT else v)

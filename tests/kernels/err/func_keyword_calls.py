"""Keyword arguments: a call names parameters that exist, once each, gives every one without
a default, and passes no more than there are; built-in functions take arguments by
position."""
import math

from spirthon import kernel, func, Array, f32, i32, global_id

SCALE = 2.0


@func
def blend(a: f32, b: f32, t: f32 = 0.5, n: i32 = 1) -> f32:
    return a * (1.0 - t) + b * t * f32(n)


@func
def fine(x: f32, y: f32 = SCALE * 2) -> f32:
    return x + y


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = blend(x[i], 1.0, w=0.5)
    out[i] = blend(x[i], 1.0, 0.25, t=0.5)
    out[i] = blend(t=0.5, n=2)
    out[i] = blend(x[i], 1.0, 0.5, 2, 3)
    out[i] = math.sqrt(x=x[i])
    out[i] = blend(x[i], b=2, t=i)
    out[i] = fine(y=1.0, x=x[i]) + blend(b=2.0, a=x[i], n=3)

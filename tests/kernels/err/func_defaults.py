"""Default values: a constant of the parameter's type (literals and module constants), and
not on a kernel's parameter (a launch passes them all) or an array's."""
import math

from spirthon import kernel, func, Array, f32, i32, global_id

SCALE = 2.0


@func
def blend(a: f32, b: f32, t: f32 = 0.5, n: i32 = 1) -> f32:
    return a * (1.0 - t) + b * t * f32(n)


@func
def bad(x: f32, y: f32 = math.sqrt(2.0), k: i32 = 0.5, arr: Array[f32] = 0) -> f32:
    return x


@func
def fine(x: f32, y: f32 = SCALE * 2) -> f32:
    return x + y


@kernel
def k(x: Array[f32], out: Array[f32], gain: f32 = 1.0):
    i = global_id().x
    out[i] = bad(x[i]) + fine(x[i]) + blend(x[i], 1.0)

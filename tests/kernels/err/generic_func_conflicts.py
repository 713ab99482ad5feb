from typing import TypeVar
from spirthon import kernel, func, Array, f32, i32, global_id

T = TypeVar("T")


@func
def clamp01(x, lo=0, hi=1):
    return min(max(x, lo), hi)


@func
def pick(a: Array[T], b: T):
    return a[0] + b


@kernel
def k(x: Array[f32], xi: Array[i32], out: Array[f32]):
    i = global_id().x
    out[i] = clamp01(x[i])
    out[i] = pick(x, 1)
    out[i] = pick(x[i], 1.0)
    out[i] = pick(xi, 1.5)

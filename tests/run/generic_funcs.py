"""Generic funcs: parameters without annotations (or `Any`, or a TypeVar, also as
`Array[T]`), specialized at each call from the arguments' types: one func for f32, i32,
f64 and vec3 values and arrays, a default argument, a literal that takes its TypeVar's type
from another argument, a struct, and a generic func calling another."""

from typing import Any, TypeVar

from spirthon import kernel, func, struct, Array, f32, i32, f64, vec3, global_id

T = TypeVar("T")


@struct
class Pair:
    a: f32
    b: i32


@func
def twice(x):
    return x + x


@func
def clamp01(x, lo=0, hi=1):
    return min(max(x, lo), hi)


@func
def dot_of(a: Array[T], b: Array[T], n: i32):
    s = a[0] * b[0]
    for k in range(1, n):
        s += a[k] * b[k]
    return s


@func
def first_plus(a: Array[T], b: T):
    return a[0] + b


@func
def scaled(v, k: Any):
    return twice(v) * k


@func
def total(p):
    return p.a + f32(p.b)


@kernel
def k(x: Array[f32], xi: Array[i32], xd: Array[f64], v: Array[vec3], out: Array[f32],
      oi: Array[i32], od: Array[f64], ov: Array[vec3]):
    i = global_id().x
    out[i] = twice(x[i]) + clamp01(x[i], 0.0, 1.0) + dot_of(x, x, 3) + first_plus(x, 1)
    out[i] += clamp01(x[i]) + total(Pair(a=x[i], b=xi[i]))
    oi[i] = twice(xi[i]) + clamp01(xi[i], 0, 5) + dot_of(xi, xi, 2) + twice(3)
    od[i] = twice(xd[i]) + dot_of(xd, xd, 4) + first_plus(xd, 0.5)
    ov[i] = scaled(v[i], 0.5) + twice(v[i]) + scaled(v[i], 2)

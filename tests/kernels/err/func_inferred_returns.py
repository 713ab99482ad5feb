"""A func without a return annotation returns the one type its `return`s give: two that
differ are an error that names both (a literal takes its default type)."""
from spirthon import *

@func
def bad(x: f32, n: i32):
    if x > 0.0:
        return x
    return n

@func
def shape(x: f32):
    if x > 0.0:
        return x, 1
    return x, 2.0

@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = bad(x[i], 2)
    a, b = shape(x[i])

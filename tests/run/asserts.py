"""Asserts that hold: outside checked mode they run nothing and change nothing."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def positive(v: f32) -> bool:
    return v > 0.0


@kernel
def asserts(x: Array[f32], n: i32):
    i = global_id().x
    assert i < n and (x[i] >= 0.0 or positive(-x[i]))
    assert 0 <= i < n
    y = x[i] * 2.0
    assert y if y != 0.0 else True
    x[i] = y

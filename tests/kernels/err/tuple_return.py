"""Tuple return types are not supported in this version."""
from spirthon import kernel, func, Array, f32


@func
def pair(a: f32) -> tuple[f32, f32]:
    return a, a


@kernel
def k(C: Array[f32]):
    C[0] = 1.0

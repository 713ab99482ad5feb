import typing
from typing import Any, TypeVar

from spirthon import kernel, func, struct, Array, f32, global_id

T = TypeVar("T")
U = typing.TypeVar("U")


@struct
class Pair:
    a: T
    b: f32


@func
def twice(x: Any) -> f32:
    return x * 2.0


@func
def halve(x: U) -> U:
    return x


@kernel
def k(a: Array[T], w: T = 1.0):
    i = global_id().x
    a[i] = twice(a[i])

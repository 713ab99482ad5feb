from typing import Any, TypeVar

from spirthon import kernel, Array, Array2D, global_id

T = TypeVar("T")


@kernel
def add(a: Array[T], b: Array[T], out: Array[T]):
    i = global_id().x
    out[i] = a[i] + b[i]


@kernel
def numba_style(x, k, grid: Array2D[Any]):
    i = global_id().x
    x[i] = x[i] * k


@kernel
def plain(out: Array[int]):
    out[0] = 1

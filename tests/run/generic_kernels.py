"""Generic kernels: one over a TypeVar shared by three arrays and a scalar, one over an
`Any` element of a 2-D array; the run JSON gives the types (and names the kernel)."""

from typing import Any, TypeVar

from spirthon import kernel, Array, Array2D, global_id

T = TypeVar("T")


@kernel
def blend(a: Array[T], b: Array[T], w: T, out: Array[T]):
    i = global_id().x
    out[i] = a[i] * w + b[i] * (1 - w)


@kernel
def transpose_any(src: Array2D[Any], dst: Array2D[Any]):
    i, j, _ = global_id()
    dst[j, i] = src[i, j]

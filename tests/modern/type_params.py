# requires Python 3.12
"""PEP 695 around a kernel: `type` aliases, generic functions and classes with bounds,
constraints and defaults-free parameter lists, and a kernel beside them."""
import numpy as np

from spirthon import kernel, func, Array, f32, i32, global_id

type Vec = list[float]
type Pair[T] = tuple[T, T]


def first[T](xs: list[T]) -> T:
    return xs[0]


def biggest[T: (int, float)](a: T, b: T) -> T:
    return a if a > b else b


class Box[T]:
    def __init__(self, item: T) -> None:
        self.item = item

    def get[S](self, other: S) -> tuple[T, S]:
        return self.item, other


@func
def clamp(v: i32, lo: i32, hi: i32) -> i32:
    return max(lo, min(v, hi))


@kernel
def clamp_all(x: Array[i32], out: Array[i32]):
    i = global_id().x
    out[i] = clamp(x[i], -3, 3)


if __name__ == "__main__":
    x = np.arange(-8, 8, dtype=np.int32)
    out = np.zeros(16, dtype=np.int32)
    clamp_all.launch(16, x, out)
    assert np.array_equal(out, np.clip(x, -3, 3)), out
    assert first([4, 5]) == 4 and biggest(2, 3) == 3 and Box(1).get("a") == (1, "a")
    print("ok type_params.py")

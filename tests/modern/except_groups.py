# requires Python 3.14
"""PEP 758 `except A, B:` without parentheses, and PEP 654 `except*`, around a kernel."""
import numpy as np

from spirthon import kernel, Array, i32, global_id


def parse_int(text):
    try:
        return int(text)
    except ValueError, TypeError:
        return None


def first_error(group):
    try:
        raise group
    except* KeyError as e:
        return e.exceptions[0]


@kernel
def count_bits(x: Array[i32], out: Array[i32]):
    i = global_id().x
    v = x[i]
    n = 0
    while v != 0:
        n += v & 1
        v = v >> 1
    out[i] = n


if __name__ == "__main__":
    x = np.arange(64, dtype=np.int32)
    out = np.zeros(64, dtype=np.int32)
    count_bits.launch(64, x, out)
    assert np.array_equal(out, [bin(v).count("1") for v in range(64)]), out
    assert parse_int("7") == 7 and parse_int(None) is None
    assert isinstance(first_error(ExceptionGroup("g", [KeyError("k")])), KeyError)
    print("ok except_groups.py")

# requires Python 3.12
"""PEP 701 f-strings around a kernel: nested quotes of the same kind, format specs,
expressions over several lines with comments, and f-strings inside f-strings."""
import numpy as np

from spirthon import kernel, Array, f32, global_id


def summary(d):
    return f"result: {d["a"]:.3f} and {d['b']!r:>8}"


def report(values):
    return f"{", ".join(f"{v:.1f}" for v in values)}"


def multiline(x):
    return f"{
        x  # the value
        * 2
    }"


@kernel
def saxpy(a: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a * x[i] + y[i]


if __name__ == "__main__":
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, dtype=np.float32)
    saxpy.launch(64, 2.0, x, y)
    assert np.array_equal(y, 2.0 * np.arange(64, dtype=np.float32) + 1.0), y
    assert summary({"a": 1.0, "b": "q"}) == "result: 1.000 and      'q'"
    assert report([1, 2]) == "1.0, 2.0" and multiline(3) == "6"
    print(f"ok {__file__.rsplit("/", 1)[-1]}")

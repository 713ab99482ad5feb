# requires Python 3.10
"""`match` and the walrus operator on both sides: CPU-side `match` over classes, mappings
and sequences (any pattern), and a kernel that dispatches over opcodes with `match` and
counts down with `:=`."""
from dataclasses import dataclass

from spirthon import kernel, func, Array, i32, f32, global_id


@dataclass
class Point:
    x: float
    y: float


def describe(shape):
    match shape:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=x, y=y) if x == y:
            return "diagonal"
        case {"kind": "circle", "r": r}:
            return f"circle {r}"
        case [first, *rest]:
            return f"list of {len(rest) + 1}"
        case _:
            return "other"


@func
def apply(op: i32, a: f32, b: f32) -> f32:
    match op:
        case 0:
            return a + b
        case 1 | 2:
            return a - b
        case -1:
            return a * b
        case other if other > 10:
            return b
        case _:
            return 0.0


@kernel
def interpret(ops: Array[i32], a: Array[f32], b: Array[f32], out: Array[f32]):
    i = global_id().x
    r = apply(ops[i], a[i], b[i])
    n = i
    while (n := n - 4) > 0:
        r += 1.0
    out[i] = r


def expected(ops, a, b):
    out = []
    for i, (op, x, y) in enumerate(zip(ops, a, b)):
        r = {0: x + y, 1: x - y, 2: x - y, -1: x * y}.get(op, y if op > 10 else 0.0)
        out.append(r + max(0, (i - 1) // 4))
    return out


if __name__ == "__main__":
    import numpy as np

    ops = np.array([0, 1, 2, -1, 11, 5, 0, -1] * 4, dtype=np.int32)
    a = np.linspace(0, 3, 32, dtype=np.float32)
    b = np.linspace(1, 2, 32, dtype=np.float32)
    out = np.zeros(32, dtype=np.float32)
    interpret.launch(32, ops, a, b, out)
    want = np.array(expected(ops.tolist(), a, b), dtype=np.float32)
    assert np.allclose(out, want, rtol=0, atol=1e-6), (out, want)
    assert describe(Point(0, 0)) == "origin" and describe([1, 2]) == "list of 2"
    if (n := len(out)) != 32:
        raise SystemExit(n)
    print("ok match_walrus.py")

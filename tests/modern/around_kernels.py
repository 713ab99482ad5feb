# requires Python 3.9
"""Everything else a script holds around its kernels: async helpers, classes with
decorated methods, decorators that are arbitrary expressions (PEP 614), lambdas,
comprehensions, a `global`, star-unpacking, and the `__main__` block that launches."""
import asyncio
import functools

from spirthon import kernel, func, Array, f32, global_id

REGISTRY = {}
buttons = [lambda f: f, functools.lru_cache(maxsize=None)]


def register(name):
    def wrap(f):
        REGISTRY[name] = f
        return f
    return wrap


@buttons[0]
def identity(v):
    return v


@(lambda f: f)
def also_identity(v):
    return v


class Scaler:
    factor = 2.0

    @staticmethod
    def scale(v):
        return v * Scaler.factor

    @property
    def double(self):
        return [x * 2 for x in range(3)]


async def fetch(n):
    await asyncio.sleep(0)
    return {k: v for k, v in zip(range(n), "abc")}


@func
def poly(v: f32) -> f32:
    return (v * 0.5 + 1.0) * v


@kernel(workgroup_size=32)
def evaluate(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = poly(x[i])


register("poly")(poly)


def main():
    import numpy as np

    global buttons
    head, *tail = [1, 2, 3]
    x = np.linspace(-2, 2, 96, dtype=np.float32)
    out = np.zeros(96, dtype=np.float32)
    evaluate.launch(96, x, out)
    want = (x * np.float32(0.5) + np.float32(1.0)) * x
    assert np.array_equal(out, want), out
    assert asyncio.run(fetch(2)) == {0: "a", 1: "b"} and tail == [2, 3]
    assert Scaler.scale(2) == 4.0 and identity(1) == also_identity(1) == 1
    assert REGISTRY["poly"] is poly
    buttons = None
    print("ok around_kernels.py")


if __name__ == "__main__":
    main()

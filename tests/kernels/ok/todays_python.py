"""A kernel file in today's Python: around the kernel, a `type` alias, PEP 695 generics,
PEP 701 f-strings with nested quotes, a template string, `except A, B:`, `match` over
classes and sequences, an async helper and a class; none of it reaches the module."""
from spirthon import kernel, func, Array, f32, i32, global_id

type Grid = list[list[float]]


def first[T](xs: list[T]) -> T:
    return xs[0]


class Stack[T]:
    def push(self, item: T) -> None:
        self.items = [*getattr(self, "items", []), item]


def label(d: dict[str, float]) -> str:
    return f"{d["name"]}: {d["value"]:.{d["digits"]}f}"


def template(x):
    return t"value {x!r:>10}"


def parse(text):
    try:
        return int(text)
    except ValueError, TypeError:
        return None


def kind(shape):
    match shape:
        case {"kind": "circle", "r": r}:
            return r
        case [x, y, *_]:
            return x + y
        case _:
            return None


async def wait(n):
    return await n


@func
def step(v: f32, code: i32) -> f32:
    match code:
        case 0:
            return v
        case 1 | 2:
            return v * 2.0
        case _:
            return -v


@kernel
def apply(codes: Array[i32], x: Array[f32]):
    i = global_id().x
    if (c := codes[i]) >= 0:
        x[i] = step(x[i], c)


if __name__ == "__main__":
    print(f"{label({"name": "a", "value": 1.0, "digits": 2})}")

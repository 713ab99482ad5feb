"""One error per mistake: a `*` argument's arity, and the calls of a func whose `return`s
give two types (so it has none) are not reported again; print's arguments are reported
once each."""
from spirthon import kernel, func, Array, f32, global_id


@func
def twice(a: f32):
    if a > 0.0:
        return a * 2.0
    return 1


@kernel
def k(x: Array[f32], n: f32):
    i = global_id().x
    print("x =", x[i], "and", n, x)
    x[i] = twice(x[i])
    x[i] = twice(x[i]) + 1.0
    x[i] = max(*x)
    x[i] = min(n, *x)
    x[i] = abs(*x)

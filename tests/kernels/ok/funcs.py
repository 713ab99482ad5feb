from spirthon import kernel, func, Array, f32, i32, global_id


@func
def square(v: f32) -> f32:
    return v * v


@func
def norm2(a: f32, b: f32) -> f32:
    return square(a) + square(b)


@func
def total(values: Array[f32], n: i32) -> f32:
    s = 0.0
    for k in range(n):
        s += values[k]
    return s


@func
def mark(flags: Array[i32], i: i32, on: bool):
    if on:
        flags[i] = 1
        return
    flags[i] = 0


@func
def positive(v: f32) -> bool:
    return v > 0.0


@kernel
def funcs(a: Array[f32], b: Array[f32], n: i32, out: Array[f32], flags: Array[i32]):
    i = global_id().x
    out[i] = norm2(a[i], b[i]) + total(a, n) + total(b, n)
    mark(flags, i, positive(a[i]))

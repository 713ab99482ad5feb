"""Helper funcs written without a return annotation, as Numba and plain Python code writes
them: each returns the one type its `return`s give (an f32, a literal's i32, a tuple of
u32s, a vec2, one from a func that is itself inferred), and CPython's results are typed the
same way (a returned literal `3` is an i32 there too, so `count(x) // 2` is an int)."""
from spirthon import kernel, func, Array, f32, u32, vec2, global_id


@func
def pick(x: f32):
    if x > 0.0:
        return x * 2.0
    return -x


@func
def split(h: u32):
    return h >> 16, h & 0xFFFF


@func
def count(x: f32):
    return 3 if x > 1.0 else 1


@func
def rotate(v: vec2):
    return vec2(-v.y, v.x)


@func
def combined(x: f32):
    a, b = split(u32(abs(x) * 1000.0))
    return pick(x) + f32(a + b) + f32(count(x))


@func
def half():
    return 0.5


@kernel
def k(x: Array[f32], out: Array[f32], vs: Array[vec2]):
    i = global_id().x
    out[2 * i] = combined(x[i]) + half() * 3.0
    out[2 * i + 1] = f32(count(x[i]) // 2) + f32(count(x[i]) / 2)
    vs[i] = rotate(vec2(x[i], half()))

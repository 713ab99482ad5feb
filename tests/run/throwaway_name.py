"""`_` is Python's throwaway name: each value assigned to it may have another type (the
type of a local is otherwise fixed by its first assignment), and reading it gives the last
value."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def split(x: f32) -> tuple[i32, f32]:
    return int(x), x - int(x)


@kernel
def parts(x: Array[f32], whole: Array[i32], frac: Array[f32]):
    i, _, _ = global_id()
    w, _ = split(x[i])
    _, f = split(x[i] * 2.0)
    _ = 2.5
    frac[i] = f + _
    _ = w * 3
    whole[i] = w + _

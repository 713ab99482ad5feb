"""Local arrays: a constant size in range, an element type with a layout, a name of their
own, no atomics (nothing races on them), and usable only to the end of their block."""
from spirthon import kernel, func, Array, i32, f32, global_id, local_array, atomic_add

N = 8


@func
def bump(a: Array[i32], i: i32) -> i32:
    return atomic_add(a, i, 1)


@kernel
def k(x: Array[i32], n: i32):
    i = global_id().x
    a = local_array(i32, n)
    b = local_array(bool, N)
    c = local_array(f32, 5000)
    d = local_array(i32, N)
    d[N] = 1
    bump(d, i)
    if i > 2:
        e = local_array(i32, N)
        e[0] = i
    x[i] = e[0]
    local_array(i32, N)
    x = local_array(i32, N)

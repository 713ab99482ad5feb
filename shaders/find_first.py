"""Index of the first negative value in each row, or -1: for/else and early return."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def first_negative(m: Array[f32], row: i32, cols: i32) -> i32:
    for c in range(cols):
        if m[row * cols + c] < 0.0:
            break
    else:
        return -1
    return c


@kernel
def find_first(m: Array[f32], cols: i32, out: Array[i32]):
    r = global_id().x
    out[r] = first_negative(m, r, cols)

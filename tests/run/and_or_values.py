"""and/or return one of their operands, not a bool."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def fallback(v: i32) -> i32:
    return v * 10 + 1


@kernel
def and_or_values(a: Array[i32], b: Array[i32], x: Array[f32], out: Array[i32], fout: Array[f32]):
    i = global_id().x
    out[i] = (a[i] or b[i]) + 1000 * (a[i] and b[i]) + 100000 * (a[i] or fallback(b[i]))
    fout[i] = x[i] or 2.5

"""Chained comparisons evaluate the middle operand once; conditional expressions pick one side."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def chained_compare(x: Array[f32], lo: f32, hi: f32, out: Array[i32], clamped: Array[f32]):
    i = global_id().x
    v = x[i]
    out[i] = int(lo <= v < hi) + 2 * int(lo < v <= hi != v)
    clamped[i] = lo if v < lo else (hi if v > hi else v)

"""Per-row sum, minimum and maximum of a row-major matrix, one row per thread."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel(workgroup_size=32)
def row_stats(m: Array[f32], cols: i32, sums: Array[f32], mins: Array[f32], maxs: Array[f32]):
    r = global_id().x
    s = 0.0
    lo = m[r * cols]
    hi = lo
    for c in range(cols):
        v = m[r * cols + c]
        s += v
        lo = min(lo, v)
        hi = max(hi, v)
    sums[r] = s
    mins[r] = lo
    maxs[r] = hi

"""For each query, the index of the first element >= it in a sorted array (bisect_left)."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def bisect_left(a: Array[f32], x: f32) -> i32:
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def bsearch(sorted_values: Array[f32], queries: Array[f32], out: Array[i32]):
    i = global_id().x
    out[i] = bisect_left(sorted_values, queries[i])

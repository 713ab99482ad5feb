"""Integer square root by Newton's method, exact for all non-negative i32 (no overflow)."""
from spirthon import kernel, func, Array, i32, global_id


@func
def isqrt(n: i32) -> i32:
    if n < 2:
        return n
    # Start at or above sqrt(n) without overflowing 32 bits: sqrt(2**31 - 1) < 46341.
    x = min(n, 46341)
    y = (x + n // x) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


@kernel
def isqrt_all(values: Array[i32], out: Array[i32]):
    i = global_id().x
    out[i] = isqrt(values[i])

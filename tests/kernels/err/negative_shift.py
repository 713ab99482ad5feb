"""A shift by a count that is always negative: Python raises `ValueError` on every run, so it
is a compile error, whether the count is written or folded."""
from spirthon import kernel, Array, i32, global_id


@kernel
def k(x: Array[i32]):
    i = global_id().x
    x[i] = x[i] << -1
    n = 2 - 4
    x[i] = x[i] >> n

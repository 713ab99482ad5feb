"""Whole numbers of float constants that no 32-bit integer holds, or that CPython refuses
to convert: errors in Python's words at the call."""
import math
from spirthon import kernel, Array, f32, i32, global_id

@kernel
def k(x: Array[i32]):
    i = global_id().x
    x[i] = round(1e40)
    x[i] = math.floor(math.inf)
    x[i] = int(math.nan)

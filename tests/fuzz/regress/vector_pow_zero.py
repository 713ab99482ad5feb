"""Int vector components wrap to 32 bits after every operation, on both sides: abs and - of
INT_MIN, ** and * past the range."""
from spirthon import kernel, Array, ivec2, global_id

@kernel
def vector_wrap(a: Array[ivec2]):
    i = global_id().x
    v = a[i]
    a[i] = abs(v) + (-v) + v ** 0 + v * 65537

"""A row of a tuple of tuples at a negative run-time index: out of range in checked mode, on
the GPU and in the reference executor alike, reported under the tuple's name."""
from spirthon import kernel, Array, i32, global_id

DIRS = ((1, 0), (0, 1))


@kernel
def k(idx: Array[i32], o: Array[i32]):
    i = global_id().x
    a, b = DIRS[idx[i]]
    o[i] = a * 10 + b

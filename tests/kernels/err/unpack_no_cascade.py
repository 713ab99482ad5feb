"""A failed unpacking is one error: its targets are not reported again where they are read."""
from spirthon import kernel, func, Array, f32, i32, global_id
@kernel
def k(C: Array[f32]):
    a, b = 1.0
    C[0] = a + b

"""A thread id is not indexed: its components are .x, .y and .z."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    C[i] = float(global_id()[0])

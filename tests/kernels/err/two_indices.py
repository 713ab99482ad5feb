"""Arrays are one-dimensional in this version: two indices are an error with a way out."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    C[i, 1] = 1.0

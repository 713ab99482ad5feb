"""A scalar workgroup size past the device limit says so, as the tuple form does."""
from spirthon import kernel, func, Array, f32, i32, global_id
@kernel(workgroup_size=2048)
def k(C: Array[f32]):
    C[0] = 1.0

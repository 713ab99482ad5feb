"""A local array indexed with a constant past its end, or a negative one."""
from spirthon import kernel, Array, i32, global_id, local_array

@kernel
def k(x: Array[i32]):
    i = global_id().x
    d = local_array(i32, 8)
    d[8] = 1
    x[i] = d[-1]

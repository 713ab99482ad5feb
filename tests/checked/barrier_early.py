"""A failure before a barrier: the failing invocation stops, the rest of its workgroup goes on
past the barrier without it."""
from spirthon import Array, f32, barrier, global_id, kernel, local_id, shared_array


@kernel(workgroup_size=8)
def rotate(x: Array[f32], y: Array[f32]):
    tile = shared_array(f32, 8)
    g = global_id().x
    t = local_id().x
    if g < len(x):
        tile[t + 1] = x[g]
    barrier()
    tile[t] = tile[t] * 2.0
    barrier()
    y[g] = tile[t]

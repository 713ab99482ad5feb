"""A shared array indexed past its end by the last invocations of each workgroup."""
from spirthon import Array, f32, barrier, global_id, kernel, local_id, shared_array

TILE = 8


@kernel(workgroup_size=8)
def shift(x: Array[f32], y: Array[f32]):
    tile = shared_array(f32, TILE)
    g = global_id().x
    t = local_id().x
    if g < len(x):
        tile[t] = x[g]
    barrier()
    if g < len(y):
        y[g] = tile[t + 2]

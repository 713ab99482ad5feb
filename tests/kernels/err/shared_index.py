"""A constant index past the end of a shared array (its length is known) is an error."""
from spirthon import kernel, Array, i32, global_id, local_id, shared_array, barrier

TILE = 16


@kernel(workgroup_size=TILE)
def k(out: Array[i32]):
    tile = shared_array(i32, TILE)
    lid = local_id().x
    tile[lid] = lid
    barrier()
    last = TILE
    if global_id().x < len(out):
        out[global_id().x] = tile[last]

"""A tile filled by a loop one step too long: the last invocation's last store is past the
end (bounds-check elimination must keep this check)."""
from spirthon import Array, barrier, global_id, i32, kernel, local_id, shared_array


@kernel(workgroup_size=8)
def fill(out: Array[i32]):
    tile = shared_array(i32, 64)
    lid = local_id().x
    for k in range(9):
        tile[lid * 8 + k] = k
    barrier()
    g = global_id().x
    if g < len(out):
        out[g] = tile[lid * 8]

"""Checked mode's bounds-check elimination: the checks the compiler proves are left out (a
guarded access, a shared tile indexed by local_id() and a loop counter), the others stay."""
from spirthon import Array, barrier, f32, global_id, kernel, local_id, shared_array

TILE = 8


@kernel(workgroup_size=TILE)
def checked_pruned(x: Array[f32], out: Array[f32]):
    tile = shared_array(f32, TILE * TILE)
    lid = local_id().x
    i = global_id().x
    for k in range(TILE):
        tile[lid * TILE + k] = 0.0
    if i < len(x):
        tile[lid * TILE] = x[i]
    barrier()
    total = 0.0
    for k in range(TILE + 1):
        total += tile[(lid * TILE + k) % (TILE * TILE)]
    if i < len(out):
        out[i] = total + x[i]

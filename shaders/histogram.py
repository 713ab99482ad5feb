"""A 16-bin histogram of byte values: each workgroup counts into a shared histogram with
atomics, then adds it to the global one with one atomic per bin."""
from spirthon import kernel, Array, i32, u32, global_id, local_id, shared_array, barrier, atomic_add

BINS = 16
WG = 64


@kernel(workgroup_size=WG)
def histogram(data: Array[u32], hist: Array[u32]):
    local = shared_array(u32, BINS)
    lid = local_id().x
    i = global_id().x
    if lid < BINS:
        local[lid] = u32(0)
    barrier()
    if i < len(data):
        atomic_add(local, i32(data[i] >> 4), u32(1))
    barrier()
    if lid < BINS:
        atomic_add(hist, lid, local[lid])

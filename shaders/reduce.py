"""Sums of 256-element blocks: a grid-stride load into a shared array, then a tree
reduction with a barrier after every step; one partial sum per workgroup."""
from spirthon import kernel, Array, f32, i32, global_id, local_id, workgroup_id, shared_array, barrier

WG = 256


@kernel(workgroup_size=WG)
def reduce(x: Array[f32], partial: Array[f32]):
    tile = shared_array(f32, WG)
    lid = local_id().x
    i = global_id().x
    tile[lid] = x[i] if i < len(x) else 0.0
    barrier()
    s = WG // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        barrier()
        s //= 2
    if lid == 0:
        partial[workgroup_id().x] = tile[0]

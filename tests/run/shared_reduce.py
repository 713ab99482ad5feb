"""A workgroup reduction in a shared array (its tree steps in a func that takes the shared
array and reaches barrier()), histograms with atomics on a shared and a global array,
atomic_max and atomic_compare_exchange, and the launch size: 200 threads in workgroups of 64,
so the last workgroup runs invocations past the launch (no implicit guard)."""
from spirthon import kernel, func, Array, f32, i32, u32, global_id, local_id, workgroup_id, shared_array, barrier, atomic_add, atomic_max, atomic_compare_exchange, num_threads

WG = 64

@func
def tree(tile: Array[f32], lid: i32):
    s = WG // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        barrier()
        s //= 2

@kernel(workgroup_size=WG)
def reduce(x: Array[f32], partial: Array[f32], hist: Array[i32], mx: Array[i32]):
    tile = shared_array(f32, WG)
    bins = shared_array(i32, 8)
    lid = local_id().x
    i = global_id().x
    n = num_threads().x
    if lid < 8:
        bins[lid] = 0
    tile[lid] = x[i] if i < len(x) else 0.0
    barrier()
    if i < len(x):
        atomic_add(bins, int(x[i]) % 8, 1)
        atomic_max(mx, 0, int(x[i]))
    tree(tile, lid)
    if lid == 0:
        partial[workgroup_id().x] = tile[0]
    if lid < 8:
        atomic_add(hist, lid, bins[lid])
    old = atomic_compare_exchange(mx, 1, 0, n)

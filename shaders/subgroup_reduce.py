"""Sums of 256-element blocks with subgroup operations: each subgroup adds its values with
`subgroup_add`, its first invocation stores the sum, and after one barrier the first
subgroup adds those; one partial sum per workgroup (the shared-memory tree of `reduce`
takes a barrier per step)."""
from spirthon import (
    kernel, Array, f32, global_id, local_id, workgroup_id, shared_array, barrier, subgroup_add,
    subgroup_size, subgroup_invocation_id,
)

WG = 256


@kernel(workgroup_size=WG)
def subgroup_reduce(x: Array[f32], partial: Array[f32]):
    sums = shared_array(f32, WG)
    lid = local_id().x
    i = global_id().x
    s = subgroup_add(x[i] if i < len(x) else 0.0)
    n = subgroup_size()
    if subgroup_invocation_id() == 0:
        sums[lid // n] = s
    barrier()
    if lid < n:
        t = 0.0
        k = lid
        while k < WG // n:
            t += sums[k]
            k += n
        t = subgroup_add(t)
        if lid == 0:
            partial[workgroup_id().x] = t

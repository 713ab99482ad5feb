"""Atomics on a shared array of `ivec2`: one atomic per component (the array is stored as
its components, since atomics work on scalars only)."""
from spirthon import (kernel, Array, i32, ivec2, local_index, shared_array, barrier,
                      atomic_add, atomic_sub)


@kernel(workgroup_size=8)
def tiles(x: Array[i32], out: Array[ivec2]):
    t = shared_array(ivec2, 2)
    li = local_index()
    if li < 2:
        t[li] = ivec2(0)
    barrier()
    atomic_add(t, li % 2, ivec2(x[li], 1))
    atomic_sub(t, (li + 1) % 2, ivec2(0, li))
    barrier()
    if li < 2:
        out[li] = t[li]

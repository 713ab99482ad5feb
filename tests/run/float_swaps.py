"""atomic_exchange and atomic_compare_exchange on f32 arrays and shared arrays: the old value
back, the swap done as Python compares (`-0.0 == 0.0`, a NaN equals nothing)."""
import math

from spirthon import (kernel, Array, f32, global_id, local_id, shared_array, barrier,
                      atomic_exchange, atomic_compare_exchange)


@kernel(workgroup_size=8)
def float_swaps(x: Array[f32], expected: Array[f32], swapped: Array[f32], olds: Array[f32],
                shared_out: Array[f32]):
    i = global_id().x
    olds[i] = atomic_compare_exchange(swapped, i, expected[i], x[i] * 2.0)
    olds[i + len(x)] = atomic_exchange(x, i, -x[i])
    s = shared_array(f32, 8)
    lid = local_id().x
    s[lid] = float(lid)
    barrier()
    # Each invocation swaps its own element, then (after a barrier) its neighbour's: no two
    # touch one element between barriers, so the result is the executor's.
    old = atomic_compare_exchange(s, lid, float(lid) if lid != 3 else -1.0, math.inf)
    barrier()
    old2 = atomic_exchange(s, (lid + 1) % 8, 0.5 * float(lid))
    barrier()
    shared_out[i] = old + (100.0 if old2 == math.inf else 0.0)
    shared_out[i + len(x)] = s[lid]

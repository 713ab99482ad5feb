"""`atomic_min` and `atomic_max` on f32s (a compare-exchange loop on the float's bits, so no
device feature): the bounding box of a point cloud over `Array[vec3]` (one atomic per
component), a workgroup's largest value in a shared array and then one `atomic_max` per
workgroup into a buffer, a shared-array float sum of exact halves, the old value an
atomic returns, and NaN and signed zeros picked as
Python's `min(old, v)` and `max(old, v)` pick them (a NaN `v` changes nothing)."""
import math

from spirthon import (kernel, Array, vec3, f32, global_id, local_id, workgroup_id, shared_array,
                      barrier, atomic_min, atomic_max, atomic_add, atomic_sub)

WG = 32


@kernel(workgroup_size=(WG, 1, 1))
def bounds(pts: Array[vec3], vals: Array[f32], box: Array[vec3], top: Array[f32],
           group_top: Array[f32], sums: Array[f32], zeros: Array[f32], first: Array[f32]):
    i = global_id().x
    lid = local_id().x
    best = shared_array(f32, 1)
    total = shared_array(f32, 1)
    if lid == 0:
        best[0] = -1e30
        total[0] = 0.0
    barrier()
    if i < len(pts):
        atomic_min(box, 0, pts[i])
        atomic_max(box, 1, pts[i])
        v = vals[i]
        atomic_max(top, 0, v)
        atomic_min(top, 1, v)
        atomic_max(best, 0, v)
        atomic_add(total, 0, f32(i % 5) * 0.5)
        atomic_sub(total, 0, 0.25)
        # The old value is 0.0 for the first invocation to come and 7.0 for the others.
        old = atomic_max(first, len(pts), 7.0)
        first[i] = f32(old == 0.0 or old == 7.0)
    # -0.0 against 0.0: the old value stays, as Python's min and max keep their first.
    if i == 0:
        atomic_min(zeros, 0, -0.0)
        atomic_max(zeros, 1, 0.0)
        atomic_max(zeros, 2, math.nan)
    barrier()
    if lid == 0:
        group_top[workgroup_id().x] = best[0]
        atomic_max(group_top, 8, best[0])
        sums[workgroup_id().x] = total[0]

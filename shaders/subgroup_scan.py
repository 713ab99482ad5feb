"""Inclusive prefix sums of 64-element blocks with subgroup scans: each subgroup scans its
values with `subgroup_inclusive_add`, its last invocation stores the subgroup's total, one
barrier, then each invocation adds the totals of the subgroups before its own (the
shared-memory scan of `scan` takes two barriers per step)."""
from spirthon import (
    kernel, Array, i32, global_id, local_id, shared_array, barrier, subgroup_inclusive_add,
    subgroup_size, subgroup_invocation_id,
)

WG = 64


@kernel(workgroup_size=WG)
def subgroup_scan(x: Array[i32], out: Array[i32]):
    totals = shared_array(i32, WG)
    lid = local_id().x
    i = global_id().x
    v = subgroup_inclusive_add(x[i] if i < len(x) else 0)
    n = subgroup_size()
    if subgroup_invocation_id() == n - 1:
        totals[lid // n] = v
    barrier()
    for k in range(lid // n):
        v += totals[k]
    if i < len(out):
        out[i] = v

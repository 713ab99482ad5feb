"""Inclusive prefix sums of 64-element blocks (Hillis and Steele): log2(64) steps, each
reading its partner before a barrier and adding after it."""
from spirthon import kernel, Array, i32, global_id, local_id, shared_array, barrier

WG = 64


@kernel(workgroup_size=WG)
def scan(x: Array[i32], out: Array[i32]):
    a = shared_array(i32, WG)
    lid = local_id().x
    i = global_id().x
    a[lid] = x[i] if i < len(x) else 0
    barrier()
    offset = 1
    while offset < WG:
        t = a[lid - offset] if lid >= offset else 0
        barrier()
        a[lid] += t
        barrier()
        offset *= 2
    if i < len(out):
        out[i] = a[lid]

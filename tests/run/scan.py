"""An inclusive prefix sum per workgroup (Hillis and Steele), double-buffered in two shared
arrays with a barrier after every step; the guard is the kernel's own."""
from spirthon import kernel, Array, i32, global_id, local_id, shared_array, barrier

WG = 32


@kernel(workgroup_size=WG)
def scan(x: Array[i32], out: Array[i32]):
    a = shared_array(i32, WG)
    b = shared_array(i32, WG)
    lid = local_id().x
    i = global_id().x
    a[lid] = x[i] if i < len(x) else 0
    barrier()
    offset = 1
    flip = False
    while offset < WG:
        if flip:
            b[lid] = a[lid]
            if lid >= offset:
                b[lid] += a[lid - offset]
        else:
            b[lid] = a[lid]
            if lid >= offset:
                b[lid] = a[lid] + a[lid - offset]
        barrier()
        a[lid] = b[lid]
        barrier()
        flip = not flip
        offset *= 2
    if i < len(out):
        out[i] = a[lid]

"""A BVH-style traversal stack of (node, t) pairs as a local array of structs, and a shared
array of structs reduced by the workgroup."""
from spirthon import kernel, struct, Array, f32, i32, vec2, global_id, local_id, local_array, shared_array, barrier

@struct
class Entry:
    node: i32
    t: f32
    seen: bool

@struct
class Best:
    t: f32
    at: vec2

@kernel(workgroup_size=8)
def walk(depth: Array[i32], out: Array[f32], best: Array[f32]):
    i = global_id().x
    lid = local_id().x
    stack = local_array(Entry, 8)
    n = 0
    stack[0] = Entry(node=1, t=0.5)
    n = 1
    total = 0.0
    visited = 0
    while n > 0:
        n -= 1
        e = stack[n]
        total += e.t
        visited += 1
        if e.node < depth[i] and n + 2 <= len(stack):
            stack[n] = Entry(2 * e.node, e.t * 0.5, True)
            stack[n + 1].node = 2 * e.node + 1
            stack[n + 1].t = e.t * 0.25
            stack[n + 1].seen = not e.seen
            n += 2
    out[i] = total + f32(visited)
    share = shared_array(Best, 8)
    share[lid] = Best(total, vec2(f32(i), f32(visited)))
    share[lid].at.y += 0.5
    barrier()
    if lid == 0:
        b = share[0]
        for k in range(1, 8):
            if share[k].t > b.t:
                b = share[k]
        best[i // 8] = b.t + b.at.x + b.at.y

"""Ball queries on a bounding-volume tree, as a BVH or k-d tree query walks one: each thread
keeps a stack of nodes in a `local_array` (Numba's `cuda.local.array`), skips the nodes
whose box lies farther than its radius, and counts the points of the leaves within it. The
tree is implicit (node `k` has children `2k + 1` and `2k + 2`; a leaf holds `count` points
from `first`); boxes and points are packed `Array[vec3]`."""
from spirthon import kernel, Array, i32, vec3, vec4, global_id, local_array

STACK = 32


@kernel(workgroup_size=64)
def bvh_query(lo: Array[vec3], hi: Array[vec3], first: Array[i32], count: Array[i32],
              pts: Array[vec3], queries: Array[vec4], hits: Array[i32], visits: Array[i32]):
    i = global_id().x
    q = queries[i]
    c = q.xyz
    r2 = q.w * q.w
    stack = local_array(i32, STACK)  # zero-filled: the root, node 0, is on it
    top = 1
    found = 0
    seen = 0
    while top > 0:
        top -= 1
        node = stack[top]
        seen += 1
        # How far the ball's centre lies outside the node's box, per axis.
        d = max(lo[node] - c, c - hi[node], vec3(0.0))
        if d.x * d.x + d.y * d.y + d.z * d.z > r2:
            continue
        if count[node] > 0:
            for k in range(first[node], first[node] + count[node]):
                e = pts[k] - c
                if e.x * e.x + e.y * e.y + e.z * e.z <= r2:
                    found += 1
        else:
            stack[top] = 2 * node + 1
            stack[top + 1] = 2 * node + 2
            top += 2
    hits[i] = found
    visits[i] = seen

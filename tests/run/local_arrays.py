"""Local arrays, each invocation's own: a stack for a depth-first walk of an implicit binary
tree (as a BVH query keeps one), a func that takes one as an `Array[T]`, a two-dimensional
one, and one created in a loop body, which starts zeroed again on every iteration."""
from spirthon import kernel, func, Array, Array2D, f32, i32, vec2, global_id, local_array

DEPTH = 32


@func
def push(stack: Array[i32], top: i32, node: i32) -> i32:
    stack[top] = node
    return top + 1


@func
def total(xs: Array2D[f32]) -> f32:
    s = 0.0
    for r in range(xs.shape[0]):
        for c in range(xs.shape[1]):
            s += xs[r, c] * float(r + 1)
    return s


@kernel(workgroup_size=32)
def walk(tree: Array[f32], lo: Array[f32], out: Array[i32], sums: Array[vec2]):
    i = global_id().x
    # Count the nodes whose value lies in [lo[i], lo[i] + 1), pruning subtrees by the heap
    # property (every node is at most its parent).
    stack = local_array(i32, DEPTH)
    top = push(stack, 0, 0)
    found = 0
    while top > 0:
        top -= 1
        node = stack[top]
        v = tree[node]
        if v < lo[i]:
            continue
        if v < lo[i] + 1.0:
            found += 1
        for d in (1, 2):
            child = 2 * node + d
            if child < len(tree):
                top = push(stack, top, child)
    out[i] = found
    grid = local_array(f32, (3, 4))
    for r in range(3):
        for c in range(4):
            grid[r, c] = tree[(i + r * 4 + c) % len(tree)]
    acc = vec2(total(grid), 0.0)
    for k in range(3):
        seen = local_array(vec2, 4)
        # Zeroed again on every iteration: only this iteration's writes count.
        seen[k] = vec2(float(k), lo[i])
        for j in range(4):
            acc.y += seen[j].x + seen[j].y
    sums[i] = acc

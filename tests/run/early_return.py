"""An early return from inside nested loops, and from a kernel."""
from spirthon import kernel, func, Array, i32, global_id


@func
def first_pair(n: i32, target: i32) -> i32:
    for a in range(n):
        for b in range(a, n):
            if a * b == target:
                return a * 100 + b
    return -1


@kernel
def early_return(targets: Array[i32], out: Array[i32]):
    i = global_id().x
    if targets[i] < 0:
        out[i] = -999
        return
    out[i] = first_pair(20, targets[i])

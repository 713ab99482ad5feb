"""A loop's `else` clause runs when its condition fails: what it leaves unassigned is
unassigned after the loop, though every `break` assigns it (and the other way round)."""
from spirthon import kernel, Array, i32, global_id


@kernel
def k(xs: Array[i32], out: Array[i32]):
    i = global_id().x
    h = 0
    while h < 3 and xs[h] > 0:
        if xs[h] == i:
            m = 1
            break
        h += 1
    else:
        h = 7
    out[i] = m
    for jj in range(3):
        for col in range(2):
            if xs[col] > 4:
                break
            s = xs[col]
        else:
            s = 0
            continue
        out[i] += s
    for jj in range(3):
        for col in range(2):
            if xs[col] > 4:
                t = col
                break
        else:
            if xs[jj] > 2:
                continue
        out[i] += t

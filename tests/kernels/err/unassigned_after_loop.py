# A name assigned in a `for` loop is assigned after it only when the body surely runs, all
# the way to the assignment: not for an empty range (range(0), range(5, 2)), a range known
# only at run time, or when a `break` or `continue` may skip the assignment on every trip.
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(a: Array[f32], n: i32):
    i = global_id().x
    for _ in range(0):
        d = a[i] * 2.0
    for j in range(n):
        e = f32(j)
    for j in range(5, 2):
        g = 1.0
    for j in range(4):
        if a[i] > 0.0:
            break
        h = 1.0
    for j in range(4):
        if a[i] > 0.0:
            continue
        q = 1.0
    a[i] = d + e + g + h + q

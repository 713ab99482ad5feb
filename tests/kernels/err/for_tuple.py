from spirthon import kernel, Array, Array2D, i32, global_id, atomic_add

# A module constant whose name looks like the tables made for tuples written in place.
tuple_8 = (7, 7)


@kernel
def k(x: Array[i32], grid: Array2D[i32]):
    i = global_id().x
    a = x[i]
    for d in (a, 1):
        x[i] += d
    for p, q in (1, 2):
        x[i] += p
    for e in ():
        x[i] += e
    for j, w in enumerate((1, "two")):
        x[i] += w
    atomic_add(grid, i * 4 + 1, 1)
    for a2, b2 in tuple_8:
        x[i] += a2

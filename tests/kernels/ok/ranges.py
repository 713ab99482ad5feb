from spirthon import kernel, Array, i32, global_id


@kernel
def ranges(step: i32, out: Array[i32]):
    i = global_id().x
    s = 0
    for k in range(4):
        s += k
    for k in range(2, 6):
        s += k
    for k in range(10, 0, -3):
        s += k
    for k in range(0, 20, step):
        s += 1
    for k in range(3):
        k = k * 100
        s += k
    out[i] = s

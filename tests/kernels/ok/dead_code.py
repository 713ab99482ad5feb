from spirthon import kernel, func, Array, i32, global_id


@func
def first_over(data: Array[i32], limit: i32) -> i32:
    k = 0
    while True:
        if data[k] > limit:
            return k
        k += 1
    return -1


@kernel
def dead_code(data: Array[i32], out: Array[i32]):
    i = global_id().x
    for j in range(4):
        if j == 2:
            break
            out[i] = 99
        continue
        out[i] = 98
    if data[i] > 0:
        out[i] = first_over(data, data[i])
        return
    else:
        out[i] = 0
        return
    out[i] = 97

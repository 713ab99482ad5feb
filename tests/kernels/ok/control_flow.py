from spirthon import kernel, Array, i32, global_id


@kernel
def control_flow(data: Array[i32], out: Array[i32]):
    i = global_id().x
    v = data[i]
    # if / elif / else
    if v < 0:
        kind = -1
    elif v == 0:
        kind = 0
    else:
        kind = 1
    # while with else and no break: the else always runs
    n = v
    steps = 0
    while n > 10:
        n -= 7
        steps += 1
    else:
        steps += 100
    # for with break and else: the else runs only when no break happened
    for j in range(8):
        if data[j] == v:
            found = j
            break
    else:
        found = -1
    # continue skips the rest of an iteration
    odd = 0
    for j in range(10):
        if j % 2 == 0:
            continue
        odd += j
    # a loop whose else has a break for the outer loop
    total = 0
    for a in range(3):
        k = 0
        while k < a:
            if data[k] < 0:
                break
            k += 1
        else:
            total += k
            continue
        break
    out[i] = kind + steps + found + odd + total

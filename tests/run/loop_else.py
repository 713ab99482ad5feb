"""for/else and while/else: the else runs only when the loop ends without break."""
from spirthon import kernel, Array, i32, global_id


@kernel
def loop_else(data: Array[i32], target: Array[i32], found: Array[i32], steps: Array[i32]):
    i = global_id().x
    for j in range(len(data)):
        if data[j] == target[i]:
            found[i] = j
            break
    else:
        found[i] = -1
    n = target[i]
    s = 0
    while n > 0:
        if n == 13:
            s = -100
            break
        n -= 3
        s += 1
    else:
        s += 1000
    steps[i] = s

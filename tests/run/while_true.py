"""`while True:` leaves only by break or return: a func ending in one needs no return after it."""
from spirthon import kernel, func, Array, f32, i32, global_id


@func
def collatz(n: i32) -> i32:
    steps = 0
    while True:
        if n == 1:
            return steps
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1


@func
def first_above(x: Array[f32], t: f32) -> i32:
    k = 0
    while 1:
        if k >= len(x):
            break
        if x[k] > t:
            return k
        k += 1
    else:
        k = -5
    return -1


@kernel
def while_true(x: Array[f32], out: Array[i32]):
    i = global_id().x
    out[i] = collatz(i + 1) * 100 + first_above(x, float(i))
    n = 0
    while True:
        n += 1
        if n > i:
            break
    out[i] += n * 10000

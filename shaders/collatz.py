"""Number of Collatz steps to reach 1, per starting value."""
from spirthon import kernel, func, Array, i32, global_id


@func
def steps(n: i32) -> i32:
    count = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        count += 1
    return count


@kernel
def collatz(start: Array[i32], out: Array[i32]):
    i = global_id().x
    out[i] = steps(start[i])

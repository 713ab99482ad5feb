"""Marks which numbers are prime, by trial division with an early exit."""
from spirthon import kernel, func, Array, i32, global_id


@func
def is_prime(n: i32) -> bool:
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


@kernel(workgroup_size=64)
def primes(values: Array[i32], flags: Array[i32]):
    i = global_id().x
    flags[i] = int(is_prime(values[i]))

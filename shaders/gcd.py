"""Greatest common divisor of pairs, by Euclid's algorithm (Python's % on negatives)."""
from spirthon import kernel, func, Array, i32, global_id


@func
def gcd(a: i32, b: i32) -> i32:
    a = abs(a)
    b = abs(b)
    while b:
        a, b = b, a % b
    return a


@kernel(workgroup_size=32)
def gcd_pairs(a: Array[i32], b: Array[i32], out: Array[i32]):
    i = global_id().x
    out[i] = gcd(a[i], b[i])

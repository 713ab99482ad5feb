"""Misuses of a tuple of tuples: it is looped over with its items unpacked, not used as a
value or looped into one name; its rows must have one length."""
from spirthon import kernel, Array, i32, global_id

OFFSETS = ((0, 1), (1, 0))
RAGGED = ((0, 1), (1,))


@kernel
def k(x: Array[i32]):
    i = global_id().x
    for d in OFFSETS:
        x[i] += 1
    for a, b, c in OFFSETS:
        x[i] += a
    x[i] = OFFSETS[0]
    for a, b in RAGGED:
        x[i] += a
    for a, b in ((0, 1), (2, i)):
        x[i] += a
    for a, (b, c) in OFFSETS:
        x[i] += a
    a, b = OFFSETS[i, 0]

"""Tuples: a func returns as many values as its annotation says; a
returned tuple is unpacked, never used as a value; constant tuples cannot be changed."""
from spirthon import kernel, func, Array, f32, i32, vec4, global_id

TABLE = (1, 2, 3)
NAMES = (1, "two")


@func
def pair(x: f32) -> tuple[f32, f32]:
    if x > 0.0:
        return x, x, x
    return x


@kernel
def k(x: Array[f32], out: Array[i32]):
    i = global_id().x
    a, b, c = pair(x[i])
    y = pair(x[i]) + 1.0
    TABLE[0] = 5
    TABLE[i] += 1
    for k, v in TABLE:
        pass
    for k in enumerate(TABLE):
        pass
    out[i] = NAMES[0] + TABLE[3]

"""A case whose literal is outside the subject's type never matches, as under CPython where
the subject is never that value: `case -1:` on a `u32`, `case 4294967295:` and `case 2147483648:`
on an `i32`, alone, among alternatives (`case 1 | -1:`), before the cases a switch takes and
after them."""
from spirthon import kernel, Array, i32, u32, global_id


@kernel
def outside(a: Array[u32], b: Array[i32], out: Array[i32]):
    i = global_id().x
    x = a[i]
    r = 0
    match x:
        case -1:
            r = 100
        case 0:
            r = 1
        case 1 | -1:
            r = 2
        case 4294967295:
            r = 3
        case _:
            r = 4
    match b[i]:
        case 0:
            r += 10
        case 5:
            r += 20
        case 4294967295:
            r += 1000
        case 2147483648 | -1:
            r += 30
        case _:
            r += 40
    out[i] = r

"""`match` on an integer: literal patterns (negative ones, `|` alternatives), an `as` binding,
guards (one on a capture, which binds before the guard runs), `case _`, a `match` without a
default, and one inside a loop whose case breaks out of the loop."""
from spirthon import kernel, func, Array, i32, u32, global_id


@func
def cost(op: i32) -> i32:
    match op:
        case 0:
            return 1
        case 1 | 2 | 3:
            return 2
        case -1:
            return 7
        case 4 if op > 3:
            return 9
        case other if other > 10:
            return other * 2
        case 5 as five:
            return five + 100
        case _:
            return 0


@kernel
def dispatch(ops: Array[i32], out: Array[i32], flags: Array[u32]):
    i = global_id().x
    out[i] = cost(ops[i])
    match flags[i] & 3:
        case 0:
            flags[i] = 10
        case 1:
            flags[i] = 20
    total = 0
    for k in range(4):
        match k:
            case 2:
                break
            case n:
                total += n
    out[i] += total * 1000

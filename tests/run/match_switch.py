"""`match` compiled to a switch: many literal cases over an `i32` (negative ones and the
extremes), a `u32` subject with values past 2**31, a value repeated in a later case (only
its first case takes it) or within one (`9 | 9`), literal cases before a guard and a capture (which run in the
switch's default, in order), a loop inside a case whose `break` is its own, a `match`
inside a case, and a case that returns from a func."""
from spirthon import kernel, func, Array, i32, u32, global_id


@func
def classify(x: i32) -> i32:
    match x:
        case 0:
            return 100
        case 1 | 2:
            return 101
        case -1 | -2147483648:
            return 102
        case 2147483647:
            return 103
        case 1 | 3:
            return 104
        case 9 | 9:
            return 106
        case 7 if x > 100:
            return 105
        case n if n > 1000:
            return n % 7
        case _:
            return -1


@kernel
def switches(xs: Array[i32], us: Array[u32], out: Array[i32], out2: Array[u32]):
    i = global_id().x
    out[i] = classify(xs[i])
    u = us[i]
    match u:
        case 0:
            out2[i] = 1
        case 4294967295:
            out2[i] = 2
        case 2147483648 | 3000000000:
            out2[i] = 3
        case 5:
            total = u32(0)
            for k in range(10):
                if k == 4:
                    break
                total += u32(k)
            out2[i] = total
        case 6:
            match xs[i] % 3:
                case 0:
                    out2[i] = 60
                case 1:
                    out2[i] = 61
                case r:
                    out2[i] = 62 + u32(r)
        case other:
            out2[i] = other // 2

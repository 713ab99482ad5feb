"""Names bound in a test and read where its truth guarantees them: an `as` binding read by
its case's guard and body (`case 1 | 2 as r if r == 2:`), a walrus in a guard read by the
body, a walrus in the right operand of `and` read by the `if`'s body and by a later operand,
and one in the right operand of `or` read by the `else` (the `or` was false, so it ran); in a
match that compiles to a switch, and in one that compiles to a chain."""
from spirthon import kernel, Array, i32, u32, global_id


@kernel
def guards(a: Array[u32], out: Array[i32], chained: Array[i32]):
    i = global_id().x
    x = a[i]
    match x:
        case 6:
            out[i] = 66
        case 7:
            out[i] = 77
        case 1 | 2 as r if r == 2:
            out[i] = i32(r) + 10
        case 3 if (y := x * 5) > 12:
            out[i] = i32(y)
        case 4 | 5 as q if (w := q + 100) > 104:
            out[i] = i32(w + q)
        case other:
            out[i] = -i32(other)
    match x % 4:
        case 1 | 3 as odd if (h := odd * 7) > 10:
            out[i] += i32(h) * 1000
        case 0 as z if z == 0:
            out[i] += 500
    v = i32(x)
    if v > 2 and (s := v * v) > 10 and s < 40:
        chained[i] = s
    elif v > 0 or (t := v - 9) > 100:
        chained[i] = 1000 + v
    else:
        chained[i] = t

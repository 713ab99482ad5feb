# A name assigned in the right operand of `and` is assigned where the whole is true, not in
# the `else` (the left operand may have been false); one assigned in the right operand of
# `or` is not assigned where the whole is true (the left operand may have been true). A
# guard's walrus binds only when the guard runs: not in a later case.
from spirthon import kernel, Array, i32, global_id


@kernel
def k(a: Array[i32]):
    i = global_id().x
    x = a[i]
    if x > 0 and (y := x * 2) > 3:
        a[i] = y
    else:
        a[i] = y + 1
    if x > 1 or (z := x * 3) > 3:
        a[i] = z
    match x:
        case 1 if (w := x + 1) > 1:
            a[i] = w
        case _:
            a[i] = w

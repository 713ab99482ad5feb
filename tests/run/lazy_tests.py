"""Conditions where only truth matters, and lazily evaluated operands: a chained comparison whose
later middle operand is an array load, `and`/`or` over mixed types in `if`/`while`/`not`/the test
of a conditional expression, and a `while` whose short-circuit condition calls a func, with a
`break` inside an `if` and a loop `else`."""
from spirthon import Array, f32, func, global_id, i32, kernel


@func
def weight(n: i32) -> int:
    return n % 3


@kernel(workgroup_size=8)
def lazy_tests(x: Array[i32], score: Array[f32], lo: i32, hi: i32, out: Array[i32]):
    i = global_id().x
    base = i * 4
    v = x[i]
    r = 0
    if lo < v < x[(i + 1) % len(x)] < hi:
        r += 1
    count = v % 4
    todo = 3
    steps = 0
    while todo > 0 and count:
        todo -= 1
        steps += 1
    if score[i] or x[i]:
        r += 10
    if not (todo or score[i]):
        r += 100
    pick = steps if count and score[i] else -steps
    fuel = v
    tries = 5
    while tries > 0 and (v <= 2 or weight(tries) == weight(x[(i + 2) % len(x)])):
        tries -= 1
        if fuel > 20:
            break
        fuel += 7
    else:
        fuel = -fuel
    out[base] = r
    out[base + 1] = steps
    out[base + 2] = pick
    out[base + 3] = fuel

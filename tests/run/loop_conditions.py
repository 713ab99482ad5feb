"""Loop conditions that are control flow themselves (`and`/`or` over array loads,
conditional expressions, chained comparisons, `not`), with `break` and `else`, and
variables assigned on every path that reaches their use through a loop's `else`."""
from spirthon import kernel, Array, i32, f32, global_id


@kernel
def loop_conditions(xs: Array[i32], b: i32, out: Array[i32]):
    i = global_id().x
    n = len(xs)
    # A conditional expression as an operand of `and`.
    t = 10
    c = 0
    while t > 0 and (b if i < b else t - 9):
        t -= 1
        c += 1
    out[8 * i] = c
    # `or` of loads, with a conditional expression as the test of another.
    g = 0
    while (xs[g] > 2 if g < n else False) or (g < 2 and xs[(g + i) % n] != 0):
        g += 1
        if g > 20:
            break
    out[8 * i + 1] = g
    # A chained comparison with loads, and `not` of a conditional expression.
    k = 0
    while 0 < xs[k % n] < 9 and not (k >= 6 if i % 2 == 0 else k >= 3):
        k += 1
    out[8 * i + 2] = k
    # while-else whose condition has `and`: `m` is assigned on both ways out.
    h = 0
    while h < 3 and xs[h] > 0:
        if xs[h] == i:
            m = 1
            break
        h += 1
    else:
        m = 2
    out[8 * i + 3] = m
    # for-else whose else continues the enclosing loop: `s` is assigned on every path that
    # reaches its use.
    total = 0
    for jj in range(3):
        for col in range(2):
            s = xs[(i + jj + col) % n]
            if s > 4:
                break
        else:
            continue
        s -= 13
        total += s
    out[8 * i + 4] = total
    # for-else whose else breaks the enclosing loop.
    r = 0
    for jj in range(4):
        for col in range(3):
            q = xs[(i * 3 + jj + col) % n]
            if q == jj:
                break
        else:
            r = -1
            break
        r += q
    out[8 * i + 5] = r
    # while-else with a nested conditional-expression condition and a continue of an
    # outer loop in the else.
    w = 0
    for jj in range(3):
        v = jj
        while (v < 5 if jj != 1 else v < 2) and xs[v % n] >= 0:
            if xs[v % n] == 7:
                z = v * 10
                break
            v += 1
        else:
            continue
        w += z
    out[8 * i + 6] = w
    out[8 * i + 7] = t + h

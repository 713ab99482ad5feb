from spirthon import kernel, func, Array, f32, i32, global_id


@func
def expensive(v: f32) -> f32:
    return v * v + 1.0


@kernel
def short_circuit(x: Array[f32], n: i32, out: Array[f32], flags: Array[i32]):
    i = global_id().x
    v = x[i]
    # value-returning and/or on numbers: no side effects, so a select
    a = v or 1.0
    b = v and 2.0
    # the right operand calls a func: evaluated only when needed
    c = v or expensive(v)
    # bools
    inside = i < n and x[i] > 0.0
    # chained comparisons; the lazy one reads the array only when the first test holds
    ordered = 0.0 <= v < 1.0
    lazy = 0 <= i < n <= x[i]
    # conditional expressions
    d = v if v > 0.0 else -v
    e = expensive(v) if v > 0.0 else 0.0
    out[i] = a + b + c + d + e
    flags[i] = int(inside) + int(ordered) * 2 + int(lazy) * 4 + int(not inside) * 8

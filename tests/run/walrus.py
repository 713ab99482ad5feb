"""Assignment expressions: in a while condition (a countdown), in an if test (a value kept
for the branch), inside `and` (assigned only when the left side holds), in arithmetic (the
value is the local's, converted to its type), and in a func."""
from spirthon import kernel, func, Array, f32, i32, vec2, dot, global_id


@func
def steps(n: i32) -> i32:
    count = 0
    while (n := n - 1) > 0:
        count += 1
    return count


@kernel
def walrus(x: Array[f32], v: Array[vec2], out: Array[i32], r: Array[f32]):
    i = global_id().x
    out[i] = steps(i)
    if (d := dot(v[i], v[i])) < 2.0:
        r[i] = d
    else:
        r[i] = -d
    k = 0
    if i > 2 and (k := i * 2) > 5:
        out[i] += k
    out[i] += k
    y = 1.5
    z = (y := 3) * 0.1 + y
    x[i] = z + (t := x[i]) * t
    m = 7 if (c := i % 3) == 0 else c
    out[i] += m

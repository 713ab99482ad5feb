"""Funcs returning tuples (one component type, mixed types packed as bits, vectors among
the items, a tuple passed through), and module-level constant tuples: indexed at run time
and with constants, len(), loops over them and over enumerate()."""
import math
from spirthon import kernel, func, Array, f32, i32, u32, vec2, vec3, global_id

WEIGHTS = (0.25, 0.5, 0.25)
RULE = (0, 0, 1, 1, 0, 0, 0, 0, 0)
BIG = (1, 0xFFFFFFFF)

@func
def sincos(x: f32) -> (f32, f32):
    return math.sin(x), math.cos(x)

@func
def mixed(x: f32, n: i32) -> tuple[f32, i32, bool]:
    return x * 2, n + 1, x > 0

@func
def withvec(x: f32) -> tuple[vec2, f32]:
    if x > 1.0:
        return vec2(x, -x), 1.5
    return vec2(0.0), x

@func
def state(x: f32, n: i32) -> tuple[vec3, vec3, i32, bool]:
    p = vec3(x, x * 2.0, -x)
    return p, p * 0.5 + 1.0, n * 3, x > 1.0


@func
def passthru(x: f32) -> tuple[f32, f32]:
    return sincos(x)

@kernel
def tuples(x: Array[f32], out: Array[f32], n: Array[i32], u: Array[u32]):
    i = global_id().x
    s, c = passthru(x[i])
    a, b, flag = mixed(x[i], i)
    v, w = withvec(x[i])
    out[i] = s * s + c * c + a + v.y + w
    n[i] = b * 10 + int(flag)
    p, q, m, big = state(x[i], i)
    out[i] += p.y - q.z + float(m) + float(big)
    acc = 0.0
    for k, wt in enumerate(WEIGHTS):
        j = min(max(i + k - 1, 0), len(x) - 1)
        acc += wt * x[j]
    for wt in WEIGHTS:
        acc += wt
    out[i + len(x)] = acc + WEIGHTS[1] * len(WEIGHTS)
    n[i + len(x)] = RULE[i % len(RULE)] + RULE[2]
    u[i] = BIG[i % 2]

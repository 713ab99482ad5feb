"""The kernels of grad_bench.py: a time step of a mass-spring cloth (springs read from int
arrays, forces by atomics, a func), its integration with a ground contact, a math-heavy
elementwise kernel with a loop, and a loss."""

import math

from spirthon import Array, atomic_add, dot, f32, func, global_id, i32, kernel, length, vec3

ITERATIONS = 8


@func
def spring(a: vec3, b: vec3, va: vec3, vb: vec3, rest: f32, ke: f32, kd: f32) -> vec3:
    d = b - a
    n = length(d)
    u = d / n
    return u * (ke * (n - rest) + kd * dot(vb - va, u))


@kernel
def springs(x: Array[vec3], v: Array[vec3], ends: Array[i32], rest: Array[f32], f: Array[vec3], ke: f32, kd: f32):
    k = global_id().x
    if k >= len(rest):
        return
    i = ends[2 * k]
    j = ends[2 * k + 1]
    g = spring(x[i], x[j], v[i], v[j], rest[k], ke, kd)
    atomic_add(f, i, g)
    atomic_add(f, j, -g)


@kernel
def integrate(x: Array[vec3], v: Array[vec3], f: Array[vec3], x_out: Array[vec3], v_out: Array[vec3], dt: f32):
    i = global_id().x
    if i >= len(x):
        return
    a = f[i] + vec3(0.0, -9.8, 0.0)
    p = x[i]
    if p.y < 0.0:
        a.y += -p.y * (2000.0 - 300.0 * v[i].y)
    vn = v[i] + a * dt
    v_out[i] = vn
    x_out[i] = p + vn * dt


@kernel
def field(x: Array[f32], y: Array[f32], gain: f32):
    i = global_id().x
    if i >= len(x):
        return
    v = x[i]
    acc = 0.0
    for k in range(ITERATIONS):
        acc = acc * 0.5 + math.sin(v * float(k + 1)) * gain
        if acc > 1.0:
            acc = math.sqrt(acc)
    y[i] = acc + math.exp(-v * v)


@kernel
def loss(x: Array[vec3], target: Array[vec3], out: Array[f32]):
    i = global_id().x
    if i < len(x):
        d = x[i] - target[i]
        atomic_add(out, 0, dot(d, d))

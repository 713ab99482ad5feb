"""Structs are values: `q = p` copies, a vector read from a field is a copy, fields of
every kind (narrow ints at odd offsets, bools, matrices, quaternions, nested structs) are
read and written in place in the buffer, and a struct takes its value from the branch that
ran."""
from spirthon import (kernel, func, struct, Array, Array2D, f32, i32, u32, i8, u16, vec2, vec3,
                      mat22, quat, quat_from_axis_angle, quat_rotate, global_id)


@struct
class Inner:
    a: i8
    b: u16
    c: i8


@struct
class Body:
    m: mat22
    q: quat
    inner: Inner
    flag: bool
    w: vec2


@struct
class Pair:
    left: Inner
    right: Inner
    k: u32


@func
def spin(b: Body, angle: f32) -> Body:
    out = b
    out.q = quat_from_axis_angle(vec3(0.0, 0.0, 1.0), angle) * b.q
    out.m = out.m @ out.m
    return out


@kernel
def values(bodies: Array[Body], pairs: Array2D[Pair], out: Array[f32]):
    i = global_id().x
    if i >= len(bodies):
        return
    b = bodies[i]
    c = b
    c.inner.a = c.inner.a + i8(100)
    c.w.x = 7.0
    v = b.w
    v.y = -1.0
    out[4 * i] = b.w.y + v.y + c.w.x
    out[4 * i + 1] = f32(i32(b.inner.a)) + f32(i32(c.inner.a))
    if b.flag:
        c = spin(b, 0.5)
    else:
        c.inner.b = c.inner.b * u16(3)
    p = quat_rotate(c.q, vec3(1.0, 0.0, 0.0))
    out[4 * i + 2] = p.x + p.y + c.m[0, 1]
    bodies[i] = c
    bodies[i].inner.c = bodies[i].inner.c - i8(1)
    bodies[i].w.y += 0.25
    bodies[i].flag = not b.flag
    r, col = i // 2, i % 2
    if r < pairs.shape[0]:
        pr = pairs[r, col]
        pairs[r, col].left, pairs[r, col].right = pr.right, pr.left
        pairs[r, col].k += u32(i32(pr.left.b)) + u32(1000)
        out[4 * i + 3] = f32(i32(pairs[r, col].left.c))

"""Particles in an Array[Particle]: a func that takes and returns a struct, a struct
parameter in the uniform block, a bool field and a u8 field that wraps, and a field
changed in place in the buffer (parts[i].mass += ...)."""
from spirthon import kernel, func, struct, Array, f32, i32, u8, vec3, global_id

@struct
class Particle:
    pos: vec3
    vel: vec3
    mass: f32
    alive: bool
    tag: u8

@struct
class Params:
    gravity: vec3
    dt: f32

@func
def step(p: Particle, prm: Params) -> Particle:
    q = p
    q.vel += prm.gravity * prm.dt
    q.pos += q.vel * prm.dt
    if q.pos.y < 0.0:
        q.pos.y = -q.pos.y
        q.vel.y = -q.vel.y * 0.5
        q.tag = q.tag + u8(1)
    return q

@kernel
def advance(parts: Array[Particle], prm: Params, n: i32):
    i = global_id().x
    if i >= len(parts):
        return
    p = parts[i]
    if p.alive:
        parts[i] = step(p, prm)
    parts[i].mass += f32(n)

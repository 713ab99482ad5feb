"""Particles in an `Array[Particle]`, as a Warp user keeps them: each invocation integrates
one particle for a few substeps under gravity and drag, bounces it off the floor with
restitution, counts its bounces and ages it; the world's constants are one struct
parameter. The element layout is NumPy's `Particle.numpy_dtype` (36 bytes, no padding)."""
from spirthon import kernel, func, struct, Array, f32, i32, vec3, global_id

SUBSTEPS = 8


@struct
class Particle:
    pos: vec3
    vel: vec3
    inv_mass: f32
    life: f32
    bounces: i32


@struct
class World:
    gravity: vec3
    dt: f32
    drag: f32
    restitution: f32
    floor: f32


@func
def substep(p: Particle, w: World, h: f32) -> Particle:
    q = p
    force = w.gravity - q.vel * w.drag
    q.vel += force * (q.inv_mass * h)
    q.pos += q.vel * h
    if q.pos.y < w.floor:
        q.pos.y = w.floor + (w.floor - q.pos.y) * w.restitution
        q.vel.y = -q.vel.y * w.restitution
        q.bounces += 1
    return q


@kernel(workgroup_size=64)
def particles(ps: Array[Particle], w: World):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    if p.life <= 0.0:
        return
    h = w.dt / SUBSTEPS
    for _ in range(SUBSTEPS):
        p = substep(p, w, h)
    p.life -= w.dt
    ps[i] = p

"""A particle fountain on the GPU: particles kept as structs, integrated under gravity,
bouncing on the floor with restitution, respawned at the nozzle when their life is over;
their final positions drawn to fountain.png.

    python3 examples/python/fountain.py [steps]

The particles are a NumPy array of `Particle.numpy_dtype` (the structured dtype whose bytes
are the kernel's `Array[Particle]` elements), moved to the device once; the world's constants
are one `World` struct argument.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array, f32, i32, global_id, kernel, struct, vec2

from png import palette, write_png


@struct
class Particle:
    pos: vec2
    vel: vec2
    age: f32
    bounces: i32


@struct
class World:
    gravity: vec2
    dt: f32
    restitution: f32
    lifetime: f32


@kernel(workgroup_size=64)
def step(ps: Array[Particle], w: World):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    p.age += w.dt
    if p.age > w.lifetime:
        # Back to the nozzle, in a fan of 64 directions and 7 speeds.
        spread = f32(i % 64) / 63.0 - 0.5
        p = Particle(vel=vec2(spread, 3.0 + f32(i % 7) * 0.1))
    p.vel += w.gravity * w.dt
    p.pos += p.vel * w.dt
    if p.pos.y < 0.0:
        p.pos.y = -p.pos.y * w.restitution
        p.vel.y = -p.vel.y * w.restitution
        p.bounces += 1
    ps[i] = p


WORLD = World(gravity=vec2(0.0, -9.8), dt=0.01, restitution=0.6, lifetime=1.5)


def start(n):
    """`n` particles leaving the nozzle as the kernel sends them, their ages spread over a
    life so that they come back to it in turn."""
    ps = np.zeros(n, dtype=Particle.numpy_dtype)
    i = np.arange(n)
    ps["vel"][:, 0] = (i % 64).astype(np.float32) / np.float32(63.0) - np.float32(0.5)
    ps["vel"][:, 1] = np.float32(3.0) + (i % 7).astype(np.float32) * np.float32(0.1)
    ps["age"] = np.linspace(0.0, WORLD.lifetime, n, endpoint=False, dtype=np.float32)
    return ps


def simulate(n, steps):
    ps = spirthon.array(start(n), dtype=Particle)
    for _ in range(steps):
        step.launch(n, ps, WORLD)
    return ps.numpy()


def draw(ps, size=384):
    image = np.zeros((size, size), dtype=np.float32)
    x = ((ps["pos"][:, 0] / 1.6 + 0.5) * size).astype(np.int64)
    y = (size - 1 - ps["pos"][:, 1] / 0.8 * size).astype(np.int64)
    inside = (x >= 0) & (x < size) & (y >= 0) & (y < size)
    np.add.at(image, (y[inside], x[inside]), 1.0)
    glow = np.log1p(image) / max(float(np.log1p(image).max()), 1e-6)
    return palette(np.where(image > 0, 0.3 + 0.6 * glow, 0.0))


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    ps = simulate(16384, steps)
    write_png("fountain.png", draw(ps))
    print("16384 particles, %d steps on %s, %d bounces; wrote fountain.png"
          % (steps, spirthon.device(), int(ps["bounces"].sum())))

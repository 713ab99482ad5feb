"""A gravitational n-body simulation on the GPU: a rotating disc of bodies, integrated for N
steps, its final positions drawn to nbody.png.

    python3 examples/python/nbody.py [steps]

Positions and velocities are device arrays of vec4 (xyz, and the mass in w), updated in
place by two kernels per step; each body sums the pull of every other body.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array, f32, global_id, kernel, length, vec3, vec4

from png import palette, write_png

SOFTENING: f32 = 0.05


@kernel(workgroup_size=128)
def accelerate(dt: f32, pos: Array[vec4], vel: Array[vec4]):
    i = global_id().x
    p = pos[i]
    acc = vec3(0.0)
    for j in range(len(pos)):
        q = pos[j]
        d = q.xyz - p.xyz
        r = length(d) + SOFTENING
        acc += d * (q.w / (r * r * r))
    v = vel[i]
    vel[i] = vec4(v.xyz + acc * dt, 0.0)


@kernel(workgroup_size=128)
def move(dt: f32, pos: Array[vec4], vel: Array[vec4]):
    i = global_id().x
    p = pos[i]
    pos[i] = vec4(p.xyz + vel[i].xyz * dt, p.w)


def disc(n, seed=1):
    rng = np.random.default_rng(seed)
    r = np.sqrt(rng.uniform(0.05, 1.0, n)).astype(np.float32)
    a = rng.uniform(0, 2 * np.pi, n).astype(np.float32)
    pos = np.stack([r * np.cos(a), r * np.sin(a), rng.normal(0, 0.02, n), np.full(n, 1.0 / n)], axis=1)
    speed = np.sqrt(r) * 0.9  # a little under circular orbits (the mass inside r is about r^2)
    vel = np.stack([-speed * np.sin(a), speed * np.cos(a), np.zeros(n), np.zeros(n)], axis=1)
    return pos.astype(np.float32), vel.astype(np.float32)


def simulate(n, steps, dt=0.01):
    p, v = disc(n)
    pos, vel = spirthon.array(p, spirthon.vec4), spirthon.array(v, spirthon.vec4)
    for _ in range(steps):
        accelerate.launch(n, dt, pos, vel)
        move.launch(n, dt, pos, vel)
    return pos.numpy()


def draw(pos, size=512):
    image = np.zeros((size, size), dtype=np.float32)
    xy = ((pos[:, :2] / 2.4 + 0.5) * size).astype(np.int64)
    inside = (xy >= 0).all(axis=1) & (xy < size).all(axis=1)
    for dy in (0, 1):
        for dx in (0, 1):
            np.add.at(image, (np.minimum(xy[inside, 1] + dy, size - 1), np.minimum(xy[inside, 0] + dx, size - 1)), 1.0)
    glow = np.log1p(image) / max(float(np.log1p(image).max()), 1e-6)
    return palette(np.where(image > 0, 0.3 + 0.5 * glow, 0.0))


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    pos = simulate(2048, steps)
    write_png("nbody.png", draw(pos))
    print("2048 bodies, %d steps on %s; wrote nbody.png" % (steps, spirthon.device()))

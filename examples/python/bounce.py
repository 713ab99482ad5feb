"""Aiming by gradients: balls thrown from the left bounce on the ground (a branch in the
kernel: in contact, the ground is a stiff damped spring) and must be on their targets after
a fixed time. Each time step is a launch on `spirthon.Tape`, writing the next
positions and velocities to arrays of their own; `tape.backward(loss)` runs the steps'
adjoints back to the initial velocities, which gradient descent then corrects. Writes
bounce_000.png, bounce_001.png, ... (the trajectories at each iteration: grey early, the
targets red) and bounce.png (the last).

    python3 examples/python/bounce.py [iterations] [balls]

The gradient flows through the contacts, as in Warp's bounce example, whose contact is a
penalty force too: an exact reflection would make the miss jump where the number of bounces
changes, and the descent stall there.
"""

import os
import sys

import numpy as np
import spirthon
from spirthon import Array, Tape, atomic_add, dot, f32, global_id, kernel, vec2

from png import write_png

GRAVITY = 9.8
STIFFNESS = 2000.0   # the ground's spring, per unit of depth
DAMPING = 300.0      # its damper, per unit of depth and speed: a bounce loses energy
GUESS = (2.0, 3.0)   # the first throw's velocity, every ball


@kernel
def step(x: Array[vec2], v: Array[vec2], x_out: Array[vec2], v_out: Array[vec2], dt: f32):
    i = global_id().x
    if i >= len(x):
        return
    p = x[i]
    f = vec2(0.0, -GRAVITY)
    if p.y < 0.0:
        # In contact: the ground pushes back in proportion to the depth, and damps in
        # proportion to it too (Hunt and Crossley), so the force grows from zero as the
        # ball enters and the path is smooth in the throw.
        depth = -p.y
        f.y += depth * (STIFFNESS - DAMPING * v[i].y)
    vi = v[i] + f * dt
    v_out[i] = vi
    x_out[i] = p + vi * dt


@kernel
def miss(x: Array[vec2], target: Array[vec2], loss: Array[f32]):
    i = global_id().x
    if i < len(x):
        d = x[i] - target[i]
        atomic_add(loss, 0, dot(d, d))


class Throw:
    """Balls from ``start`` with velocities ``v0``, ``steps`` steps of ``dt``, aiming at
    ``targets``: the device arrays of every step, made once and reused by each iteration."""

    def __init__(self, start, targets, steps, dt):
        n = len(start)
        self.steps, self.dt, self.n = steps, dt, n
        self.xs = [spirthon.array(start, vec2)] + [spirthon.zeros(n, vec2) for _ in range(steps)]
        self.vs = [spirthon.zeros(n, vec2) for _ in range(steps + 1)]
        self.targets = spirthon.array(targets, vec2)
        self.loss = spirthon.zeros(1)

    def run(self, v0):
        """The loss for initial velocities ``v0`` (a device array with ``requires_grad``),
        recorded on a tape, and the tape."""
        self.loss.update(np.zeros(1, np.float32))
        self.vs[0] = v0
        with Tape() as tape:
            for t in range(self.steps):
                step.launch(self.n, self.xs[t], self.vs[t], self.xs[t + 1], self.vs[t + 1], self.dt)
            miss.launch(self.n, self.xs[-1], self.targets, self.loss)
        return float(self.loss.numpy()[0]), tape

    def paths(self):
        return np.stack([x.numpy() for x in self.xs], axis=1)  # (balls, steps + 1, 2)


def optimize(iterations=60, balls=8, steps=120, dt=1.0 / 120, rate=0.05, out=None, verbose=True):
    """Gradient descent on the initial velocities; returns the loss of each iteration's
    throws and the final velocities."""
    rng = np.random.default_rng(4)
    start = np.stack([np.full(balls, 0.1), np.linspace(0.3, 1.2, balls)], axis=-1).astype(np.float32)
    # Targets where throws of unknown velocities land: each can be hit.
    hidden = (np.float32(GUESS) + rng.uniform(-0.5, 0.5, (balls, 2))).astype(np.float32)
    throw = Throw(start, np.zeros_like(start), steps, dt)
    throw.run(spirthon.array(hidden, vec2))
    targets = throw.xs[-1].numpy()
    throw.targets.update(targets)
    v0 = spirthon.array(np.tile(np.float32(GUESS), (balls, 1)), vec2, requires_grad=True)
    losses, history = [], []
    m, s = np.zeros((balls, 2), np.float32), np.zeros((balls, 2), np.float32)
    for k in range(iterations):
        loss, tape = throw.run(v0)
        tape.backward(throw.loss)
        grad = v0.grad.numpy()
        tape.zero()
        # Adam (Kingma and Ba, 2015): gradient descent with a step per velocity component
        # scaled by its gradient's running size, as Warp's and PyTorch's examples take.
        m = 0.8 * m + 0.2 * grad
        s = 0.99 * s + 0.01 * grad * grad
        step_ = rate * (m / (1 - 0.8 ** (k + 1))) / (np.sqrt(s / (1 - 0.99 ** (k + 1))) + 1e-8)
        v0.update(v0.numpy() - step_)
        losses.append(loss)
        history.append(throw.paths())
        if out is not None:
            write_png(os.path.join(out, "bounce_%03d.png" % k), draw(history, targets))
        if verbose:
            print("iteration %3d  loss %.6f" % (k, loss))
    if out is not None:
        write_png(os.path.join(out, "bounce.png"), draw(history, targets))
    return losses, v0.numpy()


def draw(history, targets, w=480, h=300, extent=(4.0, 2.5)):
    """The trajectories of every iteration so far (older ones fainter), the ground and the
    targets, as an RGB image."""
    img = np.full((h, w, 3), 250, np.uint8)
    img[h - 3:, :] = (90, 70, 50)

    def pixel(p):
        return (np.clip(p[..., 0] / extent[0] * (w - 1), 0, w - 1).astype(int),
                np.clip((h - 4) - p[..., 1] / extent[1] * (h - 4), 0, h - 4).astype(int))

    for age, paths in enumerate(history):
        shade = 215 - int(175 * (age + 1) / len(history))
        colour = (shade, shade, 255) if age == len(history) - 1 else (shade, shade, shade)
        for path in paths:
            # Segments between the steps, sampled finely enough to be lines.
            t = np.linspace(0.0, 1.0, 8, endpoint=False)[:, None, None]
            pts = (path[:-1][None] * (1 - t) + path[1:][None] * t).reshape(-1, 2)
            xs, ys = pixel(pts)
            img[ys, xs] = colour
    xs, ys = pixel(targets)
    for dx in range(-3, 4):
        for dy in range(-3, 4):
            img[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)] = (220, 30, 30)
    return img


if __name__ == "__main__":
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    balls = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    losses, _ = optimize(iterations, balls, out=".")
    print("loss %.6f -> %.6f on %s" % (losses[0], losses[-1], spirthon.device()))

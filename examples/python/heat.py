"""Heat diffusion on a 2-D grid, on the GPU: a hot ring cools into a cold plate with fixed
edges. Writes heat_0000.png, heat_0500.png, ... and heat.png (the last step).

    python3 examples/python/heat.py [steps]

The grid stays on the device (two device arrays, swapped every step): each step is one
launch, and only the snapshots come back to NumPy.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array2D, f32, global_id, kernel

from png import palette, write_png


@kernel(workgroup_size=(8, 8))
def diffuse(alpha: f32, u: Array2D[f32], out: Array2D[f32]):
    x, y, _ = global_id()
    h, w = u.shape
    if 0 < x < w - 1 and 0 < y < h - 1:
        lap = u[y, x - 1] + u[y, x + 1] + u[y - 1, x] + u[y + 1, x] - 4.0 * u[y, x]
        out[y, x] = u[y, x] + alpha * lap
    else:
        out[y, x] = u[y, x]


def initial(h, w):
    y, x = np.mgrid[0:h, 0:w]
    r = np.hypot(x - w / 2, y - h / 2)
    return np.where(np.abs(r - min(h, w) / 4) < 6, 1.0, 0.0).astype(np.float32)


def simulate(steps, h=256, w=256, every=500, snapshot=None):
    a = spirthon.array(initial(h, w))
    b = spirthon.zeros((h, w), np.float32)
    for step in range(steps):
        if snapshot and step % every == 0:
            snapshot(step, a.numpy())
        diffuse.launch((w, h), 0.24, a, b)
        a, b = b, a
    return a.numpy()


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    snap = lambda step, u: write_png("heat_%04d.png" % step, palette(u * 0.999))  # noqa: E731
    u = simulate(steps, snapshot=snap)
    write_png("heat.png", palette(0.85 * u / max(float(u.max()), 1e-6)))
    print("%d steps on %s; wrote heat.png and a snapshot every 500 steps" % (steps, spirthon.device()))

"""The Mandelbrot set on the GPU, written to mandelbrot.png.

    python3 examples/python/mandelbrot.py [width height]

One invocation per pixel counts the iterations of z -> z^2 + c before |z| > 2; NumPy turns
the counts into colours.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array2D, f32, global_id, i32, kernel

from png import palette, write_png

MAX_ITER = 500


@kernel(workgroup_size=(8, 8))
def mandelbrot(x0: f32, y0: f32, step: f32, counts: Array2D[i32]):
    px, py, _ = global_id()
    cx = x0 + float(px) * step
    cy = y0 + float(py) * step
    x = 0.0
    y = 0.0
    n = 0
    while n < MAX_ITER and x * x + y * y <= 4.0:
        x, y = x * x - y * y + cx, 2.0 * x * y + cy
        n += 1
    counts[py, px] = n


def render(width, height):
    counts = np.zeros((height, width), dtype=np.int32)
    step = 3.0 / width
    mandelbrot.launch((width, height), -2.2, -step * height / 2, step, counts)
    return counts


if __name__ == "__main__":
    width, height = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (768, 512)
    counts = render(width, height)
    t = np.where(counts >= MAX_ITER, 0.0, np.log1p(counts) / np.log1p(MAX_ITER))
    write_png("mandelbrot.png", palette(t))
    print("wrote mandelbrot.png (%dx%d) on %s" % (width, height, spirthon.device()))

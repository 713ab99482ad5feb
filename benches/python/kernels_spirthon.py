"""The benchmark's kernels in spirthon (also the .spv the wgpu-py side dispatches)."""

from spirthon import Array, Array2D, f32, global_id, i32, kernel

MAX_ITER = 256


@kernel(workgroup_size=64)
def saxpy(a: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a * x[i] + y[i]


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

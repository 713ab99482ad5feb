"""Escape-time counts of the Mandelbrot set over a width x height grid."""
from spirthon import kernel, Array, f32, i32, global_id

MAX_ITER = 32


@kernel(workgroup_size=(8, 8))
def mandelbrot(width: i32, height: i32, x0: f32, y0: f32, scale: f32, counts: Array[i32]):
    px, py, _ = global_id()
    cr = x0 + px * scale
    ci = y0 + py * scale
    zr = 0.0
    zi = 0.0
    n = 0
    while n < MAX_ITER and zr * zr + zi * zi <= 4.0:
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        n += 1
    counts[py * width + px] = n

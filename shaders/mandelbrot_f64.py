"""A deep zoom into the Mandelbrot set in double precision: at a pixel pitch of 2e-10
around a point on the set's boundary, f32 cannot tell neighbouring pixels apart (its
spacing near 0.74 is 6e-8), so only f64 draws the picture. Each invocation iterates
z = z^2 + c for one pixel and writes how many steps z took to escape (`iters` if it did not).
"""

from spirthon import Array, f64, global_id, i32, kernel


@kernel
def mandelbrot_f64(counts: Array[i32], cx: f64, cy: f64, pitch: f64, width: i32, iters: i32):
    i = global_id().x
    if i >= len(counts):
        return
    c_re = cx + (i % width - width // 2) * pitch
    c_im = cy + (i // width - width // 2) * pitch
    x = 0.0 * c_re
    y = x
    n = 0
    while n < iters and x * x + y * y <= 4.0:
        # (x + y)(x - y) rather than x*x - y*y: two-term sums, which no driver can
        # reassociate, keep every step the same on every device.
        x, y = (x + y) * (x - y) + c_re, 2.0 * x * y + c_im
        n += 1
    counts[i] = n

"""A 32x32 tile of a Julia set in float32: escape counts are integers that change with the
last bit of a float, so CPython iterates in float32 as the GPU does. Past about 64 iterations
the orbits near the set's boundary are chaotic enough that a driver's reassociation of
`zx*zx - zy*zy + CX` (lavapipe's, docs/language.md) changes a pixel or two."""

from spirthon import Array2D, f32, global_id, i32, kernel

CX = -0.7269
CY = 0.1889
MAX_ITER = 64


@kernel(workgroup_size=(8, 8))
def julia_tile(x0: f32, y0: f32, step: f32, counts: Array2D[i32]):
    px, py, _ = global_id()
    zx = x0 + px * step
    zy = y0 + py * step
    n = 0
    while n < MAX_ITER and zx * zx + zy * zy <= 4.0:
        zx, zy = zx * zx - zy * zy + CX, 2.0 * zx * zy + CY
        n += 1
    counts[py, px] = n

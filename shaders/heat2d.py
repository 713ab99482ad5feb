"""One explicit step of 2-D heat diffusion on an Array2D: the five-point stencil inside,
the boundary held fixed."""
from spirthon import kernel, Array2D, f32, global_id


@kernel(workgroup_size=(8, 8))
def heat2d(alpha: f32, u: Array2D[f32], out: Array2D[f32]):
    x, y, _ = global_id()
    h, w = u.shape
    if x == 0 or y == 0 or x == w - 1 or y == h - 1:
        out[y, x] = u[y, x]
    else:
        lap = u[y - 1, x] + u[y + 1, x] + u[y, x - 1] + u[y, x + 1] - 4.0 * u[y, x]
        out[y, x] = u[y, x] + alpha * lap

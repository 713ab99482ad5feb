"""Array2D and Array3D: A[i, j] loads and stores, .shape (unpacked and indexed), len(),
passing a 2-D array to a func; inputs as nested lists, {"shape", "data"} and {"zeros": shape}."""
from spirthon import kernel, func, Array, Array2D, Array3D, f32, i32, vec2, global_id

@func
def at(a: Array2D[f32], i: i32, j: i32) -> f32:
    h, w = a.shape
    return a[min(max(i, 0), h - 1), min(max(j, 0), w - 1)]

@kernel(workgroup_size=(8, 8))
def arrays_2d(grid: Array2D[i32], out: Array2D[i32], f: Array2D[f32], g: Array2D[f32], c: Array3D[vec2]):
    x, y, _ = global_id()
    if y >= grid.shape[0] or x >= grid.shape[1]:
        return
    n = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            if dx != 0 or dy != 0:
                yy = (y + dy) % grid.shape[0]
                xx = (x + dx) % grid.shape[1]
                n += grid[yy, xx]
    alive = grid[y, x] == 1
    out[y, x] = 1 if n == 3 or (alive and n == 2) else 0
    g[y, x] = at(f, y - 1, x) + at(f, y + 1, x) - 2.0 * f[y, x] + len(f)
    if x < c.shape[2] and y < c.shape[1]:
        c[0, y, x] = vec2(float(x), float(y)) + c[1, y, x]

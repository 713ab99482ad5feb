"""Arrays of 3-vectors as NumPy's `(N, 3)` and Warp's `array(dtype=vec3)` hold them: packed,
12 bytes an element. Loads, stores, `len()`, a func over a whole array, an `ivec3` array, a
two-dimensional one, and an augmented assignment of an element."""
from spirthon import kernel, func, Array, Array2D, vec3, ivec3, f32, global_id, length


@func
def centroid(ps: Array[vec3]) -> vec3:
    s = vec3(0.0)
    for k in range(len(ps)):
        s += ps[k]
    return s / float(len(ps))


@kernel
def step(p: Array[vec3], v: Array[vec3], out: Array[vec3], cells: Array[ivec3],
         grid: Array2D[vec3], d: Array[f32]):
    i = global_id().x
    c = centroid(p)
    q = p[i] + v[i] * 0.5
    out[i] = q - c
    cells[i] = ivec3(q * 2.0) + cells[i]
    v[i] += vec3(0.0, -9.8, 0.0) * 0.25
    r, col = i // grid.shape[1], i % grid.shape[1]
    if r < grid.shape[0]:
        grid[r, col] = grid[r, col] * 2.0 + vec3(float(r), float(col), float(len(p)))
    d[i] = length(out[i])

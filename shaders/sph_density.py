"""SPH density, as particle codes compute it: each particle sums the poly6 kernel of its
neighbours within the smoothing radius. Positions are a packed `Array[vec3]` (NumPy's
`(N, 3)`, as Warp stores them); the neighbours come from a uniform grid of cells, each cell's
particles contiguous (`cell_start`, `cell_count`), visited with a loop over the 27 cells
around the particle's own."""
from spirthon import kernel, Array, f32, i32, ivec3, vec3, global_id

H = 0.25
POLY6 = 315.0 / (64.0 * 3.14159265 * H ** 9)
CELLS = 8


@kernel(workgroup_size=64)
def sph_density(pos: Array[vec3], cell_start: Array[i32], cell_count: Array[i32],
                mass: f32, density: Array[f32]):
    i = global_id().x
    p = pos[i]
    c = ivec3(p * (1.0 / H))
    rho = 0.0
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                q = c + ivec3(dx, dy, dz)
                if min(q.x, q.y, q.z) < 0 or max(q.x, q.y, q.z) >= CELLS:
                    continue
                cell = (q.z * CELLS + q.y) * CELLS + q.x
                for k in range(cell_start[cell], cell_start[cell] + cell_count[cell]):
                    d = pos[k] - p
                    r2 = d.x * d.x + d.y * d.y + d.z * d.z
                    if r2 < H * H:
                        w = H * H - r2
                        rho += mass * POLY6 * w * w * w
    density[i] = rho

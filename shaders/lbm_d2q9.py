"""One step of a D2Q9 lattice-Boltzmann fluid (BGK collision, pull streaming, periodic
walls), written as LBM codes write it: the lattice weights and velocities as module-level
lists, the nine populations of a cell gathered into a `local_array`."""
from spirthon import kernel, Array3D, f32, global_id, local_array

W = [4.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0,
     1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0]
C = [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]
OMEGA = 1.0 / 0.6


@kernel(workgroup_size=(8, 8))
def lbm_d2q9(f: Array3D[f32], out: Array3D[f32]):
    x, y, _ = global_id()
    h, w = f.shape[1], f.shape[2]
    pulled = local_array(f32, 9)
    rho = 0.0
    ux = 0.0
    uy = 0.0
    for q, (cx, cy) in enumerate(C):
        v = f[q, (y - cy + h) % h, (x - cx + w) % w]
        pulled[q] = v
        rho += v
        ux += v * cx
        uy += v * cy
    ux /= rho
    uy /= rho
    usq = 1.5 * (ux * ux + uy * uy)
    for q, (cx, cy) in enumerate(C):
        cu = 3.0 * (cx * ux + cy * uy)
        feq = W[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq)
        out[q, y, x] = pulled[q] + OMEGA * (feq - pulled[q])

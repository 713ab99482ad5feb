"""Vectors of f64 (`dvec2 dvec3 dvec4`), as Warp's `vec3d`: one step of an N-body
simulation in double precision over `Array[dvec3]` positions and velocities (NumPy
`(N, 3)` `float64`), tiles of `dvec4` (position and mass) in shared memory, a func taking and
returning `dvec3`, a struct with a `dvec3` field, a local array of `dvec3`, and the shading
functions, swizzles, `//`, `%` and conversions on them."""
from spirthon import (kernel, func, struct, Array, dvec2, dvec3, dvec4, ivec3, vec3, f64, i32,
                      global_id, local_id, shared_array, local_array, barrier, cross,
                      distance, dot, length, normalize, clamp, mix, smoothstep)

TILE = 16
SOFT = 1e-3


@struct
class Probe:
    at: dvec3
    weight: f64
    hits: i32


@func
def pull(p: dvec3, q: dvec4) -> dvec3:
    d = q.xyz - p
    r2 = dot(d, d) + SOFT * SOFT
    return d * (q.w / (r2 * r2 ** 0.5))


@kernel(workgroup_size=(TILE, 1, 1))
def step(pos: Array[dvec3], vel: Array[dvec3], mass: Array[f64], dt: f64, probes: Array[Probe],
         out: Array[dvec3], stats: Array[f64], cells: Array[ivec3]):
    i = global_id().x
    lid = local_id().x
    tile = shared_array(dvec4, TILE)
    p = pos[i]
    acc = dvec3(0.0)
    for start in range(0, len(pos), TILE):
        tile[lid] = dvec4(pos[start + lid], mass[start + lid])
        barrier()
        for j in range(TILE):
            acc += pull(p, tile[j])
        barrier()
    v = vel[i] + acc * dt
    out[i] = p + v * dt
    vel[i] = v
    trail = local_array(dvec3, 4)
    for k in range(4):
        trail[k] = p + v * (dt * f64(k))
    probe = probes[i]
    probe.at = probe.at + trail[3] - trail[0]
    probe.weight = length(probe.at) + distance(trail[1], trail[2])
    if probe.weight > 1.0:
        probe.hits += 1
    probes[i] = probe
    axis = normalize(cross(v, dvec3(0.0, 0.0, 1.0)) + dvec3(1e-9, 0.0, 0.0))
    flat = dvec2(p.x, p.y) // 0.25 + p.yz % 0.5
    stats[4 * i] = axis.x + axis.y * 2.0 + axis.z * 4.0
    stats[4 * i + 1] = flat.x - flat.y + f64(vec3(p).z)
    stats[4 * i + 2] = mix(p, v, 0.25).z + smoothstep(-1.0, 1.0, clamp(v, -0.5, 0.5)).y
    stats[4 * i + 3] = f64(abs(-p) == max(p, -p)) + min(p, v)[i % 3]
    cells[i] = ivec3(p * 4.0)

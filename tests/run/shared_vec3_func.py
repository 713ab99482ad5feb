"""A workgroup tile of 3-vectors (positions) shared by the invocations and passed to a func
as `Array[vec3]`: a shared array has no storage layout to agree on, so 3-vectors are fine
there, and a func's one-dimensional array parameter may take one."""
from spirthon import (kernel, func, Array, vec3, vec4, f32, i32, local_index, workgroup_id,
                      shared_array, barrier)

WG = 16


@func
def centroid(tile: Array[vec3], n: i32) -> vec3:
    s = vec3(0.0)
    for k in range(n):
        s += tile[k]
    return s / float(n)


@func
def shift(tile: Array[vec3], k: i32, by: vec3):
    tile[k] = tile[k] + by


@kernel(workgroup_size=WG)
def spread(p: Array[vec4], out: Array[vec4]):
    tile = shared_array(vec3, WG)
    li = local_index()
    g = workgroup_id().x * WG + li
    tile[li] = p[g].xyz if g < len(p) else vec3(0.0)
    barrier()
    c = centroid(tile, WG)
    barrier()
    shift(tile, li, -c)
    barrier()
    if g < len(p):
        out[g] = vec4(tile[(li + 1) % WG], length_sq(c))


@func
def length_sq(v: vec3) -> f32:
    return v.x * v.x + v.y * v.y + v.z * v.z

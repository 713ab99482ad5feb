"""Rigid bodies rotated by quaternions, as Warp's examples integrate them: each body's
orientation `(x, y, z, w)` advances by its angular velocity (`q + 0.5 dt (ω, 0) q`, then
normalized), and each point is carried from its body's frame into the world."""
from spirthon import (kernel, Array, f32, i32, vec3, quat, global_id, normalize,
                      quat_rotate)


@kernel(workgroup_size=64)
def quat_bodies(dt: f32, rot: Array[quat], omega: Array[vec3], trans: Array[vec3],
                body: Array[i32], local: Array[vec3], new_rot: Array[quat],
                world: Array[vec3]):
    i = global_id().x
    b = body[i]
    q = rot[b]
    q = normalize(q + quat(omega[b], 0.0) * q * (0.5 * dt))
    world[i] = quat_rotate(q, local[i]) + trans[b]
    if i < len(rot):
        r = rot[i]
        new_rot[i] = normalize(r + quat(omega[i], 0.0) * r * (0.5 * dt))

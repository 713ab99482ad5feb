"""Rigid bodies: every point moved by its body's rotation and translation, as a Warp user
writes it. Rotations are `Array[mat33]` (NumPy's `(N, 3, 3)`, row-major), points and
translations packed `Array[vec3]` (NumPy's `(N, 3)`); each body's world inertia is
`R @ I @ transpose(R)`."""
from spirthon import kernel, Array, i32, vec3, mat33, global_id, transpose


@kernel(workgroup_size=64)
def rigid_bodies(rot: Array[mat33], trans: Array[vec3], inertia: Array[mat33],
                 body: Array[i32], local: Array[vec3], world: Array[vec3],
                 world_inertia: Array[mat33]):
    i = global_id().x
    b = body[i]
    R = rot[b]
    world[i] = R @ local[i] + trans[b]
    if i < len(rot):
        Q = rot[i]
        world_inertia[i] = Q @ inertia[i] @ transpose(Q)

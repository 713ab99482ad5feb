"""Quaternions as Warp holds them, `(x, y, z, w)`: rigid bodies spun by an angular velocity
(`q + 0.5 * dt * (omega, 0) * q`, renormalized), points rotated and rotated back, the
Hamilton product, the inverse, `quat_to_matrix` against `quat_rotate`, components read and
assigned, and `Array[quat]` as NumPy's `(N, 4)`."""
from spirthon import (kernel, func, Array, f32, vec3, vec4, quat, mat33, global_id, normalize,
                      dot, length, quat_identity, quat_inverse, quat_from_axis_angle,
                      quat_rotate, quat_rotate_inv, quat_to_matrix)


@func
def integrate(q: quat, omega: vec3, dt: f32) -> quat:
    spin = quat(omega, 0.0) * q
    return normalize(q + spin * (0.5 * dt))


@kernel
def spin(rot: Array[quat], omega: Array[vec3], pts: Array[vec3], dt: f32, out: Array[quat],
         moved: Array[vec3], back: Array[vec3], err: Array[f32], parts: Array[vec4]):
    i = global_id().x
    q = integrate(rot[i], omega[i], dt)
    out[i] = q
    p = pts[i]
    r = quat_rotate(q, p)
    moved[i] = r
    back[i] = quat_rotate_inv(q, r) + quat_rotate(quat_inverse(q) * q, p) - p
    m = quat_to_matrix(q)
    d = m @ p - r
    err[i] = abs(d.x) + abs(d.y) + abs(d.z) + abs(length(q) - 1.0) * 0.0
    a = quat_from_axis_angle(vec3(0.0, 0.0, 1.0), 0.5) * quat_identity()
    a.w = a.w * 2.0
    a[i % 4] -= 0.25
    parts[i] = vec4(a.x, a[1], a.z + dot(a, q), -a.w)

"""One step of an n-body simulation: each body sums the softened gravity of all others.
Positions carry the mass in `.w` (`Array[vec4]`), so one load brings a body."""
from spirthon import kernel, Array, f32, i32, vec3, vec4, global_id, dot

SOFTENING = 0.01


@kernel(workgroup_size=64)
def nbody(dt: f32, pos: Array[vec4], vel: Array[vec4], new_pos: Array[vec4]):
    i = global_id().x
    p = pos[i]
    acc = vec3(0.0)
    for j in range(len(pos)):
        q = pos[j]
        d = q.xyz - p.xyz
        r2 = dot(d, d) + SOFTENING
        inv = 1.0 / (r2 * r2 ** 0.5)
        acc += d * (q.w * inv)
    v = vel[i].xyz + acc * dt
    vel[i] = vec4(v, 0.0)
    new_pos[i] = vec4(p.xyz + v * dt, p.w)

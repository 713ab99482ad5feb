"""Scatter-adds as cloth and particle solvers write them: `atomic_add` and `atomic_sub` on
`Array[vec3]` (packed), `Array[vec2]` and `Array[ivec4]`, one atomic per component, and
`atomic_sub` on `Array[f32]`. The values are binary-exact, so the order of the additions
does not matter."""
from spirthon import (kernel, Array, f32, vec2, vec3, ivec2, ivec4, global_id, atomic_add,
                      atomic_sub)


@kernel
def spring(edges: Array[ivec2], pos: Array[vec3], force: Array[vec3], mass: Array[f32],
           uv: Array[vec2], counts: Array[ivec4]):
    e = global_id().x
    a, b = edges[e].x, edges[e].y
    d = (pos[b] - pos[a]) * 0.5
    atomic_add(force, a, d)
    atomic_sub(force, b, d)
    atomic_sub(mass, a, 0.25)
    atomic_add(uv, b % len(uv), vec2(0.5, -1.0))
    atomic_add(counts, a % len(counts), ivec4(1, a, b, -1))

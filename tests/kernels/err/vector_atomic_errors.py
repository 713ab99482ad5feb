"""Atomics on vectors: `atomic_add`, `atomic_sub`, `atomic_min` and `atomic_max`, one atomic
per component; the others need scalar integers."""
from spirthon import (kernel, Array, vec3, ivec2, vec2, global_id, local_index, shared_array,
                      atomic_add, atomic_sub, atomic_min, atomic_exchange, atomic_xor)


@kernel(workgroup_size=8)
def k(p: Array[vec3], q: Array[ivec2]):
    t = shared_array(vec2, 8)
    u = shared_array(float, 8)
    i = global_id().x
    atomic_min(q, i, ivec2(1, 2))
    atomic_exchange(p, i, vec3(0.0))
    atomic_add(t, local_index(), vec2(1.0))
    atomic_sub(u, local_index(), 1.0)
    atomic_xor(t, local_index(), vec2(1.0))
    atomic_xor(u, local_index(), 1.0)
    atomic_add(p, i, 1.0)

"""Vectors indexed with constants, negative ones from the end: reads, writes and augmented
assignment of v[k]."""
from spirthon import kernel, Array, vec4, ivec2, global_id

@kernel
def vector_index(a: Array[vec4], b: Array[ivec2]):
    i = global_id().x
    v = a[i]
    v[0] = v[3] + v[-1]
    v[1] += 2.0
    w = b[i]
    w[-1] *= 3
    a[i] = v
    b[i] = ivec2(w[0] + global_id()[0], w[1])

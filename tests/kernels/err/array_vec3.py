"""`Array[vec3]` has no portable layout: the error says why and what to use instead."""
from spirthon import kernel, Array, vec3, ivec3, global_id


@kernel
def k(points: Array[vec3], ids: Array[ivec3]):
    pass

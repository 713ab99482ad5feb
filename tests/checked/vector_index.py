"""A vector indexed at run time past its components (negative ones count from the end)."""
from spirthon import Array, global_id, kernel, vec3


@kernel
def pick(k: Array[int], out: Array[float]):
    i = global_id().x
    v = vec3(1.0, 2.0, 3.0)
    out[i] = v[k[i]]

"""A matrix indexed at run time past its rows (negative ones count from the end)."""
from spirthon import Array, global_id, kernel, mat33


@kernel
def pick(k: Array[int], ms: Array[mat33], out: Array[float]):
    i = global_id().x
    m = ms[i]
    out[i] = m[k[i], 1]

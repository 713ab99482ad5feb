"""The thread-id functions give a fresh vector at every call: changing one that a call
returned changes nothing else (under CPython, where vectors are objects, too)."""
from spirthon import kernel, Array, i32, global_id

@kernel
def id_copies(out: Array[i32]):
    a = global_id()
    a.x = 5
    out[global_id().x] = global_id().x

"""num_threads() in funcs (a hidden parameter their callers pass) and in a func called by a
func, over a 2-D launch that is not a multiple of the workgroup size."""
from spirthon import kernel, func, Array, i32, ivec3, global_id, num_threads

@func
def flat_id() -> i32:
    g = global_id()
    n = num_threads()
    return (g.z * n.y + g.y) * n.x + g.x

@func
def stride(k: i32) -> i32:
    return flat_id() * k + num_threads().x

@kernel(workgroup_size=(4, 2))
def num_threads_funcs(out: Array[i32]):
    i = flat_id()
    out[i] = stride(10)

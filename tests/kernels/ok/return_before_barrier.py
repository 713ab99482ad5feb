"""The CUDA guard before barriers: an invocation past `n` returns, and stays in its workgroup
inactive. It takes both barriers of every round and computes the uniform `rounds`, and it
skips the loads, stores and the per-invocation `v` (each under the hidden `live` flag)."""
from spirthon import kernel, Array, f32, i32, barrier, global_id, local_id, shared_array


@kernel(workgroup_size=32)
def rounds_of_sums(a: Array[f32], out: Array[f32], n: i32):
    tile = shared_array(f32, 33)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    rounds = n // 32
    v = a[i]
    for r in range(rounds):
        tile[t + 1] = v
        barrier()
        v = v + tile[t]
        barrier()
    out[i] = v


@kernel(workgroup_size=8)
def two_guards(a: Array[i32], out: Array[i32], n: i32):
    """A second return where the invocation may already be inactive: both clear `live`, and
    the entry function has one `OpReturn`, at its end."""
    s = shared_array(i32, 8)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    if a[i] == 0:
        return
    s[t] = a[i]
    barrier()
    out[i] = s[t ^ 1]


@kernel(workgroup_size=32)
def doubling(a: Array[i32], out: Array[i32], n: i32):
    """A uniform `while` steered by `offset *= 2` after the guard: the update is no store,
    and runs in the inactive invocations too (outside every branch on `live`)."""
    s = shared_array(i32, 32)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    s[t] = a[i]
    offset = 1
    while offset < 32:
        barrier()
        offset *= 2
    out[i] = s[t]

"""Barriers that not every invocation of a workgroup takes: a branch on the thread's id, a
loop whose trip count is the thread's, a `break` some invocations take, a func whose loop
bound a call makes per-invocation, and a func that returns a value before a barrier."""
from spirthon import kernel, func, Array, f32, i32, barrier, global_id, local_id, shared_array


@kernel(workgroup_size=4)
def split(out: Array[i32]):
    lid = local_id().x
    if lid < 2:
        barrier()
    out[lid] = 1


@kernel(workgroup_size=4)
def per_thread_trips(out: Array[i32], n: i32):
    i = global_id().x
    k = 0
    while k < i:
        barrier()
        k += 1


@kernel(workgroup_size=4)
def some_break(out: Array[i32], n: i32):
    i = global_id().x
    for k in range(n):
        if out[i] > 3:
            break
        barrier()


@func
def sync_rounds(x: f32, n: i32) -> f32:
    for k in range(n):
        barrier()
    return x


@kernel(workgroup_size=4)
def passes_its_id(a: Array[f32], n: i32):
    i = global_id().x
    a[i] = sync_rounds(a[i], i)


@kernel(workgroup_size=4)
def in_a_ternary(a: Array[f32], n: i32):
    i = global_id().x
    a[i] = sync_rounds(a[i], n) if a[i] > 0.0 else 0.0


@func
def returns_early(x: f32, i: i32) -> f32:
    if i > 3:
        return x
    barrier()
    return 2.0 * x


@kernel(workgroup_size=4)
def uniform_is_fine(a: Array[f32], n: i32):
    i = global_id().x
    half = n // 2
    if i >= n:
        return
    a[i] = sync_rounds(a[i], half)
    for k in range(half):
        if k == n - 3:
            break
        barrier()


@kernel(workgroup_size=4)
def only_returns_leave(a: Array[f32], n: i32):
    i = global_id().x
    while True:
        barrier()
        if a[i] > 3.0:
            return
        a[i] += 1.0

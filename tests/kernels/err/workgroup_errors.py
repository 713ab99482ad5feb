"""Shared arrays only at the top level of a kernel body with a constant size; atomics only on
int array elements (and add, sub, min and max on f32s)."""
from spirthon import (kernel, func, Array, f32, i32, global_id, shared_array, barrier,
                      atomic_add, atomic_or, atomic_compare_exchange, num_threads)

N = 64


@func
def helper(a: Array[f32]) -> i32:
    t = shared_array(f32, 8)
    return num_threads().x


@kernel(workgroup_size=64)
def k(n: i32, x: Array[f32], counts: Array[i32]):
    i = global_id().x
    for j in range(2):
        inner = shared_array(i32, N)
    sized = shared_array(f32, n)
    typed = shared_array(bool, 4)
    huge = shared_array(f32, 10000)
    ok = shared_array(i32, N)
    ok = shared_array(i32, N)
    s = 1 + len(shared_array(f32, 4))
    atomic_or(x, i, 1.0)
    atomic_add(i, 0, 1)
    atomic_compare_exchange(counts, i, 1)
    old = atomic_add(counts, i, 2.5)
    barrier(1)
    if i < len(x):
        x[i] = 0.0

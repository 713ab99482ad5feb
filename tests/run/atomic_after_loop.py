"""An atomic whose value is a loop's accumulator (a Monte Carlo count, a histogram of
per-thread totals): the value is defined in another block than the atomic, which naga's SPIR-V
front end took out of scope (an internal compiler error) until the emitter copied it first."""

from spirthon import Array, atomic_add, atomic_compare_exchange, atomic_max, f32, func, global_id, i32, kernel, u32


@func
def pcg(v: u32) -> u32:
    state = v * 747796405 + 2891336453
    word = ((state >> ((state >> 28) + 4)) ^ state) * 277803737
    return (word >> 22) ^ word


@kernel
def atomic_after_loop(seed: u32, hits: Array[i32], most: Array[i32], swapped: Array[i32], old: Array[i32]):
    i = global_id().x
    h = pcg(seed ^ u32(i))
    inside = 0
    last = 0
    for k in range(32):
        h = pcg(h)
        x = f32(h >> 8) / 16777216.0
        h = pcg(h)
        y = f32(h >> 8) / 16777216.0
        if x * x + y * y <= 1.0:
            inside += 1
            last = k
    atomic_add(hits, 0, inside)
    atomic_max(most, 0, inside)
    old[i] = atomic_compare_exchange(swapped, i, last, inside)

"""Atomics on `f64` (each a compare-exchange loop on the float's bits in a `u64` word, so the
device's 64-bit int atomics): sums into a buffer and a shared array of values whose sums are
exact in any order (halves and small ints, and one value past f32's precision, so an
`f32` sum would show), `atomic_sub`, `atomic_min`/`atomic_max` with Python's picks (a NaN
`v` changes nothing, `-0.0` against `0.0` keeps the old), the old values returned,
`atomic_exchange`, `atomic_compare_exchange`, and a `dvec2` array, one atomic per
component."""
import math

from spirthon import (kernel, Array, dvec2, f64, global_id, local_id, shared_array, barrier,
                      atomic_add, atomic_sub, atomic_min, atomic_max, atomic_exchange,
                      atomic_compare_exchange)

WG = 32


@kernel(workgroup_size=(WG, 1, 1))
def f64_atomics(vals: Array[f64], pairs: Array[dvec2], out: Array[f64], group: Array[f64],
                pair_sum: Array[dvec2], olds: Array[f64]):
    i = global_id().x
    lid = local_id().x
    total = shared_array(f64, 1)
    if lid == 0:
        total[0] = 0.0
    barrier()
    if i < len(vals):
        v = vals[i]
        atomic_add(out, 0, v)
        atomic_sub(out, 1, v * 0.5)
        atomic_max(out, 2, v)
        atomic_min(out, 3, v)
        atomic_add(total, 0, v + 1.0)
        atomic_add(pair_sum, 0, pairs[i])
        # The big value 2**40 + 1 needs more than f32's 24 bits.
        atomic_add(out, 4, 1099511627777.0)
        old = atomic_max(out, 5, 7.0)
        olds[i] = f64(old == 0.0 or old == 7.0)
    if i == 0:
        atomic_min(out, 6, -0.0)
        atomic_max(out, 7, math.nan)
        olds[len(vals)] = atomic_exchange(out, 8, 2.5)
        olds[len(vals) + 1] = atomic_compare_exchange(out, 9, 1.0, 3.25)
        olds[len(vals) + 2] = atomic_compare_exchange(out, 10, 5.0, 6.0)
    barrier()
    if lid == 0:
        group[global_id().x // WG] = total[0]

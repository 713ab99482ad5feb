"""Shifts keep Python's meaning for every count from 0 up, wrapped to 32 bits: a count of 32
or more shifts every bit out (`<<` and a u32's `>>` give 0, an i32's `>>` its sign), where
SPIR-V leaves the result undefined; scalars and vectors, run-time and constant counts, and
counts masked or reduced below 32 (which need no guard)."""
from spirthon import kernel, Array, i32, u32, ivec2, uvec2, global_id

BIG = 40


@kernel
def shifts(x: Array[i32], n: Array[i32], u: Array[u32], out: Array[i32], uout: Array[u32],
           vout: Array[ivec2], uvout: Array[uvec2]):
    i = global_id().x
    a = x[i]
    k = n[i]
    v = u[i]
    out[6 * i] = a << k
    out[6 * i + 1] = a >> k
    out[6 * i + 2] = (a << (k & 31)) ^ (a >> (k % 32))
    out[6 * i + 3] = (a << BIG) + (a >> BIG) + (a >> 31)
    out[6 * i + 4] = a << u32(k)
    out[6 * i + 5] = 1 << k
    uout[3 * i] = v << k
    uout[3 * i + 1] = v >> k
    uout[3 * i + 2] = (v >> BIG) + (v << 32) + (v >> u32(k & 7))
    vout[i] = ivec2(a, -a) >> ivec2(k, k + 1) ^ (ivec2(a) << k)
    uvout[i] = uvec2(v, v ^ u32(0xFFFF)) >> u32(k)

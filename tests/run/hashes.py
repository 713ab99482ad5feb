"""Hashes and random-number generators that overflow 32 bits on every step, written without
`u32()` around every line: a PCG hash and an LCG in `-> u32` funcs, an xorshift state in a
local started from a literal, FNV-1a over an array's bytes, and an i32 multiplicative hash
that wraps. CPython wraps as the GPU does."""

from spirthon import Array, f32, func, global_id, i32, kernel, u32


@func
def pcg(v: u32) -> u32:
    state = v * 747796405 + 2891336453
    word = ((state >> ((state >> 28) + 4)) ^ state) * 277803737
    return (word >> 22) ^ word


@func
def lcg(x: u32) -> u32:
    return x * 1664525 + 1013904223


@kernel
def hashes(seeds: Array[u32], pcg_out: Array[u32], lcg_out: Array[u32], xs: Array[u32],
           fnv: Array[u32], mixed: Array[i32], unit: Array[f32]):
    i = global_id().x
    pcg_out[i] = pcg(seeds[i])
    r = seeds[i]
    for _ in range(4):
        r = lcg(r)
    lcg_out[i] = r
    x = 2463534242
    x ^= seeds[i]
    for _ in range(3):
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
    xs[i] = x
    h = 2166136261
    v = seeds[i]
    for _ in range(4):
        h = (h ^ (v & 0xFF)) * 16777619
        v >>= 8
    fnv[i] = h
    m = i * 1000003 + 12345
    for _ in range(3):
        m = m * 65599 - 7
    mixed[i] = m
    unit[i] = f32(pcg(u32(i)) >> 8) / 16777216.0

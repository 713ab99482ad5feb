"""Integer funcs wrap their results and arguments to 32 bits, on the GPU and under CPython:
a linear congruential generator in a `-> u32` func, an `i32` product that overflows, and a
func whose `u32` argument is a sum past 2**32."""

from spirthon import Array, func, global_id, i32, kernel, u32


@func
def lcg(x: u32) -> u32:
    return x * 1664525 + 1013904223


@func
def scramble(a: i32) -> i32:
    return a * 1000003 - 7


@func
def low_byte(v: u32) -> u32:
    return v & 0xFF


@kernel
def func_wrap(seed: u32, ints: Array[i32], out: Array[u32], signed: Array[i32], low: Array[u32]):
    i = global_id().x
    state = lcg(seed ^ u32(i))
    for _ in range(3):
        state = lcg(state)
    out[i] = state
    signed[i] = scramble(ints[i]) // 3
    low[i] = low_byte(lcg(u32(i)) + 4294967295)

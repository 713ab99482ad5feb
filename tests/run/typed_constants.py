"""Annotated module constants can be used in other constants' expressions and in workgroup_size."""
from spirthon import kernel, Array, f32, i32, u32, global_id

WG: i32 = 4
GAIN: f32 = 0.5
SCALE: f32 = GAIN * 4.0
HALF_GAIN = GAIN / 2.0
N: i32 = 7
M = N * 3 + 1
MASK: u32 = 0xFF
SHIFTED: u32 = MASK << 4


@kernel(workgroup_size=(WG, 1, 1))
def typed_constants(x: Array[f32], out: Array[i32], bits: Array[u32]):
    i = global_id().x
    x[i] = x[i] * SCALE + HALF_GAIN
    out[i] = M + i * N
    bits[i] = SHIFTED | u32(i)

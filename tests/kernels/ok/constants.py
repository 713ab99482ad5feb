import math

from spirthon import kernel, Array, f32, i32, u32, global_id

N = 16
HALF = N // 2
SCALE: f32 = 0.25
MASK: u32 = 0xFF
TWO_PI = 2 * math.pi
BIG = 2 ** 31 - 1


@kernel(workgroup_size=N)
def constants(out: Array[f32], bits: Array[u32], ints: Array[i32]):
    i = global_id().x
    k = HALF * 3 + 1
    out[i] = SCALE * TWO_PI + k
    bits[i] = MASK & (u32(i) * 3)
    ints[i] = BIG - i + N ** 2 - (7 // -2) + (-7 % 3)

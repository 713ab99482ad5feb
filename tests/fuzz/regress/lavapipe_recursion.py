from math import fmod
from spirthon import Array, f32, global_id, i32, kernel
@kernel(workgroup_size=7)
def crunch(res: Array[i32], factor: f32, count: i32):
    i = global_id().x
    depth = 0
    for row in range(9):
        factor = factor * 2.0 % 1.0
        if -factor:
            if count:
                if fmod(factor, 0.5):
                    depth = i + 8 - (count + i) & 0x7FFF
    res[i] = depth

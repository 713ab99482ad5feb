"""`range` loops whose counter would pass the integer type's limit end as Python's do: the
counter never wraps. Constant and run-time bounds and steps, both signs, i32 and u32."""
from spirthon import kernel, Array, i32, u32, global_id

BIG = 2147483647


@kernel
def range_limits(lo: i32, hi: i32, step: i32, ulo: u32, uhi: u32, ustep: u32, out: Array[i32]):
    i = global_id().x
    if i != 0:
        return
    n = 0
    last = 0
    for j in range(2147483640, 2147483647, 5):
        n += 1
        last = j
    out[0] = n
    out[1] = last
    n = 0
    for j in range(-2147483640, -2147483648, -3):
        n += 1
        last = j
    out[2] = n
    out[3] = last
    n = 0
    for j in range(lo, hi, step):
        n += 1
        last = j
        if n > 100:
            break
    out[4] = n
    out[5] = last
    n = 0
    for j in range(hi, lo, -step):
        n += 1
        last = j
        if n > 100:
            break
    out[6] = n
    out[7] = last
    n = 0
    lastu = u32(0)
    for ju in range(ulo, uhi, ustep):
        n += 1
        lastu = ju
        if n > 100:
            break
    out[8] = n
    out[9] = i32(lastu & 0xFFFF)
    n = 0
    for ju in range(u32(4294967290), u32(4294967295), 4):
        n += 1
        lastu = ju
    out[10] = n
    out[11] = i32(lastu & 0xFFFF)
    n = 0
    for j in range(BIG - 10, BIG, 2147483647):
        n += 1
    out[12] = n
    n = 0
    for j in range(-BIG, BIG, 1073741824):
        n += 1
    out[13] = n
    n = 0
    for j in range(lo, hi, 7):
        n += 1
        if n > 100:
            break
    out[14] = n
    n = 0
    for j in range(hi, lo, -2147483648):
        n += 1
    out[15] = n

"""Module constants bound by unpacking, as Python binds them: `A, B = 4, 8`, nested targets,
a list target, a chained `A = B = 3`, a swap (every value first, then every name), a constant
tuple's items (`T0, T1 = PAIR`) and a row of a tuple of tuples (`R0, R1 = ROWS`), an annotated
constant in an unpacked expression (`G3` is float32's 0.1 times 3, in an f64 product too); a constant tuple where a size is expected (the workgroup
size `WG`, a shared array's shape `TILE_SHAPE`, a local array's `LOCAL_SHAPE`)."""
from spirthon import kernel, Array, f32, f64, i32, global_id, local_id, shared_array, local_array, barrier

GAIN: f32 = 0.1
BX, BY = 4, 2
(P, Q), R = (1, 2.5), BX * 3
[L0, L1] = [7, 8]
A = B = 3
X, Y = 1, 2
X, Y = Y, X
PAIR = (5, 6.5)
T0, T1 = PAIR
ROWS = ((1, 2), (3, 4))
R0, R1 = ROWS
G3, H = GAIN * 3, -1
WG = (BX, BY)
TILE_SHAPE = (BY, BX)
LOCAL_SHAPE = (2, 3)


@kernel(workgroup_size=WG)
def unpacked(a: Array[f32], out: Array[f32], ints: Array[i32], wide: Array[f64]):
    lx = local_id().x
    ly = local_id().y
    i = global_id().x + global_id().y * 8
    tile = shared_array(f32, TILE_SHAPE)
    tile[ly, lx] = a[i % len(a)]
    barrier()
    grid = local_array(i32, LOCAL_SHAPE)
    for r in range(2):
        for c in range(3):
            grid[r, c] = r * 10 + c
    if i >= len(out):
        return
    out[i] = tile[BY - 1 - ly, BX - 1 - lx] * G3 + P + Q + R + T0 + T1 + f32(H)
    wide[i] = f64(i) * G3
    ints[i] = L0 * 1000 + L1 * 100 + A * 10 + B + X * 100000 + Y * 10000 + R0[1] * R1[0] + grid[1, 2]

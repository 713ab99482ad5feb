"""-8 >> 1 is -4 (arithmetic shift); u32 arithmetic wraps; ~x is -x - 1."""
from spirthon import kernel, Array, i32, u32, global_id


@kernel
def shifts_and_wrap(a: Array[i32], u: Array[u32], out: Array[i32], uout: Array[u32]):
    i = global_id().x
    out[i] = (a[i] >> 1) + (~a[i]) * 1000
    uout[i] = (u[i] >> 4) ^ (u[i] * 3)

from spirthon import kernel, func, Array, f32, i32, u32, global_id

TABLE = [1.0, 2.0, 3.0]


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = x[i] * TABLE

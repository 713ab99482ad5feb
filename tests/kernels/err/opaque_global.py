from spirthon import kernel, func, Array, f32, i32, u32, global_id

TABLE = {"a": 1.0, "b": 2.0}


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = x[i] * TABLE

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    if x[i] is None:
        out[i] = 0.0

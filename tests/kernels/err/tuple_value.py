from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    t = (1, 2)
    out[i] = x[i]

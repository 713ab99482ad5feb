from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(rows: Array[Array[f32]]):
    pass

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(x: Array[f32]) -> f32:
    pass

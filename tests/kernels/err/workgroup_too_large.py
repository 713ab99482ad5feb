from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel(workgroup_size=(64, 64))
def k(x: Array[f32]):
    pass

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def total(*values: f32) -> f32:
    return 0.0

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def scale(v: f32, factor: f32 = 2.0) -> f32:
    return v * factor

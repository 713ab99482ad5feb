from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def half(v: f32) -> f32:
    if v > 0.0:
        return
    return v / 2.0

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def either(a: i32, b: f32) -> f32:
    return a or b

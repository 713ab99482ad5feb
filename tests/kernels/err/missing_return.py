from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def sign(v: f32) -> i32:
    if v > 0.0:
        return 1
    elif v < 0.0:
        return -1

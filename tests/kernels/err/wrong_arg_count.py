from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def scale(v: f32, factor: f32) -> f32:
    return v * factor


@kernel
def k(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = scale(x[i])

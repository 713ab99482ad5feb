from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def half(x) -> f32:
    return x * 0.5


@kernel
def k(x, out: Array[f32]):
    out[0] = half(1.0)

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(n: i32, out: Array[i32]):
    i = global_id().x
    out[i] = i ** n

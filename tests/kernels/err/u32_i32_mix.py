from spirthon import kernel, func, Array, f32, i32, u32, global_id


@kernel
def k(a: Array[u32], out: Array[u32]):
    i = global_id().x
    out[i] = a[i] + i

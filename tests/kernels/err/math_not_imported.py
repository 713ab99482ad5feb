from spirthon import kernel, Array, f32, global_id

@kernel
def k(x: Array[f32], out: Array[f32], n: int):
    i = global_id().x
    out[i] = math.sqrt(x[i])

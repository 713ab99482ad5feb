from spirthon import kernel, Array, f32
@kernel
async def k(x: Array[f32]):
    x[0] = 1.0

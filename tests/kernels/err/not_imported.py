from spirthon import kernel, Array


@kernel
def k(x: Array[f32]):
    pass

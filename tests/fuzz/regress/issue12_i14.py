from spirthon import kernel, Array, f32
@kernel
def k(x: Array[f32]):
    assert x[0] + undefined_thing > 1.0
    assert 1 + 2.0 & 3
    x[0] = 1.0

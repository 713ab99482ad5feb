"""Outside checked mode an assert runs nothing, but its test is still type-checked."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    assert x[i] + missing > 0.0
    assert 1 + 2.0 & 3, "no float bit operations"
    assert x[i] >= 0.0 and i < 10
    x[i] = 1.0

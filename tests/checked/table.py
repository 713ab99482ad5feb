"""A constant tuple indexed past its end at run time."""
from spirthon import Array, f32, global_id, kernel

WEIGHTS = (0.25, 0.5, 0.25)


@kernel(workgroup_size=4)
def weigh(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = x[i] * WEIGHTS[i % 4]

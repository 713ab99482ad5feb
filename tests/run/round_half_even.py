"""round() rounds half to even and returns an int."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def round_half_even(x: Array[f32], out: Array[i32]):
    i = global_id().x
    out[i] = round(x[i]) * 10 + round(x[i] + 0.0) % 7

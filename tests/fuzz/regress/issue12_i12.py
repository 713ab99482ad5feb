from spirthon import kernel, Array, f32, global_id
GAIN: f32 = 0.5
SCALE: f32 = GAIN * 4.0
HALF_GAIN: f32 = GAIN / 2.0
@kernel
def k(x: Array[f32]):
    x[0] = SCALE + HALF_GAIN

from spirthon import kernel, Array, f32, vec2, global_id

# A module constant written with `:=` is no constant of the kernel language.
LIMIT = (SIDE := 4) * 2


@kernel
def walrus_errors(x: Array[f32]):
    i = global_id().x
    y = 1.5
    if (y := vec2(1.0, 2.0)).x > 0.0:
        x[i] = 0.0
    x[i] = (z := x) [0]
    x[i] = LIMIT

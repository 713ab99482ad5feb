from spirthon import kernel, Array, f32, global_id

# Python raises for each of these (or gives a complex number); a kernel cannot.
ROOT = (-8.0) ** (1 / 3)


@kernel
def powers(out: Array[f32]):
    i = global_id().x
    out[i] = 0.0 ** -1
    out[i] = 10.0 ** 400
    out[i] = ROOT

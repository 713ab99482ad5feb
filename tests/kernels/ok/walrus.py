from spirthon import kernel, Array, f32, i32, global_id


@kernel
def countdown(n: Array[i32], out: Array[f32]):
    i = global_id().x
    k = n[i]
    count = 0
    while (k := k - 1) > 0:
        count += 1
    if (half := count / 2) > 1.0:
        out[i] = half

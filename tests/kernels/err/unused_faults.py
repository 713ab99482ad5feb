from spirthon import kernel, Array, i32, global_id


@kernel
def unused_faults(x: Array[i32]):
    i = global_id().x
    # Nothing reads these, but Python raises at each line on every run.
    r = x[i] // 0
    s = x[i] << -3
    t = x[-1]
    x[i] = 1

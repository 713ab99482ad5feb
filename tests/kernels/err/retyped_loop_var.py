from spirthon import kernel, Array, i32, u32, f32, global_id


@kernel
def k(out: Array[i32], n: i32):
    i = global_id().x
    total = 0
    for k in range(n, 0, -3):
        total += k
    # One error each: a later use of `k` or `w` is not also "used before it is assigned".
    for k in range(u32(5)):
        total += i32(k)
    w = 1
    if i > 2:
        w: f32 = 2.0
    out[i] = total + w

from spirthon import kernel, Array, f32, i32, global_id


@kernel
def truthiness(x: Array[f32], n: Array[i32], out: Array[i32]):
    i = global_id().x
    count = 0
    if n[i]:
        count += 1
    if x[i]:
        count += 10
    if not n[i]:
        count += 100
    m = n[i]
    while m:
        m //= 2
        count += 1000
    out[i] = count + int(bool(x[i])) + int(True) + int(1.5)

from spirthon import kernel, Array, i32, u32, global_id
@kernel
def k(x: Array[i32], y: Array[u32]):
    i = global_id().x
    z = 0
    x[0] = x[1] // 0
    x[2] = x[3] % z
    y[0] = y[1] // (1 - 1)
    x[4] //= 0

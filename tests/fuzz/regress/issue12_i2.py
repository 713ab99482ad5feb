from spirthon import kernel, Array, i32, global_id
@kernel
def k(x: Array[i32]):
    x[0] = x[-1]
    x[-1] = 1
    x[1] = x[-2**31]

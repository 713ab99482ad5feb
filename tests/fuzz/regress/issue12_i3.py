from spirthon import kernel, Array, i32, global_id
@kernel
def k(x: Array[i32]):
    x[0] = 1
@kernel
def k(x: Array[i32]):
    x[0] = 2

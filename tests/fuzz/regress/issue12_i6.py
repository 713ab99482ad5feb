from spirthon import kernel, Array, i32, global_id
@kernel
def k(x: Array[i32], a: i32, b: i32, d: i32):
    if a < b < x[2] < d:
        x[0] = 1

from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def fact(n: i32) -> i32:
    if n <= 1:
        return 1
    return n * fact(n - 1)

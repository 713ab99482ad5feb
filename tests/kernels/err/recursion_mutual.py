from spirthon import kernel, func, Array, f32, i32, u32, global_id


@func
def is_even(n: i32) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


@func
def is_odd(n: i32) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)

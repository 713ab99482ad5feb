from spirthon import kernel, func, Array, i32, global_id


@kernel
def k(x: Array[i32]):
    i = global_id().x
    x[i] = pow(x[i], 2)
    q, r = divmod(x[i], 3)
    x[i] = sum(x)
    x[i] = any(x[i], q)
    first, *rest = global_id()
    a, *b = x[0], x[1], x[2]
    x[i] = q + r + first + a


@func
def twice(v: i32) -> i32:
    return v * 2


@kernel
def passes_array(x: Array[i32]):
    x[0] = twice(x)

# An error says nothing more where its consequences are read: a name whose assignment failed
# (a type error on one path, an array that could not be made, a tuple as a value, an
# annotation that is no type) is not "used before it is assigned" after; a func whose only
# `return` has an undefined name reports the name, not "has no return type".
from spirthon import kernel, func, Array, f32, i32, u32, global_id, local_array


@func
def accel(v: f32):
    return v * undefined_thing


@kernel
def k(a: Array[f32], b: Array[i32], c: Array[u32]):
    i = global_id().x
    if i > 3:
        x = a[i] @ a[i]
    else:
        x = 1.0
    if i > 4:
        t = local_array(f32, 2.5)
    else:
        t = local_array(f32, 2.5)
    p = (a[i], 1.0)
    q: list = a[i]
    a[i] = x + t[0] + p + q + accel(a[i])

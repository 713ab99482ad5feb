from spirthon import kernel, Array, vec2, global_id
@kernel
def k(a: Array[vec2]):
    i = global_id().x
    v = a[i]
    w = v if i > 2 else 1.0
    z = 2.0 if i > 2 else v
    a[i] = min(v, 1.0) + max(2, v)

from spirthon import kernel, Array, f32, i32, global_id


@kernel
def assignment(x: Array[f32], idx: Array[i32], out: Array[f32]):
    i = global_id().x
    a = b = x[i]
    c: f32 = 1
    a, b = b + 1.0, a
    j = idx[i]
    x[i], x[j] = x[j], x[i]
    out[i] += a
    out[i] -= b
    out[i] *= c
    out[i] /= 2
    out[i] //= 1.5
    out[i] %= 7.0
    out[i] **= 2
    n = 5
    n <<= 2
    n >>= 1
    n &= 12
    n |= 1
    n ^= 3
    n //= 2
    n %= 3
    out[i] += n

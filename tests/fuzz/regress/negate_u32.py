from spirthon import kernel, Array, f32, i32, u32, global_id


@kernel
def python_arith(a: Array[i32], b: Array[i32], u: Array[u32], f: Array[f32], g: Array[f32],
                 ints: Array[i32], uints: Array[u32], floats: Array[f32]):
    i = global_id().x
    x = a[i]
    y = b[i]
    ints[i] = x // y + x % y + (x << 2) + (x >> 1) + (x & 7) + (x | 8) + (x ^ y) + ~x
    ints[i] += abs(x) + min(x, y) + max(x, y, 3) + x ** 3 + round(f[i]) + int(f[i])
    w = u[i]
    uints[i] = w // 3 + w % 5 +- (w >> 3) + (w * 2654435761) + 0xFFFFFFFF
    floats[i] = f[i] // g[i] + f[i] % g[i] + x / y + f[i] ** 2 + f[i] ** -1 + f[i] ** 0.5
    floats[i] += float(x) + min(f[i], 1.0) + max(0, f[i]) + abs(f[i]) - -f[i]

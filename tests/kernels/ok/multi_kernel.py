from spirthon import kernel, func, Array, f32, i32, global_id


@func
def lerp(a: f32, b: f32, t: f32) -> f32:
    return a + (b - a) * t


@kernel(workgroup_size=256)
def blend(a: Array[f32], b: Array[f32], t: f32, out: Array[f32]):
    i = global_id().x
    out[i] = lerp(a[i], b[i], t)


@kernel(workgroup_size=32)
def fill(out: Array[f32]):
    out[global_id().x] = 1.0


@kernel(workgroup_size=(16, 16))
def transpose(src: Array[f32], dst: Array[f32], n: i32, flag: bool):
    x, y, _ = global_id()
    if flag:
        dst[x * n + y] = src[y * n + x]
    else:
        dst[y * n + x] = src[y * n + x]

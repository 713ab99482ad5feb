"""Escape-time counts of a Julia set, the orbit kept as a vec2 (z -> z*z + c)."""
from spirthon import kernel, func, Array, f32, i32, vec2, global_id, dot

MAX_ITER = 24


@func
def complex_square(z: vec2) -> vec2:
    return vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y)


@kernel(workgroup_size=(8, 8))
def julia(width: i32, c: vec2, origin: vec2, scale: f32, counts: Array[i32]):
    px, py, _ = global_id()
    z = origin + vec2(px, py) * scale
    n = 0
    while n < MAX_ITER and dot(z, z) <= 4.0:
        z = complex_square(z) + c
        n += 1
    counts[py * width + px] = n

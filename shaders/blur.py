"""3x3 box blur of a grayscale image, clamped at the borders."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel(workgroup_size=(8, 8))
def blur(src: Array[f32], dst: Array[f32], width: i32, height: i32):
    x, y, _ = global_id()
    total = 0.0
    count = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            sx = x + dx
            sy = y + dy
            if 0 <= sx < width and 0 <= sy < height:
                total += src[sy * width + sx]
                count += 1
    dst[y * width + x] = total / count

"""The 3x3 box blur of `rgba8_filter` written as a Warp user writes it, the image an
`Array2D[u8vec4]` (Warp's `wp.array2d(dtype=wp.vec4ub)`; NumPy's `(height, width, 4)`
`uint8` as it is): each channel the rounded mean of the pixel's neighbours (clamped at the
borders), the alpha channel kept. A `u8vec4` element is one whole word, read with one load
and stored with one store."""
from spirthon import Array2D, global_id, kernel, u32, u8vec4, uvec4


@kernel(workgroup_size=(8, 8))
def rgba8_vec4(src: Array2D[u8vec4], dst: Array2D[u8vec4]):
    x, y, _ = global_id()
    height, width = src.shape
    if x >= width or y >= height:
        return
    total = uvec4(0)
    count = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            sx = x + dx
            sy = y + dy
            if 0 <= sx < width and 0 <= sy < height:
                total += uvec4(src[sy, sx])
                count += 1
    n = u32(count)
    mean = u8vec4((total + n // 2) // n)
    mean.w = src[y, x].w
    dst[y, x] = mean

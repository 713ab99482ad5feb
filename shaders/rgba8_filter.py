"""A 3x3 box blur of an RGBA8 image held as NumPy holds it, `(height, width, 4)` `uint8`,
into another: each channel the rounded mean of the pixel's neighbours (clamped at the
borders), and the alpha channel kept. `u8` elements are packed four to a word, and a store
of one touches only its byte (invocations that store neighbouring bytes lose nothing)."""
from spirthon import Array3D, global_id, kernel, u8, u32


@kernel(workgroup_size=(8, 8))
def rgba8_filter(src: Array3D[u8], dst: Array3D[u8]):
    x, y, _ = global_id()
    height, width, _ = src.shape
    if x >= width or y >= height:
        return
    for c in range(3):
        total: u32 = 0
        count: u32 = 0
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                sx = x + dx
                sy = y + dy
                if 0 <= sx < width and 0 <= sy < height:
                    total += u32(src[sy, sx, c])
                    count += 1
        dst[y, x, c] = u8((total + count // 2) // count)
    dst[y, x, 3] = src[y, x, 3]

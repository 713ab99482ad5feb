"""Image filters on RGBA8 pixels, as Warp users write them: the image is an
`Array2D[u8vec4]` (NumPy's `(height, width, 4)` `uint8`, each pixel one word), a few passes
of a 3x3 box blur ping-ponged between two device arrays, then a sepia tone. Writes
filters_in.png and filters.png.

    python3 examples/python/filters.py [passes]

Every channel is computed in `u32` or `f32` and brought back to `u8` explicitly; the alpha
channel is kept.
"""

import sys

import numpy as np
import spirthon
from spirthon import Array2D, global_id, kernel, u32, u8vec3, u8vec4, uvec3, uvec4, vec3

from png import write_png


@kernel(workgroup_size=(8, 8))
def box_blur(src: Array2D[u8vec4], dst: Array2D[u8vec4]):
    x, y, _ = global_id()
    h, w = src.shape
    if x >= w or y >= h:
        return
    total = uvec4(0)
    count = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            if 0 <= x + dx < w and 0 <= y + dy < h:
                total += uvec4(src[y + dy, x + dx])
                count += 1
    n = u32(count)
    out = u8vec4((total + n // 2) // n)
    out.w = src[y, x].w
    dst[y, x] = out


@kernel(workgroup_size=(8, 8))
def sepia(src: Array2D[u8vec4], dst: Array2D[u8vec4]):
    x, y, _ = global_id()
    h, w = src.shape
    if x >= w or y >= h:
        return
    p = src[y, x]
    c = vec3(uvec3(p.xyz))
    tone = vec3(0.393 * c.x + 0.769 * c.y + 0.189 * c.z,
                0.349 * c.x + 0.686 * c.y + 0.168 * c.z,
                0.272 * c.x + 0.534 * c.y + 0.131 * c.z)
    dst[y, x] = u8vec4(u8vec3(uvec3(min(tone, vec3(255.0)))), p.w)


def picture(h, w):
    """A test picture: colour gradients, a disc and a square, alpha fading left to right."""
    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 4), np.uint8)
    img[..., 0] = (255 * x / max(w - 1, 1)).astype(np.uint8)
    img[..., 1] = (255 * y / max(h - 1, 1)).astype(np.uint8)
    img[..., 2] = np.where(np.hypot(x - w / 3, y - h / 2) < min(h, w) / 4, 230, 40)
    img[h // 4:h // 2, 2 * w // 3:5 * w // 6, :3] = 255
    img[..., 3] = (128 + 127 * x / max(w - 1, 1)).astype(np.uint8)
    return img


def run(passes, h=240, w=320):
    """The picture blurred ``passes`` times, then toned: a NumPy (h, w, 4) uint8 array."""
    a = spirthon.array(picture(h, w), u8vec4)
    b = spirthon.zeros((h, w), u8vec4)
    for _ in range(passes):
        box_blur.launch((w, h), a, b)
        a, b = b, a
    sepia.launch((w, h), a, b)
    return b.numpy()


if __name__ == "__main__":
    passes = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    write_png("filters_in.png", picture(240, 320))
    write_png("filters.png", run(passes))
    print("%d blur passes and a sepia tone on %s; wrote filters_in.png and filters.png" % (passes, spirthon.device()))

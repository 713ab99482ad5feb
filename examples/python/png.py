"""Writes PNG images with the standard library only (zlib + struct)."""

import struct
import zlib


def write_png(path, pixels):
    """Writes ``pixels`` (a NumPy uint8 array of shape (height, width, 3), (height, width, 4)
    with alpha, or (height, width) for grey) to ``path``."""
    height, width = pixels.shape[:2]
    colour = 0 if pixels.ndim == 2 else (6 if pixels.shape[2] == 4 else 2)
    rows = b"".join(b"\x00" + pixels[y].tobytes() for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(rows, 9)))
        f.write(chunk(b"IEND", b""))


def palette(t):
    """Colours for values ``t`` in [0, 1] (a NumPy array): dark blue through orange to white."""
    import numpy as np
    t = np.clip(t, 0.0, 1.0)[..., None]
    stops = np.array([[0, 7, 100], [32, 107, 203], [237, 255, 255], [255, 170, 0], [0, 2, 0]], dtype=np.float32)
    x = t[..., 0] * (len(stops) - 1)
    k = np.minimum(x.astype(np.int32), len(stops) - 2)
    f = (x - k)[..., None]
    return (stops[k] * (1 - f) + stops[k + 1] * f).astype(np.uint8)

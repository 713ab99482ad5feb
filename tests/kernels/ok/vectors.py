"""Vectors stay vector instructions where SPIR-V has one (`+`, `*`, `/`, GLSL.std.450's
length and normalize), and Python's `//` on an int vector is lowered per component."""
from spirthon import kernel, func, Array, f32, vec2, vec4, ivec2, global_id, length, normalize


@func
def rotate(p: vec2, c: f32, s: f32) -> vec2:
    return vec2(p.x * c - p.y * s, p.x * s + p.y * c)


@kernel
def vectors(scale: vec2, pts: Array[vec2], cells: Array[ivec2], out: Array[vec4]):
    i = global_id().x
    p = rotate(pts[i] * scale, 0.6, 0.8)
    cells[i] = cells[i] // 4
    out[i] = vec4(normalize(p), length(p), 1.0)

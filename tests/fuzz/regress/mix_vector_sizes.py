"""A fuzz mutant of tests/run/vector_geometry.py that reached naga (which rejected the
module, exit 101): `mix` of a vec4 with a vec2. Now a located error about the sizes."""
from spirthon import kernel, Array, f32, vec2, vec4, global_id, mix


@kernel
def k(pos: Array[vec4], out: Array[f32]):
    i = global_id().x
    p = pos[i]
    out[i] = mix(p, vec2(1.0), 0.25).x

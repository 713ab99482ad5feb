"""A ray-traced sphere under a sky gradient: funcs take and return vectors."""
import math
from spirthon import (kernel, func, Array, f32, i32, vec2, vec3, vec4, global_id, dot, normalize,
                      clamp, mix)


@func
def hit_sphere(center: vec3, radius: f32, origin: vec3, d: vec3) -> f32:
    oc = origin - center
    b = dot(oc, d)
    h = b * b - (dot(oc, oc) - radius * radius)
    if h < 0.0:
        return -1.0
    return -b - math.sqrt(h)


@func
def sky(d: vec3) -> vec3:
    return mix(vec3(1.0), vec3(0.5, 0.7, 1.0), 0.5 * (d.y + 1.0))


@kernel(workgroup_size=(8, 8))
def raytrace(width: i32, height: i32, light: vec3, image: Array[vec4]):
    px, py, _ = global_id()
    uv = (vec2(px, py) + 0.5) / vec2(width, height) * 2.0 - 1.0
    d = normalize(vec3(uv.x * width / height, -uv.y, -1.5))
    origin = vec3(0.0, 0.0, 2.5)
    color = sky(d)
    t = hit_sphere(vec3(0.0), 1.0, origin, d)
    if t > 0.0:
        p = origin + d * t
        diffuse = max(dot(normalize(p), normalize(light - p)), 0.0)
        color = vec3(0.9, 0.3, 0.2) * (0.1 + 0.9 * diffuse)
    image[py * width + px] = vec4(clamp(color, 0.0, 1.0), 1.0)

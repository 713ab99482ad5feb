"""Cartesian points to spherical coordinates and back to a great-circle distance: a
math-heavy kernel of inverse trigonometry (atan2, acos, asin), which spirthon computes
itself within a few ULP rather than with the device's looser instructions."""
import math

from spirthon import kernel, Array, f32, vec4, global_id


@kernel(workgroup_size=64)
def spherical(points: Array[vec4], angles: Array[vec4]):
    i = global_id().x
    p = points[i]
    r = math.sqrt(p.x * p.x + p.y * p.y + p.z * p.z)
    azimuth = math.atan2(p.y, p.x)
    polar = math.acos(p.z / r)
    # The haversine distance (on the unit sphere) to the point (latitude 0.5, longitude 1).
    lat = math.asin(p.z / r)
    dlat = (lat - 0.5) * 0.5
    dlon = (azimuth - 1.0) * 0.5
    h = math.sin(dlat) ** 2 + math.cos(lat) * math.cos(0.5) * math.sin(dlon) ** 2
    distance = 2.0 * math.asin(math.sqrt(min(h, 1.0)))
    angles[i] = vec4(azimuth, polar, distance, math.atan(p.w))

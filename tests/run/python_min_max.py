"""`min` and `max` of floats as Python picks: the first argument unless a later one compares
less (greater), so `min(nan, 1.0)` is `nan`, `min(1.0, nan)` is `1.0`, `min(0.0, -0.0)` is
`0.0` and `max(-0.0, 0.0)` is `-0.0`; per component on vectors, through `clamp`, on `f64`
and `f16`, and folded alike when a side is a constant. GLSL's `FMin`/`FMax` leave these
undefined (lavapipe's `min(nan, 1.0)` was `1.0`)."""
import math

from spirthon import kernel, Array, f16, f32, f64, vec3, global_id, clamp


@kernel
def picks(a: Array[f32], b: Array[f32], out: Array[f32], vout: Array[vec3],
          d: Array[f64], h: Array[f16]):
    i = global_id().x
    x = a[i]
    y = b[i]
    k = i * 8
    out[k] = min(x, y)
    out[k + 1] = max(x, y)
    out[k + 2] = min(y, x)
    out[k + 3] = max(y, x)
    out[k + 4] = min(x, y, 0.5)
    out[k + 5] = clamp(x, -1.0, 1.0)
    out[k + 6] = min(x, math.nan)
    out[k + 7] = max(math.nan, y)
    vout[i] = min(vec3(x, y, 0.0), vec3(y, x, -0.0))
    d[i * 2] = min(f64(x), f64(y))
    d[i * 2 + 1] = max(f64(y), f64(x))
    h[i * 2] = min(f16(x), f16(y))
    h[i * 2 + 1] = max(f16(y), f16(x))

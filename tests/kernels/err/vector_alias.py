"""Under CPython `w = v` gives one vector object two names, so assigning a component of
either would change both there (and one on the GPU): an error that asks for a copy."""
from spirthon import kernel, Array, vec2, global_id


@kernel
def k(a: Array[vec2]):
    i = global_id().x
    v = a[i]
    w = v
    w.x = 0.0
    u = v if i > 2 else a[0]
    u[1] += 1.0
    z = vec2(v)
    z.y = 2.0
    a[i] = w + u + z

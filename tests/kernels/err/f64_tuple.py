"""A func's returned tuple carries its items' bits in u32 words when their types differ: an
f64 (64 bits) goes only with other f64s."""
from spirthon import kernel, func, Array, f32, f64, global_id


@func
def pair(x: f64) -> tuple[f64, f32]:
    return x, 1.0


@kernel
def k(xs: Array[f64]):
    i = global_id().x
    a, b = pair(xs[i])
    xs[i] = a

"""`@func(grad=...)` names a `@func` of the file defined before the func (its own adjoint,
for gradients); anything else is an error, as is any other argument of `func`."""
from spirthon import kernel, func, Array, f32, global_id


def plain(x: f32, g: f32) -> f32:
    return g


@func(grad=plain)
def a(x: f32) -> f32:
    return x * x


@func(grad=later)
def b(x: f32) -> f32:
    return x


@func(inline=True)
def c(x: f32) -> f32:
    return x


@func(grad=k)
def d(x: f32) -> f32:
    return x


@kernel
def k(x: Array[f32]):
    i = global_id().x
    x[i] = a(x[i]) + b(x[i]) + c(x[i]) + d(x[i])


@func
def later(x: f32, g: f32) -> f32:
    return g

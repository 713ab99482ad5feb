"""A returned tuple holds at most sixteen numbers; parameters are not tuples."""
from spirthon import kernel, func, Array, f32, vec4


@func
def wide(x: f32) -> tuple[vec4, vec4, vec4, vec4, f32]:
    return vec4(x), vec4(x), vec4(x), vec4(x), x


@func
def takes(t: tuple[f32, f32]) -> f32:
    return 0.0


@kernel
def k(x: Array[f32]):
    pass

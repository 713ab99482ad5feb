"""A kernel or func must be a top-level def: one inside a class or a block is an error at its decorator."""
from spirthon import kernel, func, Array, f32


class Filters:
    @kernel
    def k(x: Array[f32]):
        x[0] = 1.0


try:
    @func
    def helper(a: f32) -> f32:
        return a
except ImportError:
    pass


@kernel
def ok(x: Array[f32]):
    x[0] = 2.0

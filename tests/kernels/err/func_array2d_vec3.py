"""A func's `Array2D[vec3]` parameter is rejected as a kernel's is: no shared array is
two-dimensional, and no buffer has the layout."""
from spirthon import kernel, func, Array2D, vec3


@func
def corner(g: Array2D[vec3]) -> vec3:
    return g[0, 0]


@kernel
def k():
    pass

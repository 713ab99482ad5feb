"""`Array2D[vec3]` has no portable layout, as `Array[vec3]`."""
from spirthon import kernel, Array2D, vec3


@kernel
def k(img: Array2D[vec3]):
    pass

"""A 2-D stencil reading one column past the right edge."""
from spirthon import Array2D, f32, global_id, kernel


@kernel(workgroup_size=(4, 4))
def blur(src: Array2D[f32], dst: Array2D[f32]):
    x, y, _ = global_id()
    if y < src.shape[0]:
        dst[y, x] = (src[y, x] + src[y, x + 1]) * 0.5

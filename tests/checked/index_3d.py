"""A 3-D read whose first and last axes both run out of range: the first axis is reported."""
from spirthon import Array, Array3D, f32, global_id, kernel


@kernel(workgroup_size=4)
def corner(v: Array3D[f32], out: Array[f32]):
    i = global_id().x
    out[i] = v[i + 1, 0, i * 3]

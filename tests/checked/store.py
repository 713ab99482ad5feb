"""A store past the end of a shorter output: skipped, and reported."""
from spirthon import Array, i32, global_id, kernel


@kernel(workgroup_size=4)
def copy(src: Array[i32], dst: Array[i32]):
    i = global_id().x
    dst[i] = src[i] * 2

"""dst = src: the bandwidth ceiling the memory-bound kernels are measured against."""
from spirthon import kernel, Array, f32, global_id


@kernel(workgroup_size=64)
def copy(src: Array[f32], dst: Array[f32]):
    i = global_id().x
    dst[i] = src[i]

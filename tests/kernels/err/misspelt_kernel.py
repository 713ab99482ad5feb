from spirthon import Array, f32, global_id
from spirthon import kernel as _unused  # imported, then misspelt below


@kernal(workgroup_size=8)
def scale(x: Array[f32]):
    x[global_id().x] *= 2.0

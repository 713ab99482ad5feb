# A module's constant tuple as the workgroup size, with an item that is no size: the error
# is at the name, and says which item.
from spirthon import kernel, Array, f32, global_id

WG = (4, 0)


@kernel(workgroup_size=WG)
def k(a: Array[f32]):
    a[global_id().x] = 1.0

"""Arrays have no .shape in this version; len() gives the element count."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    C[i] = C.shape[0]

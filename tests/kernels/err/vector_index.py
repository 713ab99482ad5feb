"""A vector is indexed with a constant in range (negative ones count from the end)."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    C[i] = float(global_id()[i]) + float(global_id()[3]) + float(global_id()[-4])

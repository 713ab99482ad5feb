"""A vector is indexed with an int: a constant in range (negative ones count from the end),
or an `i32` or `u32` computed at run time."""
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def k(C: Array[f32]):
    i = global_id().x
    x = C[i]
    C[i] = float(global_id()[i]) + float(global_id()[3]) + float(global_id()[-4])
    C[i] += float(global_id()[x]) + float(global_id()[i > 2]) + float(global_id()[True])

"""Float // and % by Python's definitions (the result of % takes the divisor's sign)."""
from spirthon import kernel, Array, f32, global_id


@kernel
def floordiv_mod_float(a: Array[f32], b: Array[f32], q: Array[f32], r: Array[f32]):
    i = global_id().x
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]

"""An i64 indexes a vector, a constant tuple, a local array and a buffer as an int does (its
value clamped to the i32 range first, so one past it stays out of range)."""
from spirthon import kernel, Array, i64, f32, vec3, global_id, local_array

T = (1.5, 2.5, 3.5)

@kernel
def k(a: Array[i64], out: Array[f32]):
    i = global_id().x
    v = vec3(1.0, 2.0, 3.0)
    loc = local_array(f32, 4)
    loc[a[i] % 4] = 7.0
    out[i] = a[a[i] % i64(len(a))] + v[a[i] % 3] + T[a[i] % 3] + loc[a[i] % 4]

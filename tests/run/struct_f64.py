"""An Array of a struct with f64 fields: each at a multiple of 8 bytes (the element 40
bytes, 8-aligned), read and written with its own type beside i32, f32 and bool fields."""
from spirthon import kernel, struct, Array, f32, f64, i32, vec2, global_id

@struct
class Acc:
    n: i32
    sum: f64
    w: f32
    mean: f64
    flag: bool

@kernel
def k(a: Array[Acc], x: Array[f64]):
    i = global_id().x
    s = a[i]
    s.sum += x[i] * f64(0.1)
    s.n += 1
    s.mean = s.sum / f64(s.n)
    s.flag = s.mean > f64(1.0)
    a[i] = s
    a[i].w = f32(s.mean)

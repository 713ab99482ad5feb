"""Where Python and C disagree: floor division, modulo, rounding and int/float results."""
import math

from spirthon import kernel, Array, f32, i32, global_id


@kernel
def pymath(a: Array[i32], b: Array[i32], fa: Array[f32], fb: Array[f32],
           idiv: Array[i32], imod: Array[i32], fdiv: Array[f32], fmod: Array[f32],
           tdiv: Array[f32], rounded: Array[i32], floors: Array[i32]):
    i = global_id().x
    x = a[i]
    y = b[i]
    idiv[i] = x // y
    imod[i] = x % y
    fdiv[i] = fa[i] // fb[i]
    fmod[i] = fa[i] % fb[i]
    tdiv[i] = x / y
    rounded[i] = round(fa[i])
    floors[i] = math.floor(fa[i]) + math.ceil(fb[i])

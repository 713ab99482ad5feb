"""An index written as a constant counts from the end, as in Python, where the length is
known at compile time: a constant tuple (`W[-1]`, `W[-K]` with a module constant) and an
array's `.shape` (`A.shape[-1]`, as in NumPy). Arrays' element indices do not wrap."""
from spirthon import kernel, Array, Array2D, f32, i32, global_id

W = (0.5, 1.5, -2.0, 4.0)
K = 2
LAST = W[-1] * 2.0


@kernel
def ends(a: Array2D[f32], out: Array[f32], dims: Array[i32]):
    i = global_id().x
    out[i] = W[-1] + W[-K] * W[-len(W)] + LAST + a[i % a.shape[0], a.shape[-1] - 1]
    if i == 0:
        dims[0] = a.shape[-1]
        dims[1] = a.shape[-2]

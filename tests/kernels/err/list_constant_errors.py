"""A module list is a constant table: a kernel cannot write into it, and a row (or any
tuple value) is indexed with a constant."""
from spirthon import kernel, Array, f32, i32, global_id

W = [0.25, 0.5, 0.25]
C = [(0, 1), (1, 0)]


@kernel
def k(x: Array[f32], out: Array[i32]):
    i = global_id().x
    W[0] = x[i]
    out[i] = C[i % 2][i % 2]
    out[i] += C[0][2]

"""A kernel written as Numba-CUDA users write it: no annotations at all; the run JSON gives
its types (a launch from Python takes them from the arguments)."""

from spirthon import kernel, global_id


@kernel
def axpy(a, x, y, out):
    i = global_id().x
    if i < len(out):
        out[i] = a * x[i] + y[i]

"""y = a * x + y, the classic BLAS level-1 kernel."""
from spirthon import kernel, func, Array, f32, global_id


@func
def axpy(a: f32, x: f32, y: f32) -> f32:
    return a * x + y


@kernel(workgroup_size=64)
def saxpy(a: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = axpy(a, x[i], y[i])

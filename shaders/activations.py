"""Several element-wise kernels in one file: each is its own entry point."""
import math

from spirthon import kernel, func, Array, f32, global_id


@func
def sigmoid(x: f32) -> f32:
    return 1.0 / (1.0 + math.exp(-x))


@kernel
def relu(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = max(x[i], 0.0)


@kernel
def logistic(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = sigmoid(x[i])


@kernel
def gelu(x: Array[f32], out: Array[f32]):
    i = global_id().x
    v = x[i]
    out[i] = 0.5 * v * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))

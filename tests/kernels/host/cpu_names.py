import numpy as np
from numpy import float32
from spirthon import Array, f32, global_id, kernel, set_device


@kernel
def uses_cpu_names(x: Array[f32]):
    i = global_id().x
    x[i] = np.sqrt(x[i])
    x[i] = float32(x[i])
    set_device("python")
    x[i] = np

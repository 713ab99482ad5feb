"""atomic_add on Array[f32] (the device feature shaderBufferFloat32AtomicAdd; lavapipe has it):
sums of binary-exact values, so the order of the additions does not matter."""
from spirthon import kernel, Array, f32, i32, global_id, atomic_add

@kernel
def fsum(x: Array[f32], total: Array[f32], bins: Array[f32]):
    i = global_id().x
    atomic_add(total, 0, x[i])
    old = atomic_add(bins, i % 4, 0.5)

"""A file that ends right after `def k():` needs an indented block."""
from spirthon import kernel, func, Array, f32, i32, global_id
@kernel
def k(C: Array[f32]):
"""Vector arithmetic is not in this version: a clear error, not an invalid module."""
from spirthon import *
@kernel
def k(C: Array[i32]):
    v = -global_id()
    C[0] = v.x
    C[1] = (local_id() - 1).x

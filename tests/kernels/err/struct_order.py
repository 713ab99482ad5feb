# A struct used before its declaration, and one that holds itself.
from spirthon import kernel, struct, Array, f32, vec3

@struct
class A:
    b: B
    c: A

@struct
class B:
    x: f32

@kernel
def k(a: Array[B]):
    pass

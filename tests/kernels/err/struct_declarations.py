# Bad @struct declarations: bases, defaults, arrays as fields, methods, duplicates, f64 beside a narrow int in an Array of structs, a struct with errors used as a type.
from spirthon import kernel, struct, Array, f32, f64, i32, u8, vec3, global_id

@struct
class A(object):
    x: f32 = 1.0
    y: Array[f32]
    z: B
    def m(self):
        pass
    w = 3

@struct
class E:
    """docstring"""

@struct
class F:
    d: f64
    v: vec3
    b: u8

@struct
class G:
    x: f32
    x: i32

@kernel
def k(a: Array[F], g: G):
    pass


@struct
class H:
    __hidden: f32

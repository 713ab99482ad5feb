from spirthon import kernel, Array, f32
class C:
    @kernel
    def k(x: Array[f32]):
        x[0] = 1.0
if True:
    @kernel
    def k2(x: Array[f32]):
        x[0] = 1.0

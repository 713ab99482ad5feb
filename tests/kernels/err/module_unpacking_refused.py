# Module constants bound by an unpacking the compiler cannot take: of another number of
# values (CPython raises at import), or of a value that is not a constant tuple; and a
# constant tuple with an item that is no size as a shared array's shape.
from spirthon import kernel, Array, f32, shared_array

A, B = 1, 2, 3
C, D = range(2)
SHAPE = (2, 2.5)


@kernel
def k(a: Array[f32]):
    a[0] = f32(A + C)


@kernel
def tiles(a: Array[f32]):
    t = shared_array(f32, SHAPE)
    a[0] = 1.0

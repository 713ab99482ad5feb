"""The kernel language's scalar types under CPython.

``i32``, ``u32``, ``f32`` and ``f64`` are conversions, as in kernels: ``i32(x)`` truncates a
float toward zero and wraps to 32 bits, ``u32(x)`` wraps, ``f32(x)`` rounds to the nearest
float32, ``f64(x)`` is Python's ``float(x)``, ``f16(x)`` rounds to the nearest half (NumPy's
``float16``), and ``i8 u8 i16 u16 i64 u64`` wrap to their width
as NumPy's ``int8 uint8 int16 uint16 int64 uint64`` do;
each gives a value that computes in its type (``spirthon.scalars``). Vectors are
``spirthon.vectors``, arrays ``spirthon.arrays``, both built on these.
"""

import math

from .scalars import F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, WRAPS, LitF, i2f32, r16, r32


class _Scalar:
    """A scalar type: callable as a conversion, printable by its name."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __call__(self, value):
        return convert(self, value)


i32 = _Scalar("i32")
u32 = _Scalar("u32")
f32 = _Scalar("f32")
f64 = _Scalar("f64")
i8 = _Scalar("i8")
u8 = _Scalar("u8")
i16 = _Scalar("i16")
u16 = _Scalar("u16")
i64 = _Scalar("i64")
u64 = _Scalar("u64")
f16 = _Scalar("f16")

# Each scalar type as a buffer holds it (little-endian): its `struct` module code and its
# NumPy dtype's name.
STORAGE = {f32: ("f", "float32"), f64: ("d", "float64"), f16: ("e", "float16"),
           i32: ("i", "int32"), u32: ("I", "uint32"), i8: ("b", "int8"), u8: ("B", "uint8"),
           i16: ("h", "int16"), u16: ("H", "uint16"), i64: ("q", "int64"), u64: ("Q", "uint64")}

# Every int type: the class of its values, and its range.
INTS = {i32: I32, u32: U32, i8: I8, u8: U8, i16: I16, u16: U16, i64: I64, u64: U64}
INT_RANGES = {i32: (-(2 ** 31), 2 ** 31 - 1), u32: (0, 2 ** 32 - 1), i8: (-128, 127),
              u8: (0, 255), i16: (-(2 ** 15), 2 ** 15 - 1), u16: (0, 2 ** 16 - 1),
              i64: (-(2 ** 63), 2 ** 63 - 1), u64: (0, 2 ** 64 - 1)}


def to_f32(value):
    """The float32 nearest to ``value``, as a Python float (inf when out of range); an int
    rounded once, as the device converts it."""
    if isinstance(value, int) and not isinstance(value, bool):
        return i2f32(value)
    return r32(float(value))


def convert(ty, value):
    """``value`` as a ``ty`` the way a kernel stores it: an ``F32``, ``F64``, ``I32``, ``U8``,
    … (see ``spirthon.scalars``), which compute as the kernel's types do."""
    if ty is f32:
        return F32(to_f32(value))
    if ty is f64:
        return F64(float(value))
    if ty is f16:
        if type(value) is F64:
            raise TypeError("f16() of an f64 would round twice on the GPU: write f16(f32(x))")
        # An f32 (or an int) first, then to half, as the device converts.
        return F16(r16(value if type(value) in (F16, LitF, float) else to_f32(value)))
    if isinstance(value, float):
        value = math.trunc(value)
    cls = INTS.get(ty)
    if cls is not None:
        return cls(WRAPS[cls](int(value)))
    raise TypeError("not a scalar type: %r" % (ty,))

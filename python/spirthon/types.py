"""The kernel language's types under CPython.

``i32``, ``u32`` and ``f32`` are conversions, as in kernels: ``i32(x)`` truncates a float
toward zero and wraps to 32 bits, ``u32(x)`` wraps, ``f32(x)`` rounds to the nearest float32.
``Array[T]`` is the parameter annotation; ``Array(T, values)`` is a buffer whose elements are
stored as ``T`` (f32 rounded to float32, i32/u32 wrapped; a vector element component by
component), with Python's ``IndexError`` for any index outside ``0 <= i < len`` (negative
indices do not wrap around). An array of vectors holds values: reading an element gives a
copy, so change it and store it back (``v = a[i]; v.x = 0.0; a[i] = v``), as in kernels.
"""

import math
import struct

_F32 = struct.Struct("<f")


def _wrap(value, bits=32, signed=True):
    value = int(value) & ((1 << bits) - 1)
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


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


def to_f32(value):
    """The float32 nearest to ``value``, as a Python float (inf when out of range)."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return _F32.unpack(_F32.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def convert(ty, value):
    """``value`` as a ``ty`` the way a kernel stores it."""
    if ty is f32:
        return to_f32(value)
    if isinstance(value, float):
        value = math.trunc(value)
    if ty is i32:
        return _wrap(value, signed=True)
    if ty is u32:
        return _wrap(value, signed=False)
    raise TypeError("not a scalar type: %r" % (ty,))


class _ArrayType:
    """``Array[T]`` in an annotation."""

    def __init__(self, elem):
        self.elem = elem

    def __repr__(self):
        return "Array[%r]" % (self.elem,)


class _ArrayMeta(type):
    def __getitem__(cls, elem):
        if isinstance(elem, VectorType) and elem.size != 3:
            return _ArrayType(elem)
        if elem not in (i32, u32, f32):
            raise TypeError("an Array element must be i32, u32, f32 or a 2- or 4-component vector, not %r" % (elem,))
        return _ArrayType(elem)


def element(elem, value):
    """``value`` as an element of an ``Array(elem)``: a number converted, or a vector (or a
    list of its components) copied with each component stored as the component type."""
    if not isinstance(elem, VectorType):
        if isinstance(value, Vector):
            raise TypeError("cannot store a %s into an Array[%r]" % (value.type.name, elem))
        return convert(elem, value)
    if isinstance(value, Vector):
        if value.type is not elem:
            raise TypeError("cannot store a %s into an Array[%s]" % (value.type.name, elem.name))
        comps = value.tolist()
    elif isinstance(value, (list, tuple)) and len(value) == elem.size:
        comps = list(value)
    else:
        raise TypeError("an element of an Array[%s] is a %s, not %r" % (elem.name, elem.name, value))
    scalar = f32 if elem.scalar is float else elem.scalar
    return Vector(elem, [convert(scalar, c) for c in comps])


class Array(metaclass=_ArrayMeta):
    """A storage buffer: ``Array(f32, [1.0, 2.0])`` or ``Array(i32, 16)`` (zeros)."""

    __slots__ = ("elem", "_data", "name")

    def __init__(self, elem, values, name=None):
        self.elem = elem
        self.name = name
        if isinstance(values, int):
            zero = [0] * elem.size if isinstance(elem, VectorType) else 0
            values = [zero] * values
        self._data = [element(elem, v) for v in values]

    def __len__(self):
        return len(self._data)

    def _check(self, index):
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("array indices must be integers, not %s" % type(index).__name__)
        if not 0 <= index < len(self._data):
            label = " for %r" % self.name if self.name else ""
            raise IndexError("index %d out of range%s (len %d)" % (index, label, len(self._data)))

    def __getitem__(self, index):
        self._check(index)
        value = self._data[index]
        return Vector(value.type, value.tolist()) if isinstance(value, Vector) else value

    def __setitem__(self, index, value):
        self._check(index)
        if self.elem in (i32, u32) and isinstance(value, float):
            raise TypeError("cannot store a float into an Array[%r]: use int()" % (self.elem,))
        self._data[index] = element(self.elem, value)

    def tolist(self):
        return [v.tolist() if isinstance(v, Vector) else v for v in self._data]

    def __iter__(self):
        raise TypeError("kernels index arrays one element at a time")

    def __repr__(self):
        return "Array(%r, %r)" % (self.elem, self._data)


from .vectors import Vector, VectorType  # noqa: E402 (vectors uses the scalar types above)

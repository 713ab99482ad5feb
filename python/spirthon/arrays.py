"""The kernel language's arrays under CPython.

``Array[T]`` is the parameter annotation; ``Array(T, values)`` is a buffer whose elements are
stored as ``T`` (f32 rounded to float32, i32/u32 wrapped; a vector element component by
component), with Python's ``IndexError`` for any index outside ``0 <= i < len`` (negative
indices do not wrap around). An array of vectors holds values: reading an element gives a
copy, so change it and store it back (``v = a[i]; v.x = 0.0; a[i] = v``), as in kernels.
"""

import typing

from .scalars import I32, index_text
from .types import convert, f16, f32, f64, i32, u32, i8, u8, i16, u16, i64, u64
from .matrices import Matrix, MatrixType
from . import structs
from .structs import Struct, StructType
from .vectors import Vector, VectorType


class _ArrayType:
    """``Array[T]``, ``Array2D[T]`` or ``Array3D[T]`` in an annotation."""

    def __init__(self, elem, dims=1):
        self.elem = elem
        self.dims = dims

    def __repr__(self):
        return "%s[%r]" % (_KIND[self.dims], self.elem)


_KIND = {1: "Array", 2: "Array2D", 3: "Array3D"}


def _array_type(elem, dims):
    # ``float`` and ``int`` are ``f32`` and ``i32`` in annotations, as for scalars.
    elem = f32 if elem is float else i32 if elem is int else elem
    if elem is typing.Any or isinstance(elem, typing.TypeVar):
        return _ArrayType(elem, dims)  # generic (spirthon.generic)
    if isinstance(elem, (VectorType, MatrixType, StructType)):
        return _ArrayType(elem, dims)
    if elem not in (i32, u32, f32, f64, f16, i8, u8, i16, u16, i64, u64):
        raise TypeError("an %s element must be a number type (i32, u32, f32, f64, f16, i8, u8, i16, u16, i64, u64) or a vector, not %r" % (_KIND[dims], elem))
    return _ArrayType(elem, dims)


class _ArrayMeta(type):
    def __getitem__(cls, elem):
        return _array_type(elem, 1)


class _Array2DMeta(type):
    def __getitem__(cls, elem):
        return _array_type(elem, 2)


class _Array3DMeta(type):
    def __getitem__(cls, elem):
        return _array_type(elem, 3)


class Array2D(metaclass=_Array2DMeta):
    """``Array2D[T]``: a row-major two-dimensional array parameter (an ``Array`` with a
    two-int ``shape`` under CPython), indexed ``a[i, j]``."""


class Array3D(metaclass=_Array3DMeta):
    """``Array3D[T]``: a row-major three-dimensional array parameter, indexed ``a[i, j, k]``."""


# The element types whose arrays have gradients (``spirthon.Tape``; autodiff's ``DIFF``).
GRADIENT_TYPES = ("f32", "f64", "vec2", "vec3", "vec4", "dvec2", "dvec3", "dvec4", "quat", "mat22", "mat33", "mat44",
                  "dmat22", "dmat33", "dmat44")


def has_gradient(elem):
    """Whether an array of ``elem`` has a gradient: a float type of ``GRADIENT_TYPES``, or
    a struct with a field of one but ``f64`` and its vectors (nested structs' too; its
    other fields' gradients stay zero)."""
    if isinstance(elem, StructType):
        # (an f64 field's gradient has no place in the struct's flat f32 adjoint)
        return any(getattr(t, "name", None) in GRADIENT_TYPES and not t.name.startswith(("f64", "dvec", "dmat"))
                   for _, t, _ in structs.leaf_offsets(elem))
    return getattr(elem, "name", None) in GRADIENT_TYPES


def element(elem, value):
    """``value`` as an element of an ``Array(elem)``: a number converted, or a vector (or a
    list of its components) copied with each component stored as the component type; a
    matrix (or a list of its entries, flat or as rows) copied likewise; a struct copied (or
    made from a mapping of its fields, or a NumPy record)."""
    if isinstance(elem, StructType):
        if type(value) is elem:
            return structs.copy(value)
        if isinstance(value, Struct):
            raise TypeError("cannot store a %s into an Array[%s]" % (type(value).__name__, elem.__name__))
        if isinstance(value, dict) or hasattr(value, "dtype"):
            return structs.from_values(elem, value)
        raise TypeError("an element of an Array[%s] is a %s, not %r" % (elem.__name__, elem.__name__, value))
    if isinstance(elem, MatrixType):
        if isinstance(value, Matrix):
            if value.type is not elem:
                raise TypeError("cannot store a %s into an Array[%s]" % (value.type.name, elem.name))
            return elem(value)
        if isinstance(value, (list, tuple)) and len(value) == elem.n and all(isinstance(r, (list, tuple)) for r in value):
            value = [x for r in value for x in r]
        if isinstance(value, (list, tuple)) and len(value) == elem.size:
            return elem(*value)
        raise TypeError("an element of an Array[%s] is a %s, not %r" % (elem.name, elem.name, value))
    if not isinstance(elem, VectorType):
        if isinstance(value, (Vector, Matrix)):
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


def copied(value):
    """``value`` as kernels pass it on: a vector or matrix copied (it is a value there), a
    number as it is."""
    if isinstance(value, Vector):
        return Vector(value.type, value.tolist())
    if isinstance(value, Matrix):
        return value.type(value)
    if isinstance(value, Struct):
        return structs.copy(value)
    return value


class Array(metaclass=_ArrayMeta):
    """A storage buffer: ``Array(f32, [1.0, 2.0])`` or ``Array(i32, 16)`` (zeros); with
    ``shape=(h, w)`` (or three ints) a row-major multi-dimensional one, ``values`` flat (or
    omitted for zeros), indexed ``a[i, j]``, with ``a.shape`` and ``len(a) == h``."""

    __slots__ = ("elem", "_data", "name", "shape")

    def __init__(self, elem, values=None, name=None, shape=None):
        self.elem = elem = f32 if elem is float else i32 if elem is int else elem
        self.name = name
        if values is None or isinstance(values, int):
            n = values if shape is None else _product(shape)
            if isinstance(elem, StructType):
                values = [elem() for _ in range(n)]
            else:
                zero = [0] * elem.size if isinstance(elem, (VectorType, MatrixType)) else 0
                values = [zero] * n
        self._data = [element(elem, v) for v in values]
        self.shape = tuple(I32(s) for s in ((len(self._data),) if shape is None else shape))
        if _product(self.shape) != len(self._data):
            raise ValueError("%d values do not fill the shape %r" % (len(self._data), self.shape))

    @property
    def dims(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0]

    def _flat(self, index):
        parts = index if isinstance(index, tuple) else (index,)
        if len(parts) != len(self.shape):
            raise IndexError("%s has %d dimensions, but %d indices were given" % (self._label() or "the array", len(self.shape), len(parts)))
        flat = 0
        for axis, (i, n) in enumerate(zip(parts, self.shape)):
            if isinstance(i, bool) or not isinstance(i, int):
                raise TypeError("array indices must be integers, not %s" % type(i).__name__)
            # An index is an i32 or a u32 (or a literal): its value indexes, as on the GPU.
            i, n = int(i), int(n)
            if not 0 <= i < n:
                raise IndexError(self._out_of_range(i, n, axis))
            flat = flat * n + i
        return flat

    def _out_of_range(self, i, n, axis):
        """The message of checked mode (the compiled kernel's words, in spirthon_ir::checks)."""
        of = ""
        if self.name:
            of = " for axis %d of %s" % (axis, self._label()) if len(self.shape) > 1 else " for %s" % self._label()
        wrap = "; negative indices do not wrap" if i < 0 else ""
        return "index %s out of range%s (len %d%s)" % (index_text(i), of, n, wrap)

    def _label(self):
        return repr(self.name) if self.name else ""

    def __getitem__(self, index):
        v = self._data[self._flat(index)]
        # A struct element is the element itself, so that `a[i].mass = m` changes it; a
        # kernel copies it where it becomes a value (a name, an argument, a stored element).
        return v if isinstance(v, Struct) else copied(v)

    def __setitem__(self, index, value):
        flat = self._flat(index)
        if self.elem in (i32, u32) and isinstance(value, float):
            raise TypeError("cannot store a float into an Array[%r]: use int()" % (self.elem,))
        self._data[flat] = element(self.elem, value)

    def tolist(self):
        """The elements (vectors as lists), nested by the shape."""
        return _nest([structs.to_dict(v) if isinstance(v, Struct) else v.tolist() if isinstance(v, (Vector, Matrix)) else v for v in self._data], self.shape)

    def __iter__(self):
        raise TypeError("kernels index arrays one element at a time")

    def __repr__(self):
        if len(self.shape) > 1:
            return "Array(%r, %r, shape=%r)" % (self.elem, self._data, self.shape)
        return "Array(%r, %r)" % (self.elem, self._data)


def _product(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _nest(flat, shape):
    """``flat`` as nested lists of ``shape``, row-major."""
    if len(shape) <= 1:
        return flat
    inner = _product(shape[1:])
    return [_nest(flat[k * inner:(k + 1) * inner], shape[1:]) for k in range(shape[0])]


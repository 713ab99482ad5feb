"""Structs: ``@struct`` classes under CPython, with the layout the compiler gives them.

::

    @struct
    class Particle:
        pos: vec3
        vel: vec3
        mass: f32

``Particle(pos=..., mass=1.0)`` builds one (by position in declaration order or by keyword;
a field not given is zero, ``False`` for a bool); ``p.vel.y = 0.0`` changes a field in
place; assigning a field converts the value to its type as kernels do. A struct is a value in
kernels: the reference executor copies one where a kernel would (assignment to a name, a
func's arguments and result, an array element stored or read into a name), so ``q = p`` then
``q.mass = 0.0`` leaves ``p`` as it was.

``Particle.numpy_dtype`` is the NumPy structured dtype whose bytes are an ``Array[Particle]``
element's, field for field: each leaf (a number, a vector's components, a matrix's rows, a
nested struct's leaves) at the next multiple of its scalar's size (a bool is a 4-byte
``uint32``, 0 or 1), a nested struct at its own alignment, the size rounded up to the largest
alignment and to 4 bytes (docs/language.md, "Structs").
"""

import struct as _struct

from .matrices import Matrix, MatrixType
from .types import INTS, STORAGE, convert, f32, i32, _Scalar
from .vectors import Vector, VectorType

# Each scalar's ``struct`` module code in a buffer (a bool is a ``u32`` word, 0 or 1); its
# NumPy dtype is the little-endian one of the same code.
_CODES = {t: code for t, (code, _) in STORAGE.items()}
_CODES[bool] = "I"


class Layout:
    """A struct's fields and element layout (``S.__spirthon__``): every name a field can
    have stays the user's (a field may be called ``size`` or ``tolist``)."""

    __slots__ = ("fields", "types", "offsets", "size", "align", "format", "dtype")

    def __init__(self, fields, offsets, size, align, fmt):
        self.fields, self.types, self.offsets = tuple(fields), dict(fields), tuple(offsets)
        self.size, self.align, self.format, self.dtype = size, align, fmt, None


class StructType(type):
    """The type of a ``@struct`` class."""

    def __repr__(cls):
        return cls.__name__

    @property
    def numpy_dtype(cls):
        """The NumPy structured dtype of an ``Array[S]`` element, byte for byte."""
        lay = cls.__spirthon__
        if lay.dtype is None:
            import numpy as np
            names, formats, offsets = [], [], []
            for name, t, offset in lay.offsets:
                names.append(name)
                offsets.append(offset)
                if isinstance(t, StructType):
                    formats.append(t.numpy_dtype)
                else:
                    scalar, shape = scalar_and_axes(t)
                    code = "<" + _CODES[scalar]
                    formats.append((code, shape) if shape else code)
            lay.dtype = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": lay.size})
        return lay.dtype


def layout(cls):
    """A struct class's ``Layout``."""
    return cls.__spirthon__


def leaves(cls):
    """Every leaf as ``(path, type)``, in layout order (``"vel"``, ``"inner.x"``): a struct
    parameter's uniform fields, named ``param.path``."""
    return [(p, t) for p, t, _ in leaf_offsets(cls)]


def leaf_offsets(cls):
    """Every leaf as ``(path, type, byte offset)`` in an array element."""
    out = []
    for name, t, offset in cls.__spirthon__.offsets:
        if isinstance(t, StructType):
            out.extend(("%s.%s" % (name, p), lt, offset + o) for p, lt, o in leaf_offsets(t))
        else:
            out.append((name, t, offset))
    return out


def from_values(cls, obj):
    """A struct from a mapping of its fields (every field, no other key) or a NumPy record
    (``a[i]`` of a structured array), nested ones too."""
    lay = cls.__spirthon__
    if isinstance(obj, dict):
        for k in obj:
            if k not in lay.types:
                raise TypeError("struct %s has no field %r" % (cls.__name__, k))
        for name, _ in lay.fields:
            if name not in obj:
                raise TypeError("field %r of %s is missing" % (name, cls.__name__))
    out = cls()
    for name, t in lay.fields:
        v = obj[name]
        if isinstance(t, StructType):
            v = from_values(t, v)
        elif t is bool:
            v = bool(v)  # a NumPy record holds it as a uint32
        elif hasattr(v, "tolist"):
            v = v.tolist()
        setattr(out, name, v)
    return out


def scalar_and_axes(t):
    """An element type's scalar and the NumPy axes of its components (``()`` for a number
    or a struct)."""
    if isinstance(t, MatrixType):
        return (f32 if t.scalar is float else t.scalar), (t.n, t.n)
    if isinstance(t, VectorType):
        return (f32 if t.scalar is float else t.scalar), (t.size,)
    return t, ()


class Struct:
    """The base of ``@struct`` classes. Its instances have their fields and Python's
    dunders only; the library's helpers are this module's functions."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        cls = type(self)
        lay = cls.__spirthon__
        if len(args) > len(lay.fields):
            raise TypeError("struct %s has %d fields, but %d values are given" % (cls.__name__, len(lay.fields), len(args)))
        given = {name: v for (name, _), v in zip(lay.fields, args)}
        for k, v in kwargs.items():
            if k not in lay.types:
                raise TypeError("struct %s has no field %r" % (cls.__name__, k))
            if k in given:
                raise TypeError("field %r of %s is given twice" % (k, cls.__name__))
            given[k] = v
        for name, t in lay.fields:
            object.__setattr__(self, name, _field_value(cls, name, t, given[name]) if name in given else _zero(t))

    def __setattr__(self, name, value):
        cls = type(self)
        t = cls.__spirthon__.types.get(name)
        if t is None:
            raise AttributeError("struct %s has no field %r" % (cls.__name__, name))
        object.__setattr__(self, name, _field_value(cls, name, t, value))

    def __repr__(self):
        fields = type(self).__spirthon__.fields
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n, _ in fields))

    def __eq__(self, other):
        return type(other) is type(self) and flat(self) == flat(other)

    __hash__ = None

    def __copy__(self):
        return copy(self)

    def __deepcopy__(self, memo):
        return copy(self)


def copy(s):
    """A copy of struct ``s``, fields and all (a struct is a value in kernels)."""
    new = object.__new__(type(s))
    for name, _ in type(s).__spirthon__.fields:
        v = getattr(s, name)
        if isinstance(v, Struct):
            v = copy(v)
        elif isinstance(v, Vector):
            v = Vector(v.type, v.tolist())
        elif isinstance(v, Matrix):
            v = v.type(v)
        object.__setattr__(new, name, v)
    return new


def flat(s):
    """The leaves' numbers of struct ``s`` in layout order (a bool as 0 or 1)."""
    out = []
    for name, _ in type(s).__spirthon__.fields:
        v = getattr(s, name)
        if isinstance(v, Struct):
            out.extend(flat(v))
        elif isinstance(v, Matrix):
            out.extend(x for row in v.tolist() for x in row)
        elif isinstance(v, Vector):
            out.extend(v.tolist())
        else:
            out.append(int(v) if isinstance(v, bool) else v)
    return out


def pack(s):
    """The bytes of struct ``s`` as an ``Array[S]`` element (padding zero)."""
    return _struct.pack(type(s).__spirthon__.format, *flat(s))


def unpack(cls, data, offset=0):
    """The struct whose element bytes start at ``offset`` of ``data``."""
    return from_flat(cls, list(_struct.unpack_from(cls.__spirthon__.format, data, offset)))


def from_flat(cls, numbers):
    """The struct of the leaves' numbers ``numbers`` (consumed from the front)."""
    out = object.__new__(cls)
    for name, t in cls.__spirthon__.fields:
        if isinstance(t, StructType):
            v = from_flat(t, numbers)
        elif t is bool:
            v = bool(numbers.pop(0))
        else:
            scalar, shape = scalar_and_axes(t)
            n = 1
            for k in shape:
                n *= k
            items, numbers[:n] = numbers[:n], []
            v = t(*items) if shape else convert(scalar, items[0])
        object.__setattr__(out, name, v)
    return out


def to_dict(s):
    """The fields of struct ``s`` as a dict (vectors as lists, nested structs as dicts), as
    the run JSON prints an element."""
    out = {}
    for name, _ in type(s).__spirthon__.fields:
        v = getattr(s, name)
        out[name] = to_dict(v) if isinstance(v, Struct) else v.tolist() if isinstance(v, (Vector, Matrix)) else v
    return out


def _zero(t):
    if isinstance(t, StructType):
        return t()
    if t is bool:
        return False
    if isinstance(t, MatrixType):
        return t(*[0] * t.size)
    if isinstance(t, VectorType):
        return t(0)
    return convert(t, 0)


def _field_value(cls, name, t, value):
    """``value`` as field ``name`` (of type ``t``) of struct ``cls``: converted as an
    assignment in a kernel converts it, a vector or struct copied."""
    if isinstance(t, StructType):
        if type(value) is not t:
            raise TypeError("field %r of %s is a %s, not %r" % (name, cls.__name__, t.__name__, value))
        return copy(value)
    if t is bool:
        if not isinstance(value, bool) and type(value).__name__ != "bool_":
            raise TypeError("field %r of %s is a bool, not %r" % (name, cls.__name__, value))
        return bool(value)
    if isinstance(value, Struct):
        raise TypeError("field %r of %s is %r, not a %s" % (name, cls.__name__, t, type(value).__name__))
    if isinstance(t, (VectorType, MatrixType)):
        return _composite(cls, name, t, value)
    if isinstance(value, (Vector, Matrix)):
        raise TypeError("field %r of %s is %r, not a %s" % (name, cls.__name__, t, value.type.name))
    if t in INTS and isinstance(value, float):
        raise TypeError("field %r of %s is %r: a float cannot become an int implicitly (use int())" % (name, cls.__name__, t))
    return convert(t, value)


def _composite(cls, name, t, value):
    """A vector or matrix field's value: one of its type copied, or a list of its numbers (a
    matrix's flat or as rows)."""
    if isinstance(value, (Vector, Matrix)):
        if value.type is not t:
            raise TypeError("field %r of %s is %s, not %s" % (name, cls.__name__, t.with_article(), value.type.with_article()))
        return Vector(t, list(value._c)) if isinstance(value, Vector) else t(value)
    if isinstance(value, (list, tuple)):
        items = [x for r in value for x in r] if value and isinstance(value[0], (list, tuple)) else list(value)
        if len(items) == t.size:
            return t(*items)
    raise TypeError("field %r of %s is %s (%d numbers), not %r" % (name, cls.__name__, t.with_article(), t.size, value))


def _field_type(cls_name, name, ann, module_globals):
    """A field's annotation as its type."""
    if isinstance(ann, str):
        try:
            ann = eval(ann, module_globals)
        except Exception:
            raise TypeError("field %r of %s: cannot read the annotation %r" % (name, cls_name, ann)) from None
    ann = {float: f32, int: i32}.get(ann, ann)
    if isinstance(ann, (StructType, VectorType, MatrixType)) or ann is bool or (isinstance(ann, _Scalar) and ann in _CODES):
        return ann
    raise TypeError("field %r of %s: a field holds a number, a bool, a vector, a matrix, a quaternion or a struct, not %r" % (name, cls_name, ann))


def struct(cls):
    """``@struct``: a class of annotated fields as a value type kernels hold (see the module
    doc)."""
    import sys
    module_globals = getattr(sys.modules.get(cls.__module__), "__dict__", {})
    anns = cls.__dict__.get("__annotations__", {})
    if not anns:
        raise TypeError("struct %s has no fields: declare each with its type (pos: vec3)" % cls.__name__)
    fields = []
    for name, ann in anns.items():
        if name.startswith("_%s__" % cls.__name__.lstrip("_")) or name.startswith("__"):
            raise TypeError("struct %s: a field name does not start with two underscores (Python renames it inside the class)" % cls.__name__)
        fields.append((name, _field_type(cls.__name__, name, ann, module_globals)))
    offset, align, fmt, placed = 0, 1, "<", []
    for name, t in fields:
        if isinstance(t, StructType):
            inner = t.__spirthon__
            a, size, codes = inner.align, inner.size, inner.format[1:]
        else:
            scalar, shape = scalar_and_axes(t)
            code = _CODES[scalar]
            a = _struct.calcsize("<" + code)
            n = 1
            for k in shape:
                n *= k
            size, codes = a * n, code * n
        start = -(-offset // a) * a
        if start > offset:
            fmt += "%dx" % (start - offset)
        placed.append((name, t, start))
        fmt += codes
        offset = start + size
        align = max(align, a)
    size = -(-offset // max(align, 4)) * max(align, 4)
    if size > offset:
        fmt += "%dx" % (size - offset)
    ns = {
        "__slots__": tuple(name for name, _ in fields),
        "__doc__": cls.__doc__,
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__spirthon__": Layout(fields, placed, size, align, fmt),
    }
    return StructType(cls.__name__, (Struct,), ns)

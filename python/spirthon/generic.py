"""Generic kernels: parameters whose types come from each launch's arguments.

A kernel parameter without an annotation, or annotated ``typing.Any`` or a ``TypeVar`` (also
as ``Array[T]``, ``Array2D[Any]``), is generic (docs/language.md, "Generic kernels"). Its
*generic name* is the parameter's own (no annotation, ``Any``, ``Array[Any]``) or the type
variable's (one type for every parameter that uses it). A launch takes each name's type from
its argument (``types_of``), and the kernel runs as the specialization for those types, which
the compiler builds and the caches keep under them. The types travel as annotation text
(``"f32"``, ``"Array2D[u8]"``, ``"vec3"``, a struct's name), which ``parse`` reads back (the
run JSON's ``"types"``).

How an argument gives a type:

- a NumPy array, device array or ``Array``: for ``Array[T]`` (``dims`` dimensions) the
  element: its scalar for ``dims`` axes, a vector for one more of 2 to 4 (``(N, 3)`` float32 is
  ``vec3``), a matrix for two more square ones, a struct for a struct's ``numpy_dtype``; for a
  parameter that is wholly generic, ``Array``/``Array2D``/``Array3D`` of its scalar by its
  number of axes (a struct array's by its struct);
- ``bool`` a ``bool``, ``int`` an ``i32``, ``float`` an ``f32``, a NumPy scalar its dtype's type,
  a vector, matrix or struct value its type.
"""

import typing

from . import types as _types
from .arrays import _KIND, Array, _ArrayType
from .matrices import Matrix, MatrixType, dmat22, dmat33, dmat44, mat22, mat33, mat44
from .structs import Struct, StructType
from .vectors import TYPES as _VECTORS, Vector, VectorType, quat

_SCALARS = {t.name: t for t in (_types.i32, _types.u32, _types.f32, _types.f64, _types.f16, _types.i8,
                                 _types.u8, _types.i16, _types.u16, _types.i64, _types.u64)}
_MATRICES = {m.name: m for m in (mat22, mat33, mat44, dmat22, dmat33, dmat44)}
_NUMPY_NAMES = {name: t for t, (_, name) in _types.STORAGE.items()}


class Generic:
    """How a parameter is generic: its generic name and use: ``"whole"``, ``"elem"`` (of an
    array of ``dims`` dimensions) or ``"value"`` (``k: T``)."""

    __slots__ = ("var", "use", "dims")

    def __init__(self, var, use, dims=1):
        self.var, self.use, self.dims = var, use, dims


def _is_var(ann):
    return isinstance(ann, typing.TypeVar)


def generic(name, ann, annotated):
    """How parameter ``name`` (annotated ``ann`` when ``annotated``) is generic, or ``None``."""
    if not annotated or ann is typing.Any:
        return Generic(name, "whole")
    if _is_var(ann):
        return Generic(ann.__name__, "value")
    if isinstance(ann, _ArrayType) and (ann.elem is typing.Any or _is_var(ann.elem)):
        var = name if ann.elem is typing.Any else ann.elem.__name__
        return Generic(var, "elem", ann.dims)
    return None


def text(t):
    """The annotation text of a type (``Array2D[f32]``, ``vec3``, a struct's name)."""
    if isinstance(t, _ArrayType):
        return "%s[%s]" % (_KIND[t.dims], text(t.elem))
    if isinstance(t, (VectorType, MatrixType)):
        return t.name
    if isinstance(t, StructType):
        return t.__name__
    if t is bool:
        return "bool"
    return repr(t)


def parse(s, namespace):
    """The type an annotation text names: spirthon's names, or a struct class of
    ``namespace`` (the kernel's module) by its name."""
    s = s.strip()
    if s.endswith("]") and "[" in s:
        head, inner = s[:-1].split("[", 1)
        dims = {v: k for k, v in _KIND.items()}.get(head.strip())
        if dims is None:
            raise TypeError("`%s[...]` is no type" % head.strip())
        return _ArrayType(_element(parse(inner, namespace)), dims)
    found = {"int": _types.i32, "float": _types.f32, "bool": bool, "quat": quat}.get(s)
    found = found or _SCALARS.get(s) or _VECTORS.get(s) or _MATRICES.get(s)
    if found is None:
        cls = namespace.get(s)
        if isinstance(cls, StructType) and cls.__name__ == s:
            found = cls
    if found is None:
        raise TypeError("`%s` is no type of spirthon's or struct of the kernel's module" % s)
    return found


def _element(t):
    if isinstance(t, _ArrayType):
        raise TypeError("an array of arrays is no type")
    return t


def _scalar_named(numpy_name, where):
    t = _NUMPY_NAMES.get(numpy_name)
    if t is None:
        raise TypeError("%s: NumPy dtype %s is no element type of spirthon's" % (where, numpy_name))
    return t


def _vector(scalar, n, where):
    prefix = {_types.f32: "", _types.f64: "d", _types.i32: "i", _types.u32: "u"}.get(scalar)
    if prefix is None or not 2 <= n <= 4:
        raise TypeError("%s: a trailing axis of %d %s components is no vector type" % (where, n, scalar))
    return _VECTORS["%svec%d" % (prefix, n)]


def _struct_of(dtype, namespace, where):
    for v in namespace.values():
        if isinstance(v, StructType) and v.numpy_dtype == dtype:
            return v
    raise TypeError("%s: its structured dtype is no struct's numpy_dtype in the kernel's module" % where)


def _array_parts(value, where, namespace):
    """(scalar or struct, axes) of an array argument: the element's scalar and every axis of
    the NumPy view, or the element type itself and the array's dimensions."""
    if isinstance(value, Array):
        return value.elem, (None,) * value.dims, True
    elem = getattr(value, "elem", None)
    if elem is not None and hasattr(value, "shape") and not hasattr(value, "strides"):
        return elem, tuple(value.shape), True  # a device array: its own element type
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is None or shape is None:
        raise TypeError("%s: expected an array (NumPy, device or Array), not %r" % (where, type(value).__name__))
    if dtype.names is not None:
        return _struct_of(dtype, namespace, where), tuple(shape), True
    return _scalar_named(dtype.name, where), tuple(shape), False


def _elem_from(scalar, extra, where):
    """The element type of an array whose elements have ``extra`` trailing axes."""
    if not extra:
        return scalar
    if len(extra) == 1:
        return _vector(scalar, extra[0], where)
    if len(extra) == 2 and extra[0] == extra[1] and 2 <= extra[0] <= 4 and scalar in (_types.f32, _types.f64):
        return _MATRICES["%smat%d%d" % ("" if scalar is _types.f32 else "d", extra[0], extra[0])]
    raise TypeError("%s: trailing axes %s make no vector or matrix element" % (where, extra))


def _is_array(v):
    return isinstance(v, Array) or getattr(v, "shape", ()) != ()


def type_of(g, value, namespace, where):
    """The type that argument ``value`` gives generic parameter ``g``."""
    if g.use == "elem" or (g.use == "whole" and _is_array(value)):
        if not _is_array(value):
            raise TypeError("%s: expected an array for an %s[%s] parameter, not %r" % (where, _KIND[g.dims], g.var, type(value).__name__))
        elem, shape, whole = _array_parts(value, where, namespace)
        if g.use == "whole":
            dims = len(shape)
            if not 1 <= dims <= 3:
                raise TypeError("%s: an array of %d dimensions (spirthon's have 1 to 3)" % (where, dims))
            return _ArrayType(elem, dims)
        if whole:
            if len(shape) != g.dims:
                raise TypeError("%s: an %s parameter takes %d dimensions, not %d" % (where, _KIND[g.dims], g.dims, len(shape)))
            return elem
        if len(shape) < g.dims:
            raise TypeError("%s: an %s parameter takes %d dimensions, not %d" % (where, _KIND[g.dims], g.dims, len(shape)))
        return _elem_from(elem, shape[g.dims:], where)
    if isinstance(value, bool):
        return bool
    if isinstance(value, Vector):
        return value.type
    if isinstance(value, Matrix):
        return value.type
    if isinstance(value, Struct):
        return type(value)
    dtype = getattr(value, "dtype", None)
    if dtype is not None and getattr(value, "shape", None) == ():
        if dtype.kind == "b":
            return bool
        return _scalar_named(dtype.name, where)
    if isinstance(value, int):
        return _types.i32
    if isinstance(value, float):
        return _types.f32
    raise TypeError("%s: cannot take a type from %r" % (where, type(value).__name__))


def types_of(params, values, namespace, kernel):
    """Each generic name's type (in the order of first use) from the arguments, as
    ``(name, type)`` pairs; ``TypeError`` when one name gets two types."""
    out = {}
    given = {}
    for p, v in zip(params, values):
        g = p.generic
        if g is None:
            continue
        t = type_of(g, v, namespace, "argument %r of kernel %s" % (p.name, kernel))
        if g.var in out and text(out[g.var]) != text(t):
            raise TypeError(
                "kernel %s: generic %s is %s from argument %r but %s from argument %r; "
                "one TypeVar takes one type" % (kernel, g.var, text(out[g.var]), given[g.var], text(t), p.name))
        out.setdefault(g.var, t)
        given.setdefault(g.var, p.name)
    return list(out.items())


def annotation(g, t):
    """The concrete annotation of a generic parameter whose name has type ``t``."""
    if g.use == "elem":
        if isinstance(t, _ArrayType):
            raise TypeError("%s is an array's element type here: give the element, not %s" % (g.var, text(t)))
        return _ArrayType(t, g.dims)
    if g.use == "value" and isinstance(t, _ArrayType):
        raise TypeError("%s is a value's type here, not an array" % g.var)
    return t


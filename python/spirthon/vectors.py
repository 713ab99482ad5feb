"""Vectors under CPython: ``vec2 vec3 vec4`` (float32s), ``dvec2..4`` (float64s),
``ivec2..4`` and ``uvec2..4`` (ints), the other widths by their scalar's name (``i8vec4``,
``u8vec4``, ``i16vec2``, ``u16vec2``, ``i64vec3``, ``u64vec3``, ``f16vec3``, each component
computing as its scalar does), and spirthon's vector and shading functions.

A vector type is callable as a constructor, as in kernels: ``vec3(x, y, z)``, ``vec3(v2, z)``
(the components of the arguments in order), ``vec3(1.0)`` (one number in every component) and
``vec2(iv)`` (one vector of the same size, converted component by component, truncating
toward zero into an int vector). Arithmetic is element-wise with Python's operators per
component (so ``//`` and ``%`` floor as Python does), a number meeting a vector is used for
every component, ``==`` / ``!=`` compare every component, ``abs`` works per component, and so
do ``min`` / ``max`` from this package (the decorators make the plain names ``min`` and
``max`` in a kernel's module these, which behave as the built-ins on numbers).

Components are also ``v[0]`` … ``v[3]`` (a constant index in kernels; negative ones count
from the end, as for a tuple). Vectors are mutable (``v.x = 0.0``, ``v[1] = 2.0``), as in
kernels. In a kernel a vector is a value: ``w = v`` copies it. Under CPython ``w = v`` names
the same object, so the compiler rejects assigning a component of a name that takes part in
such a copy (write ``w = vec3(v)``); ``@func`` passes copies of vector arguments, and each
invocation gets its own copy of a kernel's vector parameters.
"""

import builtins
import math
import operator

from .scalars import F16, F32, F64, INT_NAMES, LitF, f64_mixing, index_text, r32
from .types import convert, f16, f32, f64, i8, i16, i32, i64, to_f32, u8, u16, u32, u64

_NAMES = "xyzw"


class VectorType:
    """``vec2`` … ``f16vec4``: the component type (``float`` for float32, else its scalar
    type) and size."""

    __slots__ = ("name", "scalar", "size")

    def __init__(self, name, scalar, size):
        self.name, self.scalar, self.size = name, scalar, size

    def __repr__(self):
        return self.name

    def with_article(self):
        """The name with its indefinite article, as the compiler writes it: "an ivec3"."""
        return ("an " if self.name[0] in "if" else "a ") + self.name

    @property
    def is_float(self):
        """Whether the components are floats (``vec``, ``dvec`` and ``f16vec``)."""
        return self.scalar is float or self.scalar is f64 or self.scalar is f16

    def component(self, value):
        """``value`` as one component of this type (an int promotes to a float component; a
        float never becomes an int one implicitly; float32 and float64 do not mix)."""
        if isinstance(value, Vector):
            raise TypeError("a %s component must be a number, not a %s" % (self.name, value.type.name))
        if isinstance(value, bool):
            value = int(value)
        if self.scalar is float:
            if type(value) is F64:
                raise f64_mixing()
            return convert(f32, value)
        if self.scalar is f64:
            if type(value) is F32:
                raise f64_mixing()
            return convert(f64, value)
        if self.scalar is f16:
            if type(value) in (F32, F64):
                raise f64_mixing("f16", "f32" if type(value) is F32 else "f64")
            return convert(f16, value)
        if isinstance(value, float):
            raise TypeError("a float cannot become a %s component implicitly: use int()" % self.name)
        return convert(self.scalar, value)

    def __call__(self, *args):
        if len(args) == 1 and isinstance(args[0], Vector) and args[0].type.size == self.size:
            src = args[0]
            if self.is_float:
                return Vector(self, [convert(f32 if self.scalar is float else self.scalar, c) for c in src._c])
            return Vector(self, [convert(self.scalar, math.trunc(c)) for c in src._c])
        if len(args) == 1 and not isinstance(args[0], Vector):
            return Vector(self, [self.component(args[0])] * self.size)
        comps = []
        for a in args:
            if isinstance(a, Vector):
                comps.extend(self.component(c) for c in a._c)
            else:
                comps.append(self.component(a))
        if len(comps) != self.size:
            raise TypeError("%s needs %d components, but these arguments give %d" % (self.name, self.size, len(comps)))
        return Vector(self, comps)


# Each vector type's name before ``vec``, by component type.
_PREFIXES = {float: "", i32: "i", u32: "u", f64: "d", i8: "i8", u8: "u8", i16: "i16", u16: "u16",
             i64: "i64", u64: "u64", f16: "f16"}


def _types():
    out = {}
    for scalar, prefix in _PREFIXES.items():
        for n in (2, 3, 4):
            name = "%svec%d" % (prefix, n)
            out[name] = VectorType(name, scalar, n)
    return out


class QuatType(VectorType):
    """``quat``: a rotation quaternion ``(x, y, z, w)``, ``w`` the real part, as Warp holds
    it. A vector of four floats whose ``*`` with another quat is the Hamilton product."""

    __slots__ = ()

    def __call__(self, *args):
        if len(args) == 2 and isinstance(args[0], Vector) and args[0].type.size == 3:
            return Vector(self, [self.component(c) for c in args[0]._c] + [self.component(args[1])])
        if len(args) == 1 and not isinstance(args[0], Vector):
            raise TypeError("quat takes four numbers (x, y, z, w), a vec3 and w, or a quat")
        return VectorType.__call__(self, *args)


TYPES = _types()
quat = QuatType("quat", float, 4)
vec2, vec3, vec4 = TYPES["vec2"], TYPES["vec3"], TYPES["vec4"]
ivec2, ivec3, ivec4 = TYPES["ivec2"], TYPES["ivec3"], TYPES["ivec4"]
uvec2, uvec3, uvec4 = TYPES["uvec2"], TYPES["uvec3"], TYPES["uvec4"]
dvec2, dvec3, dvec4 = TYPES["dvec2"], TYPES["dvec3"], TYPES["dvec4"]
i8vec2, i8vec3, i8vec4 = TYPES["i8vec2"], TYPES["i8vec3"], TYPES["i8vec4"]
u8vec2, u8vec3, u8vec4 = TYPES["u8vec2"], TYPES["u8vec3"], TYPES["u8vec4"]
i16vec2, i16vec3, i16vec4 = TYPES["i16vec2"], TYPES["i16vec3"], TYPES["i16vec4"]
u16vec2, u16vec3, u16vec4 = TYPES["u16vec2"], TYPES["u16vec3"], TYPES["u16vec4"]
i64vec2, i64vec3, i64vec4 = TYPES["i64vec2"], TYPES["i64vec3"], TYPES["i64vec4"]
u64vec2, u64vec3, u64vec4 = TYPES["u64vec2"], TYPES["u64vec3"], TYPES["u64vec4"]
f16vec2, f16vec3, f16vec4 = TYPES["f16vec2"], TYPES["f16vec3"], TYPES["f16vec4"]


def _type_of(scalar, size):
    return TYPES["%svec%d" % (_PREFIXES[scalar], size)]


class Vector:
    """A vector value: its type and its components."""

    __slots__ = ("type", "_c")

    def __init__(self, vtype, comps):
        object.__setattr__(self, "type", vtype)
        object.__setattr__(self, "_c", comps)

    def __getattr__(self, name):
        idx = [_NAMES.find(ch) for ch in name]
        if 1 <= len(idx) <= 4 and all(0 <= i < self.type.size for i in idx):
            if len(idx) == 1:
                return self._c[idx[0]]
            return Vector(_type_of(self.type.scalar, len(idx)), [self._c[i] for i in idx])
        raise AttributeError("a %s has no component %r" % (self.type.name, name))

    def __setattr__(self, name, value):
        i = _NAMES.find(name) if len(name) == 1 else -1
        if not 0 <= i < self.type.size:
            raise AttributeError("a %s has no component %r to assign (a swizzle cannot be assigned)" % (self.type.name, name))
        self._c[i] = self.type.component(value)

    def _index(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError("a vector is indexed with an int, not %s" % type(k).__name__)
        if not -self.type.size <= k < self.type.size:
            raise IndexError("index %s out of range for %s" % (index_text(k), self.type.with_article()))
        return k % self.type.size

    def __getitem__(self, k):
        return self._c[self._index(k)]

    def __setitem__(self, k, value):
        self._c[self._index(k)] = self.type.component(value)

    def __iter__(self):
        return iter(list(self._c))

    def __len__(self):
        return self.type.size

    def __repr__(self):
        return "%s(%s)" % (self.type.name, ", ".join(repr(c) for c in self._c))

    def __format__(self, spec):
        """``format(v, spec)``: the spec applied to each component (``f"{v:.2f}"`` is
        ``vec3(1.00, 2.00, 3.00)``), as the GPU's print formats a vector."""
        if not spec:
            return repr(self)
        return "%s(%s)" % (self.type.name, ", ".join(format(c, spec) for c in self._c))

    def tolist(self):
        return list(self._c)

    def __bool__(self):
        raise TypeError("a %s has no truth value in kernels" % self.type.name)

    __hash__ = None

    def __eq__(self, other):
        a, b, _ = _pair(self, other, "==")
        return all(x == y for x, y in zip(a, b))

    def __ne__(self, other):
        return not self.__eq__(other)

    def _order(self, other):
        raise TypeError("vectors can be compared only with == and !=")

    __lt__ = __le__ = __gt__ = __ge__ = _order

    def _wrapped(self, comps):
        """A vector of this type from ``comps``: ints wrap to 32 bits, as on the GPU."""
        if self.type.is_float:
            return Vector(self.type, comps)
        return Vector(self.type, [convert(self.type.scalar, c) for c in comps])

    def __neg__(self):
        return self._wrapped([-c for c in self._c])

    def __pos__(self):
        return Vector(self.type, list(self._c))

    def __invert__(self):
        if self.type.is_float:
            raise TypeError("~ needs an integer vector, not %s" % self.type.name)
        return Vector(self.type, [convert(self.type.scalar, ~c) for c in self._c])

    def __abs__(self):
        return self._wrapped([abs(c) for c in self._c])

    def __pow__(self, n):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise TypeError("** on a vector needs a non-negative integer exponent")
        return self._wrapped([c ** n for c in self._c])


def _pair(a, b, op):
    """The components of two operands, one a vector, brought to one vector type."""
    va, vb = isinstance(a, Vector), isinstance(b, Vector)
    if va and vb:
        if a.type is not b.type:
            raise TypeError("%s cannot mix %s and %s" % (op, a.type.name, b.type.name))
        return a._c, b._c, a.type
    vt = a.type if va else b.type
    scalar = b if va else a
    if isinstance(scalar, float) and not vt.is_float:
        raise TypeError("%s cannot mix %s and a float: convert the vector with vec%d(...)" % (op, vt.name, vt.size))
    if not isinstance(scalar, (int, float)):
        return NotImplemented, None, None
    c = [vt.component(scalar)] * vt.size
    return (a._c, c, vt) if va else (c, b._c, vt)


def _hamilton(a, b):
    """The Hamilton product of quats ``a`` and ``b``, in the compiler's order (Warp's
    formula, each sum left to right)."""
    ax, ay, az, aw = a._c
    bx, by, bz, bw = b._c
    return Vector(quat, [
        aw * bx + bw * ax + ay * bz - by * az,
        aw * by + bw * ay + az * bx - bz * ax,
        aw * bz + bw * az + ax * by - bx * ay,
        aw * bw - ax * bx - ay * by - az * bz,
    ])


def _binary(fn, op, float_result=False, ints_only=False):
    def forward(a, b):
        if op == "mul" and isinstance(a, Vector) and isinstance(b, Vector) and a.type is quat and b.type is quat:
            return _hamilton(a, b)
        x, y, vt = _pair(a, b, op)
        if x is NotImplemented:
            return NotImplemented
        if ints_only and vt.is_float:
            raise TypeError("%s needs integer vectors, not %s" % (op, vt.name))
        if float_result:
            rt = vt if vt.is_float else _type_of(float, vt.size)
            return Vector(rt, [fn(p, q) for p, q in zip(x, y)])
        if vt.is_float:
            return Vector(vt, [fn(p, q) for p, q in zip(x, y)])
        return Vector(vt, [convert(vt.scalar, fn(p, q)) for p, q in zip(x, y)])

    def reflected(a, b):
        return forward(b, a)

    return forward, reflected


for _name, _fn, _extra in (
    ("add", operator.add, {}),
    ("sub", operator.sub, {}),
    ("mul", operator.mul, {}),
    ("truediv", operator.truediv, {"float_result": True}),
    ("floordiv", operator.floordiv, {}),
    ("mod", operator.mod, {}),
    ("and", operator.and_, {"ints_only": True}),
    ("or", operator.or_, {"ints_only": True}),
    ("xor", operator.xor, {"ints_only": True}),
    ("lshift", operator.lshift, {"ints_only": True}),
    ("rshift", operator.rshift, {"ints_only": True}),
):
    _f, _r = _binary(_fn, _name, **_extra)
    setattr(Vector, "__%s__" % _name, _f)
    setattr(Vector, "__r%s__" % _name, _r)


def _components(*args):
    """The operands as lists of components of one vector type, or ``None`` if none is a
    vector (numbers broadcast)."""
    vt = next((a.type for a in args if isinstance(a, Vector)), None)
    if vt is None:
        return None, None
    out = []
    for a in args:
        if isinstance(a, Vector):
            if a.type is not vt:
                raise TypeError("cannot mix %s and %s" % (vt.name, a.type.name))
            out.append(a._c)
        else:
            out.append([vt.component(a)] * vt.size)
    return out, vt


def _each(fn, *args):
    comps, vt = _components(*args)
    if comps is None:
        return fn(*args)
    return Vector(vt, [fn(*cs) for cs in zip(*comps)])


def _result_type(args):
    """The type the compiler gives ``min``/``max`` of the numbers ``args``: float32 if one is
    a float value (ints promote, literals take its type), else the int value type among them;
    ``None`` for literals alone (Python's own result)."""
    kinds = set(type(a) for a in args)
    if F64 in kinds:
        if F32 in kinds:
            raise f64_mixing()
        return F64
    ints = [k for k in kinds if k in INT_NAMES]
    if F32 in kinds or (kinds & {LitF, float} and ints):
        return f32
    if len(ints) > 1:
        raise TypeError("%s mixed with %s: convert one side" % (INT_NAMES[ints[0]], INT_NAMES[ints[1]]))
    if ints:
        return ints[0]
    return None


def _extremum(pick, args, kwargs):
    if len(args) < 2:
        return pick(*args, **kwargs)
    if any(isinstance(a, Vector) for a in args):
        return _each(lambda *cs: _extremum(pick, cs, {}), *args)
    t = _result_type(args)
    if t is F64:
        return F64(pick(float(a) for a in args))
    if t is f32:
        return F32(pick(to_f32(a) for a in args))
    r = pick(args, **kwargs)
    if t in INT_NAMES:
        return t(r)
    return r if t is None else convert(t, r)


def min(*args, **kwargs):
    """Python's ``min``; on vectors (and numbers with them), per component; on kernel values,
    of the type the compiler gives it."""
    return _extremum(builtins.min, args, kwargs)


def max(*args, **kwargs):
    """Python's ``max``; on vectors (and numbers with them), per component; on kernel values,
    of the type the compiler gives it."""
    return _extremum(builtins.max, args, kwargs)


def _halves(fn):
    """A shading function that, given ``f16``s or ``f16vec``s, computes as a ``math``
    function of an ``f16`` does: the ``f32`` function of the widened values, its result
    rounded to half (the compiler's rule)."""
    def is_half(a):
        return type(a) is F16 or (isinstance(a, Vector) and a.type.scalar is f16)

    def widened(a):
        if type(a) is F16:
            return convert(f32, a)
        if isinstance(a, Vector) and a.type.scalar is f16:
            return _type_of(float, a.type.size)(a)
        return a

    def run(*args):
        if not builtins.any(is_half(a) for a in args):
            return fn(*args)
        r = fn(*[widened(a) for a in args])
        if isinstance(r, Vector):
            return _type_of(f16, r.type.size)(r)
        return convert(f16, r)

    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


def _kind(*args):
    """The float type a shading function computes in: ``f64`` when an argument is an
    ``F64`` or a ``dvec`` (the compiler lets no float32 meet them), else ``f32``."""
    for a in args:
        if type(a) is F64 or (isinstance(a, Vector) and a.type.scalar is f64):
            return f64
    return f32


def _floats(v, kind):
    if isinstance(v, Vector):
        return [convert(kind, c) for c in v._c], v.type.size
    return [convert(kind, v)], 0


def _vector_of(kind, n):
    return _type_of(float if kind is f32 else f64, n)


@_halves
def dot(a, b):
    """The sum of the products of the components (an int for int vectors)."""
    if not (isinstance(a, Vector) and isinstance(b, Vector)):
        raise TypeError("dot needs two vectors")
    x, y, vt = _pair(a, b, "dot")
    total = x[0] * y[0]
    for p, q in zip(x[1:], y[1:]):
        total = total + p * q
    return total if vt.is_float else convert(vt.scalar, total)


@_halves
def cross(a, b):
    if not (isinstance(a, Vector) and isinstance(b, Vector) and a.type.size == 3 and b.type.size == 3):
        raise TypeError("cross needs two 3-component vectors")
    kind = _kind(a, b)
    (ax, ay, az), _ = _floats(a, kind)
    (bx, by, bz), _ = _floats(b, kind)
    return _vector_of(kind, 3)(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx)


def _norm(c, kind):
    total = c[0] * c[0]
    for x in c[1:]:
        total = total + x * x
    if kind is f64:
        return F64(math.sqrt(total))
    return F32(r32(math.sqrt(total)))


@_halves
def length(v):
    kind = _kind(v)
    c, _ = _floats(v, kind)
    return _norm(c, kind)


@_halves
def distance(a, b):
    kind = _kind(a, b)
    return length(_float_vector(a, kind) - _float_vector(b, kind))


@_halves
def normalize(v):
    kind = _kind(v)
    c, n = _floats(v, kind)
    size = _norm(c, kind)
    if n == 0:
        return c[0] / size
    rt = quat if isinstance(v, Vector) and v.type is quat else _vector_of(kind, n)
    return Vector(rt, [x / size for x in c])


def _float_vector(v, kind):
    if isinstance(v, Vector) and not v.type.is_float:
        return _vector_of(kind, v.type.size)(v)
    return v if isinstance(v, Vector) else convert(kind, v)


def clamp(x, lo, hi):
    """``min(max(x, lo), hi)``, per component on vectors."""
    return min(max(x, lo), hi)


def _floats_of(args):
    kind = _kind(*args)
    return kind, [_float_vector(a, kind) for a in args]


@_halves
def mix(a, b, t):
    """``a * (1 - t) + b * t``, per component on vectors."""
    _, args = _floats_of((a, b, t))
    return _each(lambda p, q, s: p * (1.0 - s) + q * s, *args)


_BOUNDS = {f32: (F32(0.0), F32(1.0)), f64: (F64(0.0), F64(1.0))}


@_halves
def step(edge, x):
    """``0.0`` where ``x < edge``, else ``1.0``, per component."""
    kind, args = _floats_of((edge, x))
    zero, one = _BOUNDS[kind]
    return _each(lambda e, v: zero if v < e else one, *args)


@_halves
def smoothstep(e0, e1, x):
    """Hermite interpolation between 0 and 1 as ``x`` goes from ``e0`` to ``e1``."""
    kind, args = _floats_of((e0, e1, x))
    zero, one = _BOUNDS[kind]

    def each(a, b, v):
        t = builtins.min(builtins.max((v - a) / (b - a), zero), one)
        return t * t * (3.0 - 2.0 * t)

    return _each(each, *args)

"""The values of the reference executor: numbers that compute as the compiled kernel does.

A kernel's values have types (docs/language.md, "Types"), and the reference executor computes in
them, so the same file gives the same numbers under CPython and on the GPU:

- ``F32`` (a ``float``) holds a float32 value; every operation on it rounds its result to
  float32, as single-precision arithmetic does (``+ - * /`` computed in double precision and
  rounded once are exactly float32's correctly rounded results).
- ``F64`` (a ``float``) holds a double, and computes as Python's ``float`` does (every
  operation is IEEE double precision, rounded once). It does not mix with ``F32``
  (``TypeError``, as the compiler refuses it); an int or a literal meeting it becomes a
  double.
- ``I32`` and ``U32`` (``int``\\ s) hold 32-bit integers; every operation wraps its result to
  32 bits. Mixing the two is the compiler's error, and raises ``TypeError`` here (but ``/``
  makes both float32 first, and comparisons compare the numbers); shift counts may be
  either, the result having the left operand's type. The operator table both sides follow
  is ``_library.BINARY`` (crates/spirthon-ir/src/operators.rs).
- ``LitI`` and ``LitF`` are literals and module constants before they meet a typed value:
  Python's exact ints and double-precision floats, as the compiler folds them
  (spirthon_frontend::lit). A literal meeting a typed value takes its type (``h * 16777619``
  with ``h`` a ``U32`` is a ``U32``; ``x < 0.02`` with ``x`` an ``F32`` compares with 0.02
  rounded to float32); an int meeting a float becomes a float, as in Python.

``value`` gives a literal its own type when it becomes a value (assigned to a local, stored,
passed): an int ``I32`` when it fits, else ``U32``; a float ``F32``. ``keep`` converts an
assigned value to the type the variable already has, as a local keeps its first type.

Invariant: the result of an operation on a typed value is a typed value; Python's own
numbers never appear in a kernel's arithmetic (the executor turns a kernel's constants into
literals, see ``spirthon.typed``), so none of CPython's double-precision or unbounded
results leaks into a kernel's values.
"""

import math
import struct

_F32 = struct.Struct("<f")
_pack, _unpack = _F32.pack, _F32.unpack
_INF = math.inf


def f64_mixing(a="f32", b="f64"):
    """The error of two float types meeting (the compiler's, as for i32 and u32); with an
    f64, ``f64()`` of the narrower side would keep only its own precision, so the error
    says to make that value f64 where it is made."""
    if b == "f64":
        return TypeError("%s mixed with f64: to compute in f64, make the %s value f64 where it is made (a parameter "
                         "annotated f64, an Array[f64], a literal written f64(0.1)); f64() of it keeps only an %s's "
                         "precision, and %s() of the f64 side computes in %s" % (a, a, a, a, a))
    return TypeError("%s mixed with %s: convert one side with %s() or %s()" % (a, b, a, b))


_F16 = struct.Struct("<e")


def r16(x):
    """The half (IEEE binary16, NumPy's float16) nearest to the float ``x``, as a Python
    float: ties to even, subnormals kept, infinite past 65504 (from 65520)."""
    try:
        return _F16.unpack(_F16.pack(x))[0]
    except OverflowError:
        return math.copysign(_INF, x)


def r32(x):
    """The float32 nearest to the float ``x``, as a Python float (inf past float32's range)."""
    try:
        return _unpack(_pack(x))[0]
    except OverflowError:
        return math.copysign(_INF, x)


def wrap_i32(v):
    """The int ``v`` wrapped to 32 bits, signed."""
    if -0x80000000 <= v <= 0x7FFFFFFF:
        return v
    return ((v + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def wrap_u32(v):
    """The int ``v`` wrapped to 32 bits, unsigned."""
    if 0 <= v <= 0xFFFFFFFF:
        return v
    return v & 0xFFFFFFFF


def index_text(k):
    """An index as checked mode reports it: the GPU checks an ``i64`` index past the ``i32``
    range as the end of that range (no array reaches it), so those two ends stand for every
    index beyond them, on both devices alike."""
    if k >= 0x7FFFFFFF:
        return "%d or more" % 0x7FFFFFFF
    if k <= -0x80000000:
        return "%d or less" % -0x80000000
    return "%d" % k


def i2f32(v):
    """The float32 nearest to the int ``v`` (ties to even), rounded once as the device
    converts an int: through a double only where the double is exact."""
    v = int(v)
    if -(1 << 53) <= v <= (1 << 53):
        return r32(float(v))
    mag = abs(v)
    drop = mag.bit_length() - 24
    q, rest = mag >> drop, mag & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    if rest > half or (rest == half and q & 1):
        q += 1
    return r32(math.copysign(float(q << drop), v))


class F32(float):
    """A float32 value."""

    __slots__ = ()

    def __repr__(self):
        return _short(self)

    __str__ = __repr__

    def __format__(self, spec):
        return _format_short(self, spec, _short)


def _format_short(x, spec, short):
    """``format(x, spec)`` of a float32 or a half: a spec with neither a precision nor a type
    formats the shortest digits (those ``str(x)`` shows, as the GPU's print does), any other
    spec the value's exact double."""
    if not spec:
        return short(x)
    rest = spec[2:] if len(spec) > 1 and spec[1] in "<>=^" else spec[1:] if spec[0] in "<>=^" else spec
    if "." not in rest and not (rest and (rest[-1].isalpha() or rest[-1] == "%")):
        return float.__format__(float(short(x)), spec)
    return float.__format__(float(x), spec)


class I32(int):
    """A 32-bit signed integer value."""

    __slots__ = ()


class U32(int):
    """A 32-bit unsigned integer value."""

    __slots__ = ()


class I8(int):
    """An 8-bit signed integer value (NumPy's int8)."""

    __slots__ = ()


class U8(int):
    """An 8-bit unsigned integer value (NumPy's uint8)."""

    __slots__ = ()


class I16(int):
    """A 16-bit signed integer value (NumPy's int16)."""

    __slots__ = ()


class U16(int):
    """A 16-bit unsigned integer value (NumPy's uint16)."""

    __slots__ = ()


class I64(int):
    """A 64-bit signed integer value (NumPy's int64)."""

    __slots__ = ()


class U64(int):
    """A 64-bit unsigned integer value (NumPy's uint64)."""

    __slots__ = ()


def _wrapper(bits, signed):
    """The function that wraps an int to ``bits`` bits, two's complement."""
    mask, half = (1 << bits) - 1, 1 << (bits - 1)
    if signed:
        return lambda v: ((v + half) & mask) - half
    return lambda v: v & mask


wrap_i8, wrap_u8 = _wrapper(8, True), _wrapper(8, False)
wrap_i16, wrap_u16 = _wrapper(16, True), _wrapper(16, False)
wrap_i64, wrap_u64 = _wrapper(64, True), _wrapper(64, False)

# Every int type and its name; two of them never mix (the compiler's error).
INT_NAMES = {I32: "i32", U32: "u32", I8: "i8", U8: "u8", I16: "i16", U16: "u16",
             I64: "i64", U64: "u64"}
# The bits of each int type's values (a shift count of this many or more shifts every bit
# out).
INT_BITS = {I32: 32, U32: 32, I8: 8, U8: 8, I16: 16, U16: 16, I64: 64, U64: 64}


class LitI(int):
    """An integer literal or module constant: exact, as Python computes."""

    __slots__ = ()


class LitF(float):
    """A float literal or module constant: double precision, as Python computes."""

    __slots__ = ()


def _short(x):
    """The shortest decimal that reads back as the same float32 (as NumPy prints float32)."""
    v = float(x)
    if v != v or v in (_INF, -_INF):
        return repr(v)
    for digits in range(1, 10):
        s = "%.*g" % (digits, v)
        if r32(float(s)) == v:
            break
    return repr(float(s))


def _as_f32(b):
    """The float32 an operand ``b`` of a float operation stands for, or ``None``; an F64
    raises (the two types do not mix)."""
    t = type(b)
    if t is F32:
        return float.__float__(b)
    if t is LitF or t is float:
        return r32(float(b))
    if t in INT_NAMES or t is LitI or t is int:
        return i2f32(b)
    if t is F64:
        raise f64_mixing()
    if t is F16:
        raise f64_mixing("f16", "f32")
    return None


def _f32(v):
    return F32(r32(v))


# Float operations, rounded; the float floor division and remainder are CPython's
# (Objects/floatobject.c float_divmod) carried out in float32, as the compiled kernel does
# (spirthon_spirv::emit::arith).


def _fmod_py(a, b):
    if b == 0.0:
        raise ZeroDivisionError("float modulo by zero")
    m = math.fmod(a, b)
    if m:
        if (b < 0) != (m < 0):
            m = r32(m + b)
    else:
        m = math.copysign(0.0, b)
    return m


def _ffloordiv_py(a, b):
    if b == 0.0:
        raise ZeroDivisionError("float floor division by zero")
    m = math.fmod(a, b)
    div = r32(r32(a - m) / b)
    if m and (b < 0) != (m < 0):
        div = r32(div - 1.0)
    if div in (_INF, -_INF):
        return div  # the float32 quotient overflows, as on the GPU
    if div:
        q = math.floor(div)
        if div - q > 0.5:
            q += 1.0
        return float(q)
    return math.copysign(0.0, a / b if b else 0.0)


def _pow_int(x, n, rounded):
    """``x ** n`` for a float ``x`` and a literal int ``n``: square-and-multiply, each
    product (and the reciprocal of a negative ``n``) ``rounded`` to the type, as the
    compiler expands it."""
    k = abs(n)
    result, base = None, x
    while k > 0:
        if k & 1:
            result = base if result is None else rounded(result * base)
        k >>= 1
        if k > 0:
            base = rounded(base * base)
    if result is None:
        result = 1.0
    if n < 0:
        if result == 0.0:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        result = rounded(1.0 / result)
    return result


def _fpow_int(x, n):
    """``x ** n`` for a float32 ``x`` and a literal int ``n``, rounded at every product."""
    return _pow_int(x, n, r32)


def _dpow(a, b):
    """``a ** b`` on doubles as the compiled kernel's ``pow`` (C's, whose overflow is an
    infinity; CPython's errors, a complex result included, are raised as CPython's)."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return math.copysign(_INF, a) if b == math.floor(b) and b % 2 == 1 else _INF


def _fpow(a, b):
    try:
        return r32(math.pow(a, b))
    except OverflowError:
        return _INF


_FLOAT_OPS = {
    "add": lambda a, b: r32(a + b),
    "sub": lambda a, b: r32(a - b),
    "mul": lambda a, b: r32(a * b),
    "truediv": lambda a, b: r32(a / b),
    "floordiv": _ffloordiv_py,
    "mod": _fmod_py,
    "pow": _fpow,
}


def _float_method(name, fn):
    def forward(a, b):
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        if name == "pow" and type(b) is LitI:
            return F32(_fpow_int(_as_f32(a), int(b)))
        return F32(fn(_as_f32(a), y))

    def reflected(a, b):
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        return F32(fn(y, _as_f32(a)))

    return forward, reflected


def _install(cls, name, methods):
    """``cls.__name__`` and ``cls.__rname__`` from a (forward, reflected) pair."""
    setattr(cls, "__%s__" % name, methods[0])
    setattr(cls, "__r%s__" % name, methods[1])


for _name, _fn in _FLOAT_OPS.items():
    _install(F32, _name, _float_method(_name, _fn))


def _fast(name, base):
    """``F32 op F32`` without the general path's dispatch (the common case of a kernel's
    arithmetic); other operands go the general way."""
    general = getattr(F32, name)

    def method(a, b):
        t = type(b)
        try:
            if t is F32:
                return F32(_unpack(_pack(base(a, b)))[0])
            if t is LitF:  # a literal meets a float32 value: rounded first
                return F32(_unpack(_pack(base(a, _unpack(_pack(b))[0])))[0])
        except OverflowError:
            pass
        return general(a, b)

    return method


for _name, _base in (("__add__", float.__add__), ("__sub__", float.__sub__),
                     ("__mul__", float.__mul__), ("__radd__", float.__radd__),
                     ("__rsub__", float.__rsub__), ("__rmul__", float.__rmul__)):
    setattr(F32, _name, _fast(_name, _base))


import operator as _op  # noqa: E402


def _float_basics(cls, operand, make):
    """A float class's comparisons (``operand``: the other side as a float of the class's
    type, or ``None``), hash, ``-``, ``+``, ``abs`` and ``round`` (``make``: a float as a
    value of the class, rounded to its type)."""
    def compare(op):
        def method(a, b):
            y = operand(b)
            if y is None:
                return NotImplemented
            return op(float.__float__(a), y)

        return method

    for name in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(cls, "__%s__" % name, compare(getattr(_op, name)))
    cls.__hash__ = float.__hash__
    cls.__neg__ = lambda a: cls(-float.__float__(a))
    cls.__pos__ = lambda a: a
    cls.__abs__ = lambda a: cls(abs(float.__float__(a)))

    def rounded(a, ndigits=None):
        if ndigits is None:
            return I32(wrap_i32(round(float.__float__(a))))
        return make(round(float.__float__(a), ndigits))

    cls.__round__ = rounded


_float_basics(F32, _as_f32, _f32)


# Double-precision operations: Python's own float arithmetic (IEEE double, rounded once;
# `//` and `%` CPython's), except `**`, which the compiler expands for an int literal
# exponent (square-and-multiply, rounded at every product, as for float32).


class F64(float):
    """An f64 value."""

    __slots__ = ()

    def __repr__(self):
        return repr(float(self))

    __str__ = __repr__


def _as_f64(b):
    """The double an operand ``b`` of an f64 operation stands for, or ``None``; an F32
    raises (the two types do not mix)."""
    t = type(b)
    if t is F64 or t is LitF or t is float:
        return float.__float__(b)
    if t in INT_NAMES or t is LitI or t is int:
        return float(b)
    if t is F32:
        raise f64_mixing()
    if t is F16:
        raise f64_mixing("f16", "f64")
    return None


def _f64_install():
    # `//` and `%` are CPython's float_floor_div and float_rem, which the compiled kernel
    # repeats in f64 on an exact fmod.
    ops = {"add": float.__add__, "sub": float.__sub__, "mul": float.__mul__,
           "truediv": float.__truediv__, "floordiv": float.__floordiv__, "mod": float.__mod__}
    for name, fn in ops.items():
        def forward(a, b, fn=fn):
            y = _as_f64(b)
            if y is None:
                return NotImplemented
            return F64(fn(float.__float__(a), y))

        def reflected(a, b, fn=fn):
            y = _as_f64(b)
            if y is None:
                return NotImplemented
            return F64(fn(y, float.__float__(a)))

        _install(F64, name, (forward, reflected))

    def power(a, b):
        if type(b) in (LitI, int):
            return F64(_pow_int(float.__float__(a), int(b), float))
        y = _as_f64(b)
        if y is None:
            return NotImplemented
        return F64(_dpow(float.__float__(a), y))

    def rpower(a, b):
        y = _as_f64(b)
        if y is None:
            return NotImplemented
        return F64(_dpow(y, float.__float__(a)))

    F64.__pow__, F64.__rpow__ = power, rpower
    _float_basics(F64, _as_f64, F64)


_f64_install()


# Half precision: each operation as the f32 one (exact on halves, which f32 holds), then
# rounded to half, as the compiled kernel computes in an f32 register and rounds.


class F16(float):
    """An f16 value (NumPy's float16)."""

    __slots__ = ()

    def __repr__(self):
        return _short16(self)

    __str__ = __repr__

    def __format__(self, spec):
        return _format_short(self, spec, _short16)


def _short16(x):
    """The shortest decimal that reads back as the same half (as NumPy prints float16)."""
    v = float(x)
    if v != v or v in (_INF, -_INF):
        return repr(v)
    for digits in range(1, 6):
        s = "%.*e" % (digits - 1, v)
        if r16(float(s)) == v:
            break
    return repr(float(s))


def _as_f16(b):
    """The half an operand ``b`` of an f16 operation stands for, or ``None``; an F32 or F64
    raises (float types do not mix)."""
    t = type(b)
    if t is F16:
        return float.__float__(b)
    if t is LitF or t is float or t in INT_NAMES or t is LitI or t is int:
        return r16(float(b))
    if t is F32:
        raise f64_mixing("f16", "f32")
    if t is F64:
        raise f64_mixing("f16", "f64")
    return None


def _f16_install():
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod"):
        fn = _FLOAT_OPS[name]

        def forward(a, b, fn=fn):
            y = _as_f16(b)
            if y is None:
                return NotImplemented
            return F16(r16(fn(float.__float__(a), y)))

        def reflected(a, b, fn=fn):
            y = _as_f16(b)
            if y is None:
                return NotImplemented
            return F16(r16(fn(y, float.__float__(a))))

        _install(F16, name, (forward, reflected))

    def power(a, b):
        if type(b) in (LitI, int):
            # The half nearest to the f32 power (the products and the reciprocal in f32),
            # as the compiler computes it: rounding each product to half would round twice.
            return F16(r16(_pow_int(float.__float__(a), int(b), r32)))
        raise TypeError("`**` on an f16 needs an int literal exponent")

    def rpower(a, b):
        raise TypeError("`**` on an f16 needs an int literal exponent")

    F16.__pow__, F16.__rpow__ = power, rpower
    _float_basics(F16, _as_f16, lambda v: F16(r16(v)))


_f16_install()


# Integer operations, wrapped.

_INT_OPS = {
    "add": int.__add__,
    "sub": int.__sub__,
    "mul": int.__mul__,
    "floordiv": int.__floordiv__,
    "mod": int.__mod__,
    "and": int.__and__,
    "or": int.__or__,
    "xor": int.__xor__,
}


def _mixing(a, b):
    x, y = INT_NAMES[type(a)], INT_NAMES[type(b)]
    return TypeError("%s mixed with %s: convert one side with %s() or %s()" % (x, y, x, y))


def _int_class(cls, wrap):
    others = tuple(t for t in INT_NAMES if t is not cls)

    def make(name, fn):
        float_fn = _FLOAT_OPS.get(name)

        def forward(a, b):
            t = type(b)
            if t is cls or t is LitI or t is int or t is bool:
                return cls(wrap(fn(a, b)))
            if t in others:
                raise _mixing(a, b)
            if t is F64:
                return NotImplemented
            if float_fn is not None and (t is F32 or t is LitF or t is float):
                # Mixed with a float (a value or a literal), the int becomes float32 first.
                return F32(float_fn(i2f32(a), _as_f32(b)))
            return NotImplemented

        def reflected(a, b):
            t = type(b)
            if t is cls or t is LitI or t is int or t is bool:
                return cls(wrap(fn(b, a)))
            if t in others:
                raise _mixing(b, a)
            if t is F64:
                return NotImplemented
            if float_fn is not None and (t is F32 or t is LitF or t is float):
                return F32(float_fn(_as_f32(b), i2f32(a)))
            return NotImplemented

        return forward, reflected

    for name, fn in _INT_OPS.items():
        _install(cls, name, make(name, fn))

    def truediv(a, b):
        # Both sides become float32 first, so an i32 and a u32 mix here, as in the compiler
        # (an f64 or f16 divisor makes it a division of its type).
        if type(b) is F64 or type(b) is F16:
            return NotImplemented
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        return F32(r32(i2f32(a) / y))

    def rtruediv(a, b):
        if type(b) is F64 or type(b) is F16:
            return NotImplemented
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        return F32(r32(y / i2f32(a)))

    cls.__truediv__, cls.__rtruediv__ = truediv, rtruediv

    def power(a, b):
        t = type(b)
        if t is LitI or t is int:
            n = int(b)
            if n >= 0:
                return cls(wrap(pow(int(a), n, 1 << 64)))
            return F32(_fpow_int(i2f32(a), n))
        if t is F64:
            return NotImplemented  # the f64 `pow` (F64.__rpow__)
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        if t in INT_NAMES:
            raise TypeError("`int ** int` needs a literal exponent")
        return F32(_fpow(i2f32(a), y))

    def rpower(a, b):
        y = _as_f32(b)
        if y is None:
            return NotImplemented
        if type(b) in (LitI, int):
            raise TypeError("`int ** int` needs a literal exponent")
        return F32(_fpow(y, i2f32(a)))

    cls.__pow__, cls.__rpow__ = power, rpower

    # Shifts: the count may be any int type; the result has the left operand's type. A
    # count past the width gives what the width gives once wrapped (every bit out), without
    # building CPython's huge intermediate int; a negative one raises as CPython does.
    bits = INT_BITS[cls]

    def shift(fn):
        def forward(a, b):
            if not isinstance(b, int) or isinstance(b, bool):
                return NotImplemented
            return cls(wrap(fn(int(a), min(int(b), bits))))

        def reflected(a, b):
            if type(b) not in (LitI, int):
                return NotImplemented
            return cls(wrap(fn(int(b), min(int(a), bits))))

        return forward, reflected

    _install(cls, "lshift", shift(int.__lshift__))
    _install(cls, "rshift", shift(int.__rshift__))
    cls.__neg__ = lambda a: cls(wrap(-int(a)))
    cls.__pos__ = lambda a: a
    cls.__invert__ = lambda a: cls(wrap(~int(a)))
    cls.__abs__ = lambda a: cls(wrap(abs(int(a))))
    cls.__round__ = lambda a, n=None: a


_int_class(I32, wrap_i32)
_int_class(U32, wrap_u32)
_int_class(I8, wrap_i8)
_int_class(U8, wrap_u8)
_int_class(I16, wrap_i16)
_int_class(U16, wrap_u16)
_int_class(I64, wrap_i64)
_int_class(U64, wrap_u64)

# The wrap of each int type.
WRAPS = {I32: wrap_i32, U32: wrap_u32, I8: wrap_i8, U8: wrap_u8, I16: wrap_i16, U16: wrap_u16,
         I64: wrap_i64, U64: wrap_u64}


# Literals: Python's arithmetic among themselves; a typed operand takes over.

_TYPED = (F32, F64, F16) + tuple(INT_NAMES)


def _lit_method(base_fn):
    def forward(a, b):
        t = type(b)
        if t in _TYPED:
            return NotImplemented
        r = base_fn(a, b)
        return r if r is NotImplemented else literal(r)

    return forward


for _cls, _base in ((LitI, int), (LitF, float)):
    for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift"):
        for _n in ("__%s__" % _name, "__r%s__" % _name):
            _b = getattr(_base, _n, None)
            if _b is not None:
                setattr(_cls, _n, _lit_method(_b))
    _cls.__neg__ = lambda a, _base=_base: literal(_base.__neg__(a))
    _cls.__pos__ = lambda a: a
    _cls.__abs__ = lambda a, _base=_base: literal(_base.__abs__(a))
LitI.__invert__ = lambda a: LitI(~int(a))


def _litf_compare(op):
    def method(a, b):
        t = type(b)
        if t is F64:
            return op(float.__float__(a), float.__float__(b))
        if t is F16:
            # The literal becomes a half to meet an f16.
            return op(r16(float.__float__(a)), float.__float__(b))
        if t in _TYPED:
            # The literal becomes a float32 to meet a typed operand.
            y = _as_f32(b)
            return op(r32(float.__float__(a)), y)
        return op(float.__float__(a), b)

    return method


for _name in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(LitF, "__%s__" % _name, _litf_compare(getattr(_op, _name)))
LitF.__hash__ = float.__hash__


def value(v):
    """``v`` as a kernel value: a literal gets its own type (an int ``I32`` when it fits,
    else ``U32``; a float ``F32``); anything else is returned as it is."""
    t = type(v)
    if t is LitI or t is int:
        if -0x80000000 <= v <= 0x7FFFFFFF:
            return I32(v)
        if 0 <= v <= 0xFFFFFFFF:
            return U32(v)
        raise OverflowError("the constant %d does not fit in 32 bits" % v)
    if t is LitF or t is float:
        return F32(r32(v))
    return v


def to_type(t, v):
    """``v`` converted to the kernel type of the value ``t`` already held (the implicit
    conversions: a literal to its type, an int to float32); ``v`` itself otherwise."""
    tt, tv = type(t), type(v)
    if tt is tv:
        return v
    if tt is F32 and (tv in INT_NAMES or tv in (LitI, int)):
        return F32(i2f32(v))
    if tt is F32 and tv in (LitF, float):
        return F32(r32(float(v)))
    if tt is F64 and (tv in INT_NAMES or tv in (LitI, int, LitF, float)):
        return F64(float(v))
    if tt is F16 and (tv in INT_NAMES or tv in (LitI, int, LitF, float)):
        return F16(r16(float(v)))
    if tt in WRAPS and tv in (LitI, int):
        return tt(WRAPS[tt](v))
    return value(v)


def literal(v):
    """A Python number of a kernel's module or code (or of literal arithmetic) as a literal;
    anything else, bools included, as it is."""
    t = type(v)
    if t is int:
        return LitI(v)
    if t is float:
        return LitF(v)
    return v

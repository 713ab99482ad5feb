"""The run JSON of docs/language.md, read as ``spirthon run`` reads it.

This module is a port of ``crates/spirthon-runtime/src/json.rs`` (the reader and the text of
values in messages) and ``inputs.rs`` (a launch's arguments from the JSON): the same input
gives the same value, or the same error in the same words, from both runners. The Python
tests feed a table of bad inputs to both; change the two together.

Reading: valid input goes through the ``json`` module (fast), with hooks that refuse what the
run JSON refuses (``NaN``, ``Infinity``, a number that overflows a double) and the number
model applied (an integer in ``[-2**63, 2**64)`` is exact, any other number the nearest
double); anything it refuses, and any input nested deeper than ``MAX_DEPTH`` or holding a
surrogate escape, is read again by ``_Reader``, the port, which finds the error and its place.
"""

import itertools
import json
import math
import re

from . import _library
from .types import INT_RANGES, f16, f32, f64, to_f32
from .scalars import r16
from .matrices import MatrixType
from . import structs
from .structs import StructType
from .vectors import TYPES as VECTORS, VectorType

MAX_DEPTH = 128
MAX_BYTES = 64 << 20
#: ``len()`` and indices are ``i32`` in kernels.
MAX_ELEMENTS = 2 ** 31 - 1


class InputError(Exception):
    """Bad inputs: ``str(e)`` is the message both runners print after ``error: ``."""


# Reading.


class _Refused(Exception):
    pass


def _refuse(_text):
    raise _Refused()


def _int(text):
    v = int(text)
    if -(2 ** 63) <= v < 2 ** 64:
        return v
    return _float(text)


def _float(text):
    v = float(text)
    if not math.isfinite(v):
        raise _Refused()
    return v


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _may_be_deep(text):
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    brackets = re.sub(r"[^\[\]{}]", "", _STRINGS.sub("", text))
    return max(itertools.accumulate(1 if c in "[{" else -1 for c in brackets), default=0) > MAX_DEPTH


def loads(text):
    """The value of run-JSON ``text``; ``InputError`` (its message as ``spirthon run``
    words it, without the file) when it is not the run JSON's JSON."""
    if not _SURROGATE.search(text) and not _may_be_deep(text):
        try:
            return json.loads(text, parse_constant=_refuse, parse_int=_int, parse_float=_float)
        except (ValueError, RecursionError, _Refused):
            pass
    return _Reader(text).document()


def _shown(c):
    if c.isspace() or not c.isprintable() or c == "\ufeff":
        return "U+%04X" % ord(c)
    return "'%s'" % c


class _Reader:
    """The port of ``json.rs``'s reader: the same checks in the same order."""

    def __init__(self, text):
        self.text = text
        self.i = 0
        self.line = 1
        self.col = 1

    def peek(self):
        return self.text[self.i] if self.i < len(self.text) else None

    def bump(self):
        if self.i >= len(self.text):
            return None
        c = self.text[self.i]
        self.i += 1
        if c == "\n":
            self.line += 1
            self.col = 1
        else:
            self.col += 1
        return c

    def error(self, what):
        return InputError("%s at line %d column %d" % (what, self.line, self.col))

    def unexpected(self, expected):
        c = self.peek()
        if c is None:
            return self.error("expected %s, found the end of the text" % expected)
        hint = ""
        if c in "NI" and "value" in expected:
            hint = ' (JSON has no NaN or Infinity: the run JSON writes them as "nan", "inf", "-inf")'
        return self.error("expected %s, found %s%s" % (expected, _shown(c), hint))

    def skip_space(self):
        while self.peek() in (" ", "\t", "\n", "\r"):
            self.bump()

    def document(self):
        stack = []  # [list] or [dict, key]
        while True:
            self.skip_space()
            c = self.peek()
            if c == "[":
                self.open(stack, [[]])
                self.skip_space()
                if self.peek() != "]":
                    continue
                self.bump()
                value = stack.pop()[0]
            elif c == "{":
                self.open(stack, [{}, None])
                self.skip_space()
                if self.peek() != "}":
                    stack[-1][1] = self.key()
                    continue
                self.bump()
                value = stack.pop()[0]
            else:
                value = self.scalar()
            while True:
                if not stack:
                    self.skip_space()
                    if self.peek() is not None:
                        raise self.error("unexpected text after the JSON value")
                    return value
                top = stack[-1]
                is_list = len(top) == 1
                if is_list:
                    top[0].append(value)
                else:
                    top[0][top[1]] = value
                    top[1] = None
                self.skip_space()
                end = "]" if is_list else "}"
                c = self.peek()
                if c == ",":
                    self.bump()
                    if not is_list:
                        self.skip_space()
                        top[1] = self.key()
                    break
                if c == end:
                    self.bump()
                    value = stack.pop()[0]
                    continue
                raise self.unexpected("',' or '%s'" % end)

    def open(self, stack, item):
        if len(stack) == MAX_DEPTH:
            raise self.error("lists and objects nested more than %d levels deep" % MAX_DEPTH)
        self.bump()
        stack.append(item)

    def key(self):
        if self.peek() != '"':
            raise self.unexpected("a key in double quotes")
        k = self.string()
        self.skip_space()
        if self.peek() != ":":
            raise self.unexpected("':'")
        self.bump()
        return k

    def scalar(self):
        c = self.peek()
        if c == '"':
            return self.string()
        if c is not None and (c == "-" or "0" <= c <= "9"):
            return self.number()
        if c is not None and c in "tfn":
            word, v = {"t": ("true", True), "f": ("false", False), "n": ("null", None)}[c]
            if self.text.startswith(word, self.i):
                for _ in word:
                    self.bump()
                return v
        raise self.unexpected("a value")

    def digits(self):
        while self.peek() is not None and "0" <= self.peek() <= "9":
            self.bump()

    def is_digit(self):
        c = self.peek()
        return c is not None and "0" <= c <= "9"

    def number(self):
        line, col, start = self.line, self.col, self.i
        integral = True
        if self.peek() == "-":
            self.bump()
        c = self.peek()
        if c == "0":
            self.bump()
        elif c is not None and "1" <= c <= "9":
            self.digits()
        else:
            raise self.unexpected("a digit")
        if self.peek() == ".":
            integral = False
            self.bump()
            if not self.is_digit():
                raise self.unexpected("a digit")
            self.digits()
        if self.peek() in ("e", "E"):
            integral = False
            self.bump()
            if self.peek() in ("+", "-"):
                self.bump()
            if not self.is_digit():
                raise self.unexpected("a digit")
            self.digits()
        t = self.text[start:self.i]
        if integral and len(t) <= 21:
            v = int(t)
            if -(2 ** 63) <= v < 2 ** 64:
                return v
        v = float(t)
        if not math.isfinite(v):
            raise InputError("the number %s is out of range at line %d column %d" % (t, line, col))
        return v

    def string(self):
        self.bump()
        out = []
        while True:
            c = self.peek()
            if c is None:
                raise self.error("the text ends inside a string")
            if c == '"':
                self.bump()
                return "".join(out)
            if c == "\\":
                line, col = self.line, self.col
                self.bump()
                e = self.bump()
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if e in simple:
                    out.append(simple[e])
                elif e == "u":
                    out.append(self.unicode_escape(line, col))
                elif e is None:
                    raise self.error("the text ends inside a string")
                else:
                    raise InputError("invalid escape \\%s in a string at line %d column %d" % (_shown(e).strip("'"), line, col))
                continue
            if ord(c) < 0x20:
                raise self.error("control character U+%04X in a string (write it as an escape)" % ord(c))
            self.bump()
            out.append(c)

    def unicode_escape(self, line, col):
        hi = self.hex4(line, col)
        if not 0xD800 <= hi < 0xE000:
            return chr(hi)
        lone = InputError("lone surrogate \\u%04X in a string at line %d column %d" % (hi, line, col))
        if hi >= 0xDC00 or not self.text.startswith("\\u", self.i):
            raise lone
        self.bump()
        self.bump()
        lo = self.hex4(line, col)
        if not 0xDC00 <= lo < 0xE000:
            raise lone
        return chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))

    def hex4(self, line, col):
        v = 0
        for _ in range(4):
            c = self.peek()
            if c is None or c not in "0123456789abcdefABCDEF":
                raise InputError("\\u must be followed by four hex digits at line %d column %d" % (line, col))
            self.bump()
            v = v * 16 + int(c, 16)
        return v


# The text of values.


def float_text(f):
    """A float as ``repr`` writes it (and ``json.rs``'s ``float_text``)."""
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return repr(float(f))


def text(v):
    """``v`` as compact JSON, floats as ``repr`` writes them."""
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def short(v):
    t = text(v)
    return t[:60] + "…" if len(t) > 60 else t


# The launch's arguments (the port of ``inputs.rs``).


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _as_u64(v):
    return v if _is_int(v) and 0 <= v < 2 ** 64 else None


def _as_int(v):
    """A JSON integer that the runner reads exactly (from -2**63 to 2**64 - 1, an `i64` or a
    `u64`), or ``None``."""
    return v if _is_int(v) and -(2 ** 63) <= v < 2 ** 64 else None


def _integer_text(v):
    return str(v) if _is_int(v) else "%.0f" % v


def entry_point(names, inputs, kernel):
    """The kernel to run: ``kernel`` (``--kernel``) or the inputs' ``"kernel"``, or the only
    one of ``names``."""
    named = inputs.get("kernel") if isinstance(inputs, dict) else None
    if named is not None and not isinstance(named, str):
        raise InputError("\"kernel\" must be a kernel's name, found %s" % short(named))
    wanted = kernel if kernel is not None else named
    if wanted is not None:
        if wanted not in names:
            raise InputError("no kernel named `%s` (the file has %s)" % (wanted, ", ".join(names)))
        return wanted
    if len(names) == 1:
        return names[0]
    raise InputError("the file has %d kernels (%s): name one with \"kernel\" or --kernel" % (len(names), ", ".join(names)))


def threads_of(v):
    bad = InputError("\"threads\" must be a list of one to three non-negative integers, like [1024] or [64, 48]")
    if not isinstance(v, list) or not 1 <= len(v) <= 3:
        raise bad
    t = [1, 1, 1]
    for i, x in enumerate(v):
        if not _is_number(x):
            raise bad
        if _as_int(x) is not None and x < 0:
            raise bad
        w = _as_u64(x)
        if w is None:
            raise InputError("\"threads\"[%d] is %s, but a count of threads is an integer (written without a point or an exponent)" % (i, text(x)))
        if w > _library.MAX_THREADS_PER_AXIS:
            raise InputError("\"threads\"[%d] is %d, more than a launch can have (at most %d per axis)" % (i, w, _library.MAX_THREADS_PER_AXIS))
        t[i] = w
    return tuple(t)


def _type_name(t):
    return t.name if isinstance(t, (VectorType, MatrixType)) else repr(t)


def _scalar(name, s, v, allow_bool):
    """The value of JSON ``v`` as a scalar of type ``s`` (``bool``, ``f32``, ``f64``, ``i32``,
    ``u32``)."""
    what = "argument `%s`" % name
    if s is bool:
        if allow_bool and isinstance(v, bool):
            return v
        raise InputError("%s: expected true or false, found %s" % (what, short(v)))
    if s is f64 and isinstance(v, str) and v in ("nan", "inf", "-inf"):
        return float(v)
    if s in (f32, f64, f16) and _is_number(v):
        # The JSON number's nearest double, rounded to the type; a finite number past the
        # type's range does not fit (an infinity is written "inf").
        try:
            x = {f64: float, f32: to_f32, f16: r16}[s](float(v))
        except OverflowError:
            x = math.inf
        if math.isinf(x):
            raise InputError("%s: %s does not fit in %r" % (what, short(v), s))
        return x
    if s in (f32, f64, f16) and isinstance(v, str):
        table = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
        if v in table:
            return table[v]
        raise InputError("%s: %s is not a number" % (what, short(v)))
    if s in INT_RANGES and _is_number(v):
        i = _as_int(v)
        if i is None:
            f = float(v)
            if f == int(f) if math.isfinite(f) else False:
                if abs(f) < 9.0e15:
                    i = int(f)
                else:
                    raise InputError("%s: %s does not fit in %r" % (what, _integer_text(v), s))
            else:
                raise InputError("%s: %s is not an integer, but the parameter is %r" % (what, short(v), s))
        lo, hi = INT_RANGES[s]
        if not lo <= i <= hi:
            raise InputError("%s: %d does not fit in %r" % (what, i, s))
        return i
    raise InputError("%s: expected a number (%r), found %s" % (what, s, short(v)))


def _value(name, t, v, allow_bool):
    """A scalar, a vector's components (a JSON list of them), or a matrix's entries (a list of
    its rows), row-major."""
    if isinstance(t, MatrixType):
        row = t.row
        if isinstance(v, list) and len(v) == t.n:
            return [x for k, r in enumerate(v) for x in _value("%s[%d]" % (name, k), row, r, False)]
        raise InputError("argument `%s`: a %s is a list of %d rows of %d numbers, found %s" % (name, t.name, t.n, t.n, short(v)))
    if not isinstance(t, VectorType):
        return _scalar(name, t, v, allow_bool)
    if isinstance(v, list) and len(v) == t.size:
        scalar = f32 if t.scalar is float else t.scalar
        return [_scalar("%s[%d]" % (name, k), scalar, x, False) for k, x in enumerate(v)]
    raise InputError("argument `%s`: a %s is a list of %d numbers, found %s" % (name, t.name, t.size, short(v)))


def _elements(name, elem, items):
    if isinstance(elem, StructType):
        return [_struct("%s[%d]" % (name, i), elem, x) for i, x in enumerate(items)]
    return [_value("%s[%d]" % (name, i), elem, x, False) for i, x in enumerate(items)]


def _at_path(name, v, path):
    """The JSON value at a leaf's ``path`` (``vel.x``) in a struct argument's object."""
    walked = name
    for part in path.split("."):
        if not isinstance(v, dict):
            raise InputError("argument `%s`: a struct is a JSON object of its fields, found %s" % (walked, short(v)))
        if part not in v:
            raise InputError("argument `%s`: field `%s` is missing" % (walked, part))
        v = v[part]
        walked = "%s.%s" % (walked, part)
    return v


def _no_unknown_fields(name, v, paths):
    """Every key of a struct argument's object (nested ones too) names a field."""
    work = [("", v)]
    while work:
        prefix, v = work.pop()
        if not isinstance(v, dict):
            continue
        for k, x in v.items():
            path = "%s.%s" % (prefix, k) if prefix else k
            if not any(p == path or p.startswith(path + ".") for p in paths):
                at = "%s.%s" % (name, prefix) if prefix else name
                raise InputError("argument `%s`: the struct has no field `%s`" % (at, k))
            work.append((path, x))


def _struct(name, t, v):
    """A struct from its JSON object (a nested struct's an object too)."""
    leaves = structs.leaves(t)
    _no_unknown_fields(name, v, [p for p, _ in leaves])
    flat = []
    for path, lt in leaves:
        x = _value("%s.%s" % (name, path), lt, _at_path(name, v, path), True)
        flat.extend(x if isinstance(x, list) else [x])
    return structs.from_flat(t, flat)


def _array(name, elem, v):
    """A one-dimensional array argument: its elements, or ``int`` for ``{"zeros": n}``."""
    if isinstance(v, dict) and len(v) == 1 and _as_u64(v.get("zeros")) is not None:
        n = v["zeros"]
        if n > MAX_ELEMENTS:
            raise InputError("argument `%s`: %d elements are more than an array can hold (%d, since `len()` and indices are i32)" % (name, n, MAX_ELEMENTS))
        return n
    if isinstance(v, list):
        return _elements(name, elem, v)
    raise InputError("argument `%s`: an array is a JSON list, or {\"zeros\": N}" % name)


def _shaped(name, elem, dims, v):
    """A multi-dimensional array argument: (elements or a zero count, shape)."""
    kind = "an Array%dD" % dims

    def shape_of(s):
        axes = None
        if isinstance(s, list):
            axes = [x if _as_u64(x) is not None and x < 2 ** 32 else None for x in s]
        if axes is None or None in axes or len(axes) != dims or not all(n <= 2 ** 31 - 1 for n in axes):
            raise InputError("argument `%s`: the shape of %s is a list of %d non-negative integers, found %s" % (name, kind, dims, short(s)))
        return axes

    def total(shape):
        n = math.prod(shape)
        if n > MAX_ELEMENTS:
            raise InputError("argument `%s`: %d elements are more than an array can hold (%d)" % (name, n, MAX_ELEMENTS))
        return n

    if isinstance(v, dict) and len(v) == 1 and "zeros" in v:
        shape = shape_of(v["zeros"])
        return total(shape), shape
    if isinstance(v, dict) and len(v) == 2 and "shape" in v and "data" in v:
        shape = shape_of(v["shape"])
        n = total(shape)
        data = v["data"]
        if isinstance(data, list) and len(data) == n:
            return _array(name, elem, data), shape
        raise InputError("argument `%s`: \"data\" must be a flat list of %d elements, the shape's product" % (name, n))
    if isinstance(v, list):
        level, shape = [v], []
        for depth in range(dims):
            if level and isinstance(level[0], list):
                n = len(level[0])
            elif not level:
                n = 0
            else:
                raise InputError("argument `%s`: %s given as nested lists needs lists %d deep" % (name, kind, dims))
            nxt = []
            for x in level:
                if isinstance(x, list) and len(x) == n:
                    nxt.extend(x)
                else:
                    raise InputError("argument `%s`: the nested lists are not rectangular at depth %d" % (name, depth + 1))
            shape.append(min(n, 2 ** 32 - 1))
            level = nxt
        total(shape)
        return _elements(name, elem, level), shape
    raise InputError("argument `%s`: %s is nested lists, {\"shape\": [...], \"data\": [...]}, or {\"zeros\": [...]}" % (name, kind))


def plan(kernel_name, scalars, arrays, inputs):
    """The launch of a kernel from a run-JSON object: ``(threads, scalar values, arrays)``.
    ``scalars`` is ``[(name, type)]`` and ``arrays`` ``[(name, element type, dims)]``, each
    in declaration order; each array comes back as ``(name, elements or zero count, shape
    or None)``."""
    if not isinstance(inputs, dict):
        raise InputError("the inputs must be a JSON object")
    threads = threads_of(inputs.get("threads"))
    args = inputs.get("args")
    if not isinstance(args, dict):
        raise InputError("\"args\" must be an object with one entry per parameter")
    names = [n for n, _ in scalars] + [n for n, _, _ in arrays]
    for extra in args:
        if extra not in names:
            raise InputError("argument `%s`: kernel `%s` has no such parameter (it takes %s)" % (extra, kernel_name, ", ".join(names)))
    out_arrays = []
    for name, elem, dims in arrays:
        if name not in args:
            raise InputError("argument `%s` is missing" % name)
        if dims > 1:
            data, shape = _shaped(name, elem, dims, args[name])
        else:
            data, shape = _array(name, elem, args[name]), None
        out_arrays.append((name, data, shape))
    values = {}
    for name, t in scalars:
        if name not in args:
            raise InputError("argument `%s` is missing" % name)
        if isinstance(t, StructType):
            values[name] = _struct(name, t, args[name])
        else:
            values[name] = _value(name, t, args[name], True)
    return threads, values, out_arrays

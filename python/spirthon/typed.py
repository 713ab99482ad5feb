"""Kernels and funcs run in the kernel's types under CPython.

The reference executor runs a kernel's own lines (so ``print``, ``pdb`` and tracebacks work
on them), but compiled once more from their source with three changes, none of which moves a
line or a column:

1. Every numeric constant of the code is a literal (``scalars.LitI``/``LitF``) and every module
   constant too: an unannotated number a literal, an annotated one (``GAIN: f32 = 0.1``) a
   value of its type, a tuple of numbers a tuple of values (as the compiler makes it a
   constant array). ``math`` and the names imported from it compute on float32 values and
   round their results (``math.floor``, ``ceil`` and ``trunc`` give ``I32``s); on literals
   alone they are Python's, as the compiler folds them.
2. An assignment to a local name (``x = v``, or ``(x := v)``) keeps the type the local
   already has (``x = scalars.to_type(x, value)``), and the first one gives a literal its own type, so
   ``state = 12345`` then ``state = state * 1103515245 + 12345`` wraps as an ``I32``. To read
   the type a local holds before its first assignment, each local starts as a ``_Unset`` that
   raises ``UnboundLocalError`` when used, as CPython would. ``x: f32 = v`` converts.
3. The built-ins a kernel uses are its own: ``int`` and ``float`` are ``i32`` and ``f32``,
   ``len``, ``range``, ``enumerate`` give ``I32``s, ``min``/``max`` are ``vectors.min``/``max``
   (the type the compiler gives the result).

The module's globals are a copy (one per module), refreshed at every launch, so a kernel
sees the module's constants and funcs as they are when it runs.
"""

import ast
import builtins
import dis
import math
import os
import types

from . import _library, matrices, scalars, vectors
from . import source as _source
from .scalars import F16, F32, F64, I32, I64, INT_NAMES, U32, U64, LitF, LitI, i2f32, literal, r32, to_type, value
from .types import convert, f32, i32, _Scalar
from .arrays import copied
from .structs import StructType

# The types whose values a kernel copies on assignment (and every struct).
_VALUES = (vectors.Vector, matrices.Matrix)


class _Unset:
    """A local before its first assignment: any use is CPython's ``UnboundLocalError``."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def _unbound(self, *args):
        raise UnboundLocalError("local variable %r referenced before assignment" % self.name)

    def __repr__(self):
        return "<%s: not assigned yet>" % self.name


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift", "lt", "le", "gt", "ge", "eq", "ne", "neg", "pos", "invert",
              "abs", "bool", "index", "int", "float", "getitem", "setitem", "getattr",
              "iter", "len", "radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow",
              "rand", "ror", "rxor", "rlshift", "rrshift", "round", "hash"):
    setattr(_Unset, "__%s__" % _name, _Unset._unbound)


def keep(old, new):
    """The value assigned to a local that holds ``old``: converted to its type; a vector,
    matrix or struct copied, since it is a value in kernels (``v = p.vel`` then ``v.x = 0.0``
    leaves ``p`` as it was, and ``q = a[i]`` is the element's copy)."""
    t, tn = type(old), type(new)
    if tn in _VALUES or tn.__class__ is StructType:
        return copied(new)
    if t is tn:
        return new
    if t is _Unset:
        return value(new)
    return to_type(old, new)


def keep_each(olds, new):
    """``keep`` for a tuple assignment: ``olds`` has ``None`` for targets that are not names."""
    items = tuple(new)
    if len(items) != len(olds):
        return items  # CPython's unpacking reports the arity
    return tuple(v if o is None else keep(o, v) for o, v in zip(olds, items))


def annotated(ann, v):
    """``x: T = v``: ``v`` converted to ``T``."""
    if isinstance(ann, _Scalar):
        return convert(ann, v)
    if isinstance(ann, (vectors.VectorType, matrices.MatrixType)):
        return ann(v)
    if isinstance(ann, StructType):
        return copied(v)
    if ann is bool:
        return bool(v)
    return value(v)


def table_item(seq, k):
    """``seq[k]`` where ``k`` is written as a constant: a module's constant tuple counts a
    negative one from the end, as Python does and the compiler does (a checked launch's
    tables refuse negative indices computed at run time only)."""
    if isinstance(seq, tuple):
        return tuple.__getitem__(seq, k)
    return seq[k]


# The names the rewritten code calls (in every module's globals for kernel code).
HELPERS = {
    "_spirthon_table_item": table_item,
    "_spirthon_unset": _Unset,
    "_spirthon_keep": keep,
    "_spirthon_keep_each": keep_each,
    "_spirthon_annotated": annotated,
}


# The built-ins of kernel code.


def _int_type(*args):
    """The type a ``range`` counts in: its arguments' ``u32``, ``i64`` or ``u64`` (the
    compiler refuses a mix), else ``i32`` (narrow ints count as their ``i32`` value)."""
    for a in args:
        if type(a) in (U32, I64, U64):
            return type(a)
    return I32


def _range(*args):
    t = _int_type(*args)
    return map(t, builtins.range(*[int(a) for a in args]))


def _len(x):
    return I32(builtins.len(x))


def _enumerate(items, start=0):
    return ((I32(k), v) for k, v in builtins.enumerate(items, int(start)))


# ``math`` on kernel values.


def _math_fn(name, fn, typing):
    int_result = typing == "float_to_int"
    predicate = typing == "predicate"

    def shim(*args):
        if builtins.all(type(a) in (LitI, LitF, int, float) for a in args):
            r = fn(*args)  # literals alone: Python's, as the compiler folds them
            return r if predicate else literal(r)
        if builtins.any(type(a) is F64 for a in args):
            return _math_f64(name, fn, args, predicate, int_result)
        r = fn(*[i2f32(a) if type(a) in INT_NAMES or type(a) is LitI else r32(float(a)) for a in args])
        if predicate:
            return r
        if int_result:
            return I32(scalars.wrap_i32(r))
        if builtins.any(type(a) is F16 for a in args):
            # An f16 is computed in f32, and the result rounded to half.
            return F16(scalars.r16(r32(r)))
        return F32(r32(r))

    shim.__name__ = name
    shim.__doc__ = "math.%s on float32 values, rounded to float32." % name
    return shim


def _math_f64(name, fn, args, predicate, int_result):
    """``math.name`` with an f64 operand: in double precision, for the functions that have
    an f64 form (``_library.MATH_F64``, the compiler's table), as the compiler refuses the
    others."""
    if name not in _library.MATH_F64:
        raise TypeError("math.%s does not take an f64 yet" % name)
    if builtins.any(type(a) is F32 for a in args):
        raise scalars.f64_mixing()
    r = fn(*[float(a) for a in args])
    if predicate:
        return r
    if int_result:
        return I32(scalars.wrap_i32(r))
    return F64(r)


def _cbrt(x):
    """``math.cbrt`` of CPython 3.11, for older ones: the real cube root, correctly rounded
    to float32 once the kernel's result is (a Newton step in double precision from ``**``)."""
    if x == 0.0 or not math.isfinite(x):
        return x
    a = abs(x)
    y = a ** (1.0 / 3.0)
    y -= (y * y * y - a) / (3.0 * y * y)
    return math.copysign(y, x)


# The `math` functions of CPython 3.11 that older ones lack.
_SINCE_3_11 = {"exp2": lambda x: 2.0 ** x, "cbrt": _cbrt}


def _log(x, base=None):
    if base is None:
        return _math_log(x)
    return _math_log(x) / _math_log(base)


# ``math`` as kernel code sees it: every function and constant of the compiler's table
# (``_library``), on float32 values.
MATH = types.ModuleType("math", "math on a kernel's float32 values (spirthon.typed)")
for _name, (_least, _most, _typing, _precision) in _library.MATH.items():
    _fn = getattr(math, _name, None) or _SINCE_3_11[_name]
    setattr(MATH, _name, _math_fn(_name, _fn, "float" if _typing == "log" else _typing))
_math_log = MATH.log
MATH.log = _log
for _name, _value in _library.MATH_CONSTANTS.items():
    setattr(MATH, _name, LitF(_value))
_BY_MATH_FN = {id(getattr(math, n)): getattr(MATH, n) for n in _library.MATH
               if callable(getattr(math, n, None))}

BUILTINS = {
    "int": i32, "float": f32, "len": _len, "range": _range, "enumerate": _enumerate,
    "min": vectors.min, "max": vectors.max, **HELPERS,
}


# The module's globals as kernel code sees them.

_GLOBALS = {}


def module_globals(source, refresh=True):
    """The globals of kernel code of the module whose namespace is ``source``, refreshed from
    it now (always the same dict, so compiled functions see the refresh) unless ``refresh``
    is false and it exists."""
    g = _GLOBALS.get(id(source))
    if g is None or g[0] is not source:
        g = _GLOBALS[id(source)] = (source, {})
        refresh = True
    typed = g[1]
    if not refresh:
        return typed
    anns = source.get("__annotations__", {})
    folded = _folded_constants(source)
    fresh = {}
    for name, v in source.items():
        fresh[name] = _constant(folded.get(name, v), anns.get(name))
    for name, fn in BUILTINS.items():
        # The module's own definition of a name wins, as it does in Python.
        mine = source.get(name)
        if mine is None or mine is fn or mine is getattr(builtins, name, None):
            fresh[name] = fn
    typed.clear()
    typed.update(fresh)
    return typed


_FOLDED = {}


def _folded_constants(source):
    """The module's numeric constants as the compiler folds them (spirthon_frontend::lit):
    its top-level assignments evaluated again in order, where an annotated constant stands
    for its value rounded to its type (``GAIN: f32 = 0.1`` is float32's 0.1 in ``GAIN * 3``,
    which CPython computed from the double 0.1). Empty when the module's file cannot be
    read; a constant that does not evaluate keeps CPython's value."""
    path = source.get("__file__")
    if not isinstance(path, str):
        return {}
    try:
        stamp = os.stat(path).st_mtime_ns
        cached = _FOLDED.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    env = {"math": MATH}
    env.update({n: getattr(MATH, n) for n in _library.MATH_CONSTANTS
                if isinstance(source.get(n), float)})
    out = {}
    for group in _constant_assignments(tree):
        values = []
        for name, expr, annotated in group:
            try:
                values.append(eval(_literal_consts(compile(ast.Expression(expr), path, "eval")),
                                   {"__builtins__": {}}, env))
            except Exception:
                values.append(None)
        for (name, _, annotated), v in builtins.zip(group, values):
            if type(v) not in (LitI, LitF):
                env.pop(name, None)
                out.pop(name, None)
                continue
            ann = source.get("__annotations__", {}).get(name) if annotated else None
            out[name] = int(v) if type(v) is LitI else float(v)
            # Later constant expressions see an annotated constant at its type's value.
            scalar = _scalar_of(ann)
            rounded = v if scalar is None else convert(scalar, v)
            env[name] = literal(int(rounded) if isinstance(rounded, int) else float(rounded))
    _FOLDED[path] = (stamp, out)
    return out


# The module constants as a kernel's source text gives them, evaluated as CPython evaluated
# them at import (by ``id`` of the ``Source``, beside it): what the compiler compiled with.
_AS_WRITTEN = {}

_WRITTEN_TYPES = (int, float, bool, tuple, list)


def _as_written(tree, path):
    """The file's top-level constants (numbers, bools and tuples of them) in order, each
    evaluated as CPython evaluated it, from ``math`` and the constants before it; a
    constant whose expression needs anything else is left out."""
    env = {"math": math}
    out = {}
    for group in _constant_assignments(tree):
        values = []
        for name, expr, _ in group:
            try:
                values.append(eval(compile(ast.Expression(expr), path, "eval"), {"__builtins__": {}}, env))
            except Exception:
                values.append(None)
        for (name, _, _), v in builtins.zip(group, values):
            if not _written_constant(v) or (type(v) is list and not is_table(v)):
                env.pop(name, None)
                out.pop(name, None)
                continue
            env[name] = out[name] = v
    return out


def _written_constant(v):
    work = [v]
    while work:
        x = work.pop()
        if type(x) not in _WRITTEN_TYPES:
            return False
        if type(x) in (tuple, list):
            work.extend(x)
    return True


def _same(a, b):
    """``a`` and ``b`` are one constant: the same types and values (NaN is itself)."""
    work = [(a, b)]
    while work:
        x, y = work.pop()
        if type(x) is not type(y):
            return False
        if type(x) in (tuple, list):
            if builtins.len(x) != builtins.len(y):
                return False
            work.extend(builtins.zip(x, y))
        elif not (x == y or (x != x and y != y)):
            return False
    return True


def rebound(fn, watched):
    """The first of ``watched`` (``watched_constants(fn, src)``) whose value in ``fn``'s
    module now is not as written: ``(name, as written, now)``, or None."""
    g = getattr(fn, "__globals__", {})
    for n, w in watched:
        if n in g and not _same(w, g[n]):
            return n, w, g[n]
    return None


def watched_constants(fn, src):
    """The module constants kernel function ``fn`` uses whose values its source text
    ``src`` writes: ``[(name, as written)]``, by name (fixed for a kernel: its function and
    text are)."""
    if src is None:
        return []
    entry = _AS_WRITTEN.get(id(src))
    if entry is None or entry[0] is not src:
        try:
            tree = ast.parse(src.text, src.path)
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        entry = _AS_WRITTEN[id(src)] = (src, _as_written(tree, src.path))
    written = entry[1]
    if not written:
        return []
    cached = _USED.get(id(fn))
    if cached is None or cached[0] is not fn:
        cached = _USED[id(fn)] = (fn, _names_used(fn))
    return [(n, written[n]) for n in sorted(cached[1]) if n in written]


# The global names each kernel function uses (by ``id``, beside the function itself).
_USED = {}


def _names_used(fn):
    """The global names ``fn`` reads (its bytecode's global loads, not its attribute
    names), itself and through the ``@func``s of its module that it names."""
    names, seen, work = set(), set(), [fn]
    while work:
        f = work.pop()
        f = getattr(f, "__wrapped__", f)
        code = getattr(f, "__code__", None)
        if code is None or id(f) in seen:
            continue
        seen.add(id(f))
        codes = [code]
        while codes:
            c = codes.pop()
            names.update(i.argval for i in dis.get_instructions(c)
                         if i.opname in ("LOAD_GLOBAL", "LOAD_NAME"))
            codes.extend(k for k in c.co_consts if hasattr(k, "co_names"))
        fg = getattr(f, "__globals__", {})
        work.extend(fg[n] for n in names if getattr(fg.get(n), "__spirthon_func__", False))
    return names


def _constant_assignments(tree):
    """The top-level constant bindings of a module, in order, as the compiler reads them
    (spirthon_frontend's module::resolve): groups of (name, expression, whether annotated),
    each group's expressions evaluated before its names are bound, as Python binds
    ``A, B = B, A``. ``NAME = expr`` and ``NAME: T = expr`` are groups of one; ``A, B = 4, 8``,
    ``(X, Y), Z = ...``, ``[A, B] = ...`` and ``A = B = 4`` bind each name to its item of a
    tuple written in place, or ``VALUE[k]`` of another value (``X, Y = PAIR``)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            yield [(stmt.target.id, stmt.value, True)]
        elif isinstance(stmt, ast.Assign) and builtins.all(_names_only(t) for t in stmt.targets):
            group = []
            for t in stmt.targets:
                _unpacked(t, stmt.value, group)
            yield group


def _names_only(target):
    """An assignment target of names only, in tuples and lists."""
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and builtins.all(_names_only(t) for t in target.elts)


def _unpacked(target, value, out):
    """Appends to ``out`` the (name, expression, False) that ``target = value`` binds; an
    unpacking of a tuple of another length binds nothing here (CPython raised at import)."""
    if isinstance(target, ast.Name):
        out.append((target.id, value, False))
        return
    if isinstance(value, (ast.Tuple, ast.List)):
        if builtins.len(value.elts) == builtins.len(target.elts):
            for t, v in builtins.zip(target.elts, value.elts):
                _unpacked(t, v, out)
        return
    for k, t in builtins.enumerate(target.elts):
        item = ast.Subscript(value=value, slice=ast.Constant(k), ctx=ast.Load())
        _unpacked(t, ast.fix_missing_locations(ast.copy_location(item, value)), out)


def _scalar_of(ann):
    """The scalar type a module constant's annotation names (``int`` is ``i32``, ``float``
    ``f32``), or ``None``."""
    if isinstance(ann, _Scalar):
        return ann
    return {int: i32, float: f32}.get(ann)


def _constant(v, ann):
    """A module-level value as kernel code sees it: a list of numbers (or of rows) is a
    constant table as a tuple is."""
    if type(v) is list and is_table(v):
        v = tuple(tuple(r) if type(r) is list else r for r in v)
    t = type(v)
    if t is int or t is float:
        scalar = _scalar_of(ann)
        return literal(v) if scalar is None else convert(scalar, v)
    if t is tuple or (isinstance(v, tuple) and getattr(v, "name", None) is not None):
        if builtins.len(v) and builtins.all(type(x) in (int, float) for x in v):
            return _table(v)
        rows = _rows(v)
        return v if rows is None else rows
    return _other_constant(v)


def is_table(v):
    """Whether ``v`` is a constant tuple (or list) of numbers, or of equal-length tuples (or
    lists) of them: a table as the compiler reads one (a kernel indexes it as an array, or
    as one array per column). Another list (``[]``, of strings) stays the CPU side's."""
    def numbers(t):
        return builtins.len(t) > 0 and builtins.all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in t)
    if type(v) not in (tuple, list) or not v:
        return False
    if numbers(v):
        return True
    return builtins.all(type(r) in (tuple, list) and builtins.len(r) == builtins.len(v[0])
                        and numbers(r) for r in v)


def _rows(v):
    """A tuple of equal-length tuples of numbers typed as the compiler types it: each column
    a table of its own (``OFFSETS = ((0, 1), (1, 0))``); ``None`` for any other tuple."""
    if not builtins.len(v) or not builtins.all(type(r) is tuple for r in v):
        return None
    width = builtins.len(v[0])
    if not 1 <= width <= 4 or builtins.any(builtins.len(r) != width for r in v):
        return None
    if not builtins.all(type(x) in (int, float) for r in v for x in r):
        return None
    columns = [_table(tuple(r[k] for r in v)) for k in builtins.range(width)]
    rows = tuple(builtins.zip(*columns))
    if type(v) is tuple:
        return rows
    return type(v)(v.name, rows)  # a checked launch's table keeps its checks


def _other_constant(v):
    if v is math:
        return MATH
    if callable(v):
        return _BY_MATH_FN.get(id(v), v)
    return v


def _table(items):
    """A constant tuple as the compiler makes it an array: floats if any is one, else ints
    (``u32`` when one needs it)."""
    if builtins.any(type(x) is float for x in items):
        conv = [F32(r32(float(x))) for x in items]
    elif builtins.all(-0x80000000 <= x <= 0x7FFFFFFF for x in items):
        conv = [I32(x) for x in items]
    else:
        conv = [U32(x & 0xFFFFFFFF) for x in items]
    if type(items) is tuple:
        return tuple(conv)
    return type(items)(items.name, conv)  # a checked launch's table keeps its checks


# Compiling a kernel's code again.


class _Typing(ast.NodeTransformer):
    """Rewrites the assignments of one function (see the module doc); nothing else moves."""

    def __init__(self):
        self.locals = []
        self.assigned = set()

    def _note(self, name):
        if name not in self.locals:
            self.locals.append(name)

    def visit_FunctionDef(self, node):
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        params = {a.arg for a in args}
        self.assigned = params | {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        # A `case` capture (`case other:`, `case 1 | 2 as x:`) assigns its name too.
        self.assigned |= {n.name for n in ast.walk(node) if type(n).__name__ == "MatchAs" and n.name}
        node.decorator_list = []
        node.returns = None
        for a in args:
            a.annotation = None
        node.body = [self.visit(s) for s in node.body]
        names = [n for n in self.locals if n not in params]
        first = 1 if node.body and _is_docstring(node.body[0]) else 0
        inits = [_at(ast.Assign(targets=[ast.Name(n, ast.Store())],
                                value=_call("_spirthon_unset", ast.Constant(n))), node) for n in names]
        node.body[first:first] = inits
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        if builtins.len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, ast.Name):
            node.value = self._assigned_to(target.id, node.value)
        elif isinstance(target, (ast.Tuple, ast.List)) and not builtins.any(isinstance(e, ast.Starred) for e in target.elts):
            olds = []
            for e in target.elts:
                if isinstance(e, ast.Name) and e.id != "_":
                    self._note(e.id)
                    olds.append(ast.Name(e.id, ast.Load()))
                elif isinstance(e, ast.Name):
                    self._note(e.id)
                    olds.append(ast.Constant(None))
                else:
                    olds.append(ast.Constant(None))
            node.value = _at(_call("_spirthon_keep_each", ast.Tuple(olds, ast.Load()), node.value), node.value)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is None or not isinstance(node.target, ast.Name):
            return node
        self._note(node.target.id)
        value = _at(_call("_spirthon_annotated", node.annotation, node.value), node.value)
        return _at(ast.Assign(targets=[node.target], value=value), node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            self._note(node.target.id)
        return node

    def visit_NamedExpr(self, node):
        # `(x := v)` assigns as `x = v` does, and the expression's value is the local's.
        self.generic_visit(node)
        node.value = self._assigned_to(node.target.id, node.value)
        return node

    def _assigned_to(self, name, value):
        """``value`` as an assignment to the local ``name`` stores it: kept in the local's
        type. ``_`` is Python's throwaway name: it takes each value as it is (a new variable
        in the compiled kernel when the type changes)."""
        self._note(name)
        if name == "_":
            return value
        return _at(_call("_spirthon_keep", ast.Name(name, ast.Load()), value), value)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and self._constant(node.slice):
            return _at(_call("_spirthon_table_item", node.value, node.slice), node)
        return node

    def _constant(self, e):
        """Whether ``e`` is an expression the compiler evaluates: literals, module constants
        (names the function does not assign), ``len`` of one, and operators over those."""
        if isinstance(e, ast.Constant):
            return isinstance(e.value, int) and not isinstance(e.value, bool)
        if isinstance(e, ast.Name):
            return e.id not in self.assigned
        if isinstance(e, ast.UnaryOp):
            return self._constant(e.operand)
        if isinstance(e, ast.BinOp):
            return self._constant(e.left) and self._constant(e.right)
        if isinstance(e, ast.Call):
            return (isinstance(e.func, ast.Name) and e.func.id == "len" and builtins.len(e.args) == 1
                    and isinstance(e.args[0], ast.Name) and e.args[0].id not in self.assigned)
        return False

    def visit_For(self, node):
        self.generic_visit(node)
        for n in ast.walk(node.target):
            if isinstance(n, ast.Name):
                self._note(n.id)
        return node


def _is_docstring(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _call(name, *args):
    return ast.Call(func=ast.Name(name, ast.Load()), args=list(args), keywords=[])


def _at(new, old):
    """``new`` at ``old``'s place in the source, every node of it (the positions of the
    user's own nodes inside are kept as they are)."""
    for n in ast.walk(new):
        if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
            n.lineno, n.col_offset = old.lineno, old.col_offset
            n.end_lineno, n.end_col_offset = old.end_lineno, old.end_col_offset
    return new


def _literal_consts(code):
    """``code`` with its numeric constants literals (those of nested code objects too)."""
    consts = []
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            c = _literal_consts(c)
        elif type(c) is tuple:
            c = tuple(literal(x) for x in c)
        else:
            c = literal(c)
        consts.append(c)
    return code.replace(co_consts=tuple(consts))


def compile_typed(fn, globals_, src=None):
    """``fn`` compiled again from its source to compute in kernel types, with ``globals_``
    (from ``module_globals``) as its globals; ``None`` when its source cannot be read (the
    caller runs ``fn`` itself). The source is ``src`` (``spirthon.source``), the text kept
    when ``fn`` was defined; ``CompileError`` when that text no longer holds ``fn``'s code."""
    if src is None:
        return None
    if not _source.check(fn, src):
        raise _source.changed(fn, src)
    found = _source.block(fn, src)
    if found is None:
        return None
    lines, first = found
    source = "".join(lines)
    indented = source[:1].isspace()
    if indented:
        # Kept at its columns inside an `if` (positions must not move).
        source = "if 1:\n" + source
        first -= 1
    tree = ast.parse(source)
    ast.increment_lineno(tree, first - 1)
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fn.__name__]
    if not funcs:
        return None
    node = _Typing().visit(funcs[0])
    module = ast.Module(body=[node], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, fn.__code__.co_filename, "exec", dont_inherit=True)
    space = {}
    exec(_literal_consts(code), globals_, space)
    return space[fn.__name__]


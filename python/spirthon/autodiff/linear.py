"""The linear form of a kernel (``spirthon.autodiff``): its body over versioned names, one
name per assignment, with each float operation's adjoint rule (``Let``), array reads
(``Load``) and writes (``Store``), barriers, branches with their merged names (``If``: a
phi as a copy at the end of each branch) and loops with their carried names (``For``).
``Differentiator`` holds what one kernel's differentiation learns (its arrays, what it
reads and writes, the names that change); ``_Body`` builds one scope's nodes statement by
statement, typing expressions as the language does as far as the adjoint needs it, and
refuses with the line what would make the adjoint wrong or is not differentiable yet.

Invariants: every versioned name is assigned before any use on every path (a branch's
names are used only inside that branch, a merged name is assigned at the end of both
branches); a value without an adjoint is replay text, an atom wherever a rule puts it; a
value with one is a name.
"""

import ast
import builtins
import collections
import copy
import math
import re
import typing
import weakref

from ..errors import CompileError
from ..arrays import _ArrayType
from ..structs import StructType, layout, leaf_offsets
from ..types import f32
from ..vectors import VectorType
from .rules import (DIFF, FLOAT_VECS, G, LOCAL_ARRAY_BYTES, M, MATH1, MATH2, MATH_BOOL, MATH_INT, MATS, S, SCALARS, SUBGROUP_RULES, _minmax_lanes,
                    _mat, _scalar, _vec, _entries, _frobenius, _paren, _rotate_q_adjoint, _rotate_x_adjoint, _row, _rule, _size, _zero)


class AdjointError(CompileError):
    """A kernel that cannot be differentiated (or not yet), located at its line."""


class _Let:
    """``var = text`` in the replay; ``rules``: (operand, its type, the addition to its
    adjoint over ``G``[, the addition's type when it is not the value's]), the addition
    summed to a scalar where the operand is one and the addition a vector; ``pre``: lines
    the reverse runs before the rules (over ``G`` too)."""
    __slots__ = ("var", "ty", "text", "rules", "pre")

    def __init__(self, var, ty, text, rules, pre=()):
        self.var, self.ty, self.text, self.rules, self.pre = var, ty, text, rules, pre


class _Load:
    """``var = array[index]``; of a struct array's element, its ``field``: (path, first
    entry in the flat adjoint's element, type)."""
    __slots__ = ("var", "ty", "array", "index", "field")

    def __init__(self, var, ty, array, index, field=None):
        self.var, self.ty, self.array, self.index, self.field = var, ty, array, index, field


class _Store:
    """A write to an array (``kind``: "set", "add" or "sub", or "update", another
    augmented assignment or atomic on an int shared or local array); ``value`` the stored name when it has an adjoint, else ``None``; ``replay`` the
    stored text where the replay writes it too (a shared or local array, whose contents the
    replay needs), else ``None``; ``call``: ``replay`` is the write's statement itself (an
    atomic); ``field``, a struct array's field written, as a ``_Load``'s; ``whole``: a
    shared array's store at an index that takes each element once in the workgroup
    (``local_index()``, ``ly * W + lx``)."""
    __slots__ = ("array", "index", "value", "vty", "kind", "replay", "call", "field", "whole")

    def __init__(self, array, index, value, vty, kind, replay=None, call=False, field=None, whole=False):
        self.array, self.index, self.value, self.vty, self.kind = array, index, value, vty, kind
        self.replay, self.call, self.field, self.whole = replay, call, field, whole


class _Declare:
    """``text`` declares the shared or local array ``array`` (and its adjoint's, with
    ``array`` None): a replay that runs it starts the array again."""
    __slots__ = ("text", "array")

    def __init__(self, text, array):
        self.text, self.array = text, array


class _Barrier:
    """``barrier()``: in the replay, and again in the reverse (which reverses the phases)."""
    __slots__ = ()


class _Plain:
    """A line of the replay with no adjoint (an int or bool value)."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


class _If:
    """``merges``: (name after the `if`, type, name at the end of the first branch, of the
    second), the phis, written as copies at the ends of the branches."""
    __slots__ = ("cond", "then", "other", "merges")

    def __init__(self, cond, then, other, merges):
        self.cond, self.then, self.other, self.merges = cond, then, other, merges


class _For:
    """``carried``: (header name, type, name entering the loop, name at the end of the body,
    source name); ``checkpoints``: header name -> (local array, element type), for a loop
    with a constant trip count ``static``; ``recompute``: the reverse restores the carried
    values at each iteration by replaying the loop from its entry (no checkpoints: a
    run-time trip count, or values it cannot keep), else it needs none (accumulators). A
    ``while`` loop has its ``test`` and no ``var``, and is always recomputed. ``tiles``:
    the shared arrays its body writes whole before a barrier at each iteration (new at each
    iteration, as arrays its body declares: its replays write them again)."""
    __slots__ = ("var", "lo", "step", "hi", "static", "body", "carried", "counter", "checkpoints", "recompute", "test", "tiles")

    def __init__(self):
        self.test = None  # a `while` loop's test, over the header names (``var`` is None)
        self.tiles = frozenset()


_MISSING = object()


class Differentiator:
    """The adjoint of one kernel. ``reads``/``writes``: the array parameters the kernel
    reads and writes, by name, with the node of the first such access (for messages)."""

    def __init__(self, kernel, prefix):
        self.kernel = kernel
        self.fn = kernel.fn
        self.path = self.fn.__code__.co_filename
        self.globals = self.fn.__globals__
        self.prefix = prefix
        self.count = 0
        self.reads = {}
        self.writes = {}
        self.arrays = {}      # kernel array parameter -> (element type, dims)
        self.params = {}      # kernel scalar parameter -> type
        self.inlining = []    # funcs being inlined (a call of one inside itself is refused)
        self.mutable = set()  # the versioned names assigned more than once (loop headers, loop variables)
        self.memory = {}      # a shared or local array -> "shared" or "local"
        self.memory_adj = {}  # such an array of floats -> its adjoint array
        self.shared_adj = []  # (adjoint, element type, size text) of the shared ones
        self.log = []         # (array, "load" or "store", node) for shared and local arrays, in order
        self.flat = set()     # the array parameters of matrices, quats and structs: their adjoints are flat f32 arrays
        self.per = {}         # such an array -> its adjoint's entries per element
        self.struct_grads = {}  # an array parameter of structs with float fields -> the struct class
        self.i32 = set()      # the versioned int names known to be i32s (for a loop's checkpoint array)
        self.writes_memo = {}
        self.callees = {}     # a call node -> what it calls
        self.structs = {}     # "struct:Name" -> the struct class
        self.tables = {}      # a column of a module's table of rows -> its values (defined in the adjoint's file)
        self.lid = {}         # a versioned int name holding a component of local_id() -> "x", "y" or "z"
        self.sizes = {}       # a 1-D shared or local array -> its size, where it is a constant
        self.later = []       # (shared or local array, its refusal) where it is read before written: raised unless no read value is needed
        self.valued = set()   # the shared and local arrays read where the value is kept as text (an int, a condition)

    def error(self, node, text, leave=False):
        """The located error at ``node``: its file, line and column, then the line with a
        caret under the column. ``leave``: a ``return``, ``break`` or ``continue`` the
        differentiator takes only through flags (``_flag_leaves``)."""
        line = getattr(node, "lineno", 0)
        col = getattr(node, "col_offset", 0) + 1
        head = "%s:%d:%d: error: cannot differentiate kernel `%s`: %s" % (self.path, line, col, self.kernel.name, text)
        lines = self.kernel.source.lines if self.kernel.source is not None else []
        if 1 <= line <= len(lines):
            src = lines[line - 1].rstrip("\r\n").expandtabs(1)
            width = len(str(line))
            head += "\n %s |\n %d | %s\n %s | %s^" % (" " * width, line, src, " " * width, " " * (col - 1))
        e = AdjointError(head)
        e.leave = leave
        return e

    def fresh(self, base):
        self.count += 1
        return "%s%d_%s" % (self.prefix, self.count, base.replace(".", "_"))

    def type_of(self, ann):
        """The differentiator's type of an annotation: ``f32``, ``vecN``, ``matNN``,
        ``f64``, ``dvecN``, ``dmatNN``, ``quat``, ``int``, ``bool``, ``ivec`` (an int
        vector), ``float-other`` (``f16`` and its vectors and matrices: not differentiable
        yet), ``("array", elem, dims)``, ``struct:Name`` (a struct: its values carry no
        adjoint, as ints) or ``other``."""
        if isinstance(ann, _ArrayType):
            return ("array", self.type_of(ann.elem), ann.dims)
        if isinstance(ann, StructType):
            key = "struct:%s" % ann.__name__
            if self.structs.setdefault(key, ann) is not ann:
                key = "struct:%s@%d" % (ann.__name__, id(ann))
                self.structs[key] = ann
            return key
        if ann is float or ann is f32:
            return "f32"
        if ann is int:
            return "int"
        if ann is bool:
            return "bool"
        if isinstance(ann, VectorType):
            if ann.name in FLOAT_VECS:
                return ann.name
            if ann.name == "quat":
                return "quat"
            return "float-other" if ann.is_float else "ivec"
        name = getattr(ann, "name", None) or getattr(ann, "__name__", None)
        if name in MATS:
            return name
        if name in ("i32", "u32", "i64", "u64", "i8", "u8", "i16", "u16"):
            return "int"
        if name == "f64":
            return "f64"
        if name == "f16" or (name or "").startswith(("mat", "dmat")):
            return "float-other"
        return "other"

    def field_type(self, ann):
        """``type_of`` a field of an array of structs with an adjoint (a flat ``f32``
        array of its words): an ``f64`` one (or a vector or matrix of them) is
        ``float-other`` (not differentiable)."""
        t = self.type_of(ann)
        return "float-other" if _scalar(t) == "f64" else t

    def join(self, a, b, node):
        """The type of an arithmetic result of ``a`` and ``b``."""
        for t in (a, b):
            if t in ("float-other", "other", "tuple") or isinstance(t, tuple) or t.startswith("struct:"):
                return "float-other" if t == "float-other" else "other"
        mats = [t for t in (a, b) if t in MATS]
        if mats:
            if len(mats) == 2 and mats[0] != mats[1] or any(t in FLOAT_VECS or t == "ivec" for t in (a, b)):
                raise self.error(node, "%s with %s" % (a, b))
            return mats[0]
        vecs = [t for t in (a, b) if t in FLOAT_VECS]
        if vecs:
            if len(vecs) == 2 and vecs[0] != vecs[1]:
                raise self.error(node, "%s mixed with %s" % tuple(vecs))
            return vecs[0]
        if "ivec" in (a, b):
            return "ivec"
        if "f64" in (a, b):
            if "f32" in (a, b):
                raise self.error(node, "f64 with f32")  # (the compiler refused the kernel)
            return "f64"
        if "f32" in (a, b):
            return "f32"
        if "litfloat" in (a, b):
            return "litfloat" if {a, b} <= {"litfloat", "litint"} else "f32"
        if a == b == "litint":
            return "litint"
        return "int"

    def column(self, table, j):
        """The name of column ``j`` of module table ``table`` (rows of numbers), a tuple the
        adjoint's file defines."""
        name = "%s%s_%d" % (self.prefix, table, j)
        self.tables[name] = tuple(r[j] for r in self.global_value(table))
        return name

    def global_value(self, name):
        if name in self.tables:
            return self.tables[name]
        if name in self.globals:
            return self.globals[name]
        if name == self.prefix + "sp":  # (spirthon, as the adjoint imports it)
            import spirthon
            return spirthon
        return _MISSING

    def callee(self, node):
        """What a call calls: ("math", name), ("func", fn) or ("lib", name) (a built-in or
        a name of spirthon); kept per node (a kernel's globals do not change while it is
        differentiated)."""
        out = self.callees.get(node)
        if out is None:
            out = self.callees[node] = self._callee(node)
        return out

    def _callee(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            owner = self.global_value(f.value.id)
            if owner is math:
                return ("math", f.attr)
            if getattr(owner, "__name__", None) == "spirthon":
                return ("lib", f.attr)
        if isinstance(f, ast.Name):
            v = self.global_value(f.id)
            if v is _MISSING:
                return ("lib", f.id)
            if getattr(v, "__spirthon_func__", False):
                return ("func", v)
            if getattr(v, "__module__", None) == "math" or (callable(v) and getattr(math, getattr(v, "__name__", ""), None) is v):
                return ("math", v.__name__)
            if isinstance(v, VectorType):
                return ("lib", v.name)
            return ("lib", _lib_names().get(id(v), f.id))
        return ("lib", ast.unparse(f))

    def writes_arrays(self, fn):
        """Whether func ``fn`` writes arrays, itself or through the funcs it calls."""
        if fn in self.writes_memo:
            return self.writes_memo[fn]
        self.writes_memo[fn] = False
        out = False
        for s in ast.walk(_func_tree(self, fn, None)):
            if isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                out |= any(isinstance(t, ast.Subscript) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
            if isinstance(s, ast.Call):
                kind, name = self.callee(s)
                out |= kind == "lib" and name.startswith("atomic_")
                out |= kind == "func" and self.writes_arrays(name)
        self.writes_memo[fn] = out
        return out


def _lib_names():
    """The names spirthon exports, by the identity of what they name (a kernel file may
    import them under other names)."""
    global _LIB
    if _LIB is None:
        import spirthon
        _LIB = {id(v): k for k, v in vars(spirthon).items() if not k.startswith("_")}
    return _LIB


_LIB = None


class _Body:
    """The linear form of one scope, built statement by statement. ``env``: source name ->
    (versioned name, type); ``arrays``: source name -> the kernel's array parameter."""

    def __init__(self, d, env, arrays, func=None, top=False):
        self.d, self.env, self.arrays, self.func, self.top = d, env, arrays, func, top
        # Whether a barrier may be here: the kernel's top level and its `for` loops' bodies
        # (uniform control flow as the kernel's; not a branch, a `while` loop or a func).
        self.barriers = top
        self.nodes = []
        self.types = {}

    def sub(self):
        return _Body(self.d, dict(self.env), dict(self.arrays), self.func)

    def touch(self, arr, what, node):
        """A load or store of an array, in the kernel's order. A shared or local array's
        stores all come before its loads: the replay writes it again, so what the replay
        (and the replays inside reverses) loads is what the kernel loaded. A kernel's array
        parameter's loads all come before its stores: the replay reads it as the launch
        found it (the tape keeps a copy of an array a launch reads and writes)."""
        d = self.d
        memory = arr in d.memory
        if what == ("store" if memory else "load"):
            for a, w, n in d.log:
                if a == arr and w != what:
                    if memory:
                        # (unless no value read from it is needed: ``_linear_only``)
                        d.later.append((arr, d.error(node, "`%s` is written here after it was read at line %d: the backward pass replays the reads and would see the later values; write each element before any read of the array (or use another array)"
                                                     % (_source_name(arr, d), n.lineno))))
                        break
                    raise d.error(node, "`%s` is read here after it was written at line %d: the backward pass replays the kernel's reads from the array as the launch found it; read the elements before writing any (or write to another array)"
                                  % (arr, n.lineno))
        d.log.append((arr, what, node))

    # ----- types

    def ty(self, e):
        """The type of expression ``e`` here (kept per scope, by the node itself, which the
        table keeps alive: a name's type never changes)."""
        t = self.types.get(e)
        if t is None:
            t = self.types[e] = self._ty(e)
        return t

    def _ty(self, e):
        d = self.d
        k = type(e)
        if k is ast.Constant:
            v = e.value
            return "bool" if isinstance(v, bool) else "litint" if isinstance(v, int) else "litfloat" if isinstance(v, float) else "other"
        if k is ast.Name:
            if e.id in self.env:
                return self.env[e.id][1]
            if e.id in self.arrays:
                return ("array",) + d.arrays[self.arrays[e.id]]
            v = d.global_value(e.id)
            if isinstance(v, bool):
                return "bool"
            if isinstance(v, int):
                return "litint"
            if isinstance(v, float):
                return "litfloat"
            if _numbers(v):
                return "table-f" if any(isinstance(x, float) for x in v) else "table-i"
            if isinstance(v, (tuple, list)) and v and all(_numbers(r) and len(r) == len(v[0]) for r in v):
                return "table2"
            if isinstance(v, (int, float)):  # a typed constant (`GAIN: f32 = 0.1`)
                return "litfloat" if isinstance(v, float) else "litint"
            t = type(v).__name__
            return {"F32": "litfloat", "I32": "litint", "U32": "litint"}.get(t, "other")
        if k is ast.BinOp:
            a, b = self.ty(e.left), self.ty(e.right)
            op = type(e.op)
            if op in _BIT_OPS:
                return "int" if a != "litint" or b != "litint" else "litint"
            if op is ast.MatMult:
                if a in MATS and b in MATS + FLOAT_VECS:
                    return b
                if a in FLOAT_VECS and b in MATS:
                    return a
                return "float-other"
            if op is ast.Div and a in ("int", "litint") and b in ("int", "litint"):
                return "litfloat" if a == b == "litint" else "f32"
            return d.join(a, b, e)
        if k is ast.UnaryOp:
            return "bool" if type(e.op) is ast.Not else self.ty(e.operand)
        if k is ast.Compare:
            return "bool"
        if k is ast.BoolOp:
            ts = {self.ty(v) for v in e.values}
            if len(ts) > 1 and (ts <= {"f32", "litfloat", "litint"} or ts <= {"f64", "litfloat", "litint"}):
                # `scale or 1.0`: one of the floats
                return "f32" if "f32" in ts else "f64" if "f64" in ts else "litfloat"
            return "bool" if ts == {"bool"} else ts.pop() if len(ts) == 1 else "other"
        if k is ast.IfExp:
            return d.join(self.ty(e.body), self.ty(e.orelse), e) if self.ty(e.body) != "bool" else "bool"
        if k is ast.Attribute:
            if type(e.value) is ast.Name and d.global_value(e.value.id) is math:
                return "litfloat" if isinstance(getattr(math, e.attr, None), float) else "other"  # math.pi, math.inf
            t = self.ty(e.value)
            if t in FLOAT_VECS and re.fullmatch("[xyzw]{1,4}", e.attr):
                return _scalar(t) if len(e.attr) == 1 else _vec(len(e.attr), _scalar(t))
            if t == "ivec":
                return "int" if len(e.attr) == 1 else "ivec"
            if isinstance(t, tuple) and e.attr == "shape":
                return "shape"
            if isinstance(t, str) and t in d.structs:
                field = layout(d.structs[t]).types.get(e.attr)
                return d.type_of(field) if field is not None else "other"
            return "float-other" if t == "float-other" else "other"
        if k is ast.Subscript:
            t = self.ty(e.value)
            if isinstance(t, tuple):
                return t[1]
            if t in MATS:
                return _scalar(t) if isinstance(e.slice, ast.Tuple) else _row(t)
            return {"table-f": "f32", "table-i": "int", "ivec": "int", "shape": "int", "float-other": "float-other"}.get(
                t, _scalar(t) if t in FLOAT_VECS else "other")
        if k is ast.Call:
            return self.call_type(e)
        if k is ast.Tuple:
            return "tuple"
        return "other"

    def call_type(self, e):
        d = self.d
        kind, name = d.callee(e)
        args = [self.ty(a) for a in e.args]
        made = self.made(e)
        if isinstance(made, StructType):
            return d.type_of(made)
        if kind == "math":
            if name in MATH_INT:
                return "int"
            if name in MATH_BOOL:
                return "bool"
            if "float-other" in args:
                return "float-other"
            if "f64" in args:
                return "f64"
            return "litfloat" if args and all(a in ("litint", "litfloat") for a in args) else "f32"
        if kind == "func":
            ann = _hints(name).get("return")
            if ann is not None:
                return d.type_of(ann)
            # Unannotated: the type of its result, from a trial inlining.
            trial = self.sub()
            return trial.inline(e)[1]
        if name in ("float", "f32"):
            return "litfloat" if args == ["litfloat"] or args == ["litint"] else "f32"
        if name in ("int", "i32", "u32", "i64", "u64", "i8", "u8", "i16", "u16", "len", "round", "local_index",
                    "subgroup_size", "subgroup_invocation_id", "randi", "randu"):
            return "int"
        if name in ("quat_inverse", "quat_identity", "quat_from_axis_angle"):
            return "quat"
        if name in ("quat_rotate", "quat_rotate_inv"):
            return "vec3"
        if name == "quat_to_matrix":
            return "mat33"
        if name == "f64":
            return "f64"
        if name == "f16" or name.startswith("f16vec"):
            return "float-other"
        if name == "bool":
            return "bool"
        if name in FLOAT_VECS or name in MATS:
            return name
        if name in ("transpose", "inverse") and args:
            return args[0]
        if name == "determinant":
            return _scalar(args[0]) if args else "other"
        if name in ("outer", "diag") and args:
            return _mat(_size(args[0]), _scalar(args[0]))
        if name == "identity" and e.args:
            n = _const_int(d, e.args[0])
            return "mat%d%d" % (n, n) if n in (2, 3, 4) else "other"
        if name in ("global_id", "local_id", "workgroup_id", "num_workgroups", "num_threads") or re.match(r"[iu]\d*vec", name):
            return "ivec"
        if name in ("abs", "min", "max", "clamp", "mix", "smoothstep", "step"):
            t = args[0] if args else "other"
            for a in args[1:]:
                t = d.join(t, a, e)
            return t
        if name in ("dot", "length", "distance"):
            return _scalar(args[0]) if args else "other"
        if name in ("cross", "normalize"):
            return args[0] if args else "other"
        if name.startswith("atomic_") and e.args:
            t = self.ty(e.args[0])
            return t[1] if isinstance(t, tuple) else "other"
        if name in ("randf", "randn"):
            return "f32"
        if name.startswith("subgroup_") and args and name not in ("subgroup_ballot", "subgroup_all", "subgroup_any"):
            return _settle(args[0])
        return "other"

    # ----- expressions

    def val(self, e):
        """``e`` in the linear form: (text, type). A value with an adjoint is a name."""
        d = self.d
        t = self.ty(e)
        if t == "float-other":
            raise d.error(e, "`%s`: f16 and its vectors and matrices are not differentiable yet (f32, f64, their vectors and matrices, and quat are)" % ast.unparse(e))
        if t in DIFF:
            return self.diff(e, t)
        struct = t in d.structs
        if isinstance(e, ast.Call) and d.callee(e)[0] == "func" and (d.writes_arrays(d.callee(e)[1]) or self.takes_structs(e)):
            out = self.inline(e)
            if out[1] == "tuple":
                raise d.error(e, "`%s` returns a tuple: unpack it (`a, b = ...`)" % ast.unparse(e))
            if isinstance(out[0], dict):
                return _paren(self.whole_of(out[0], d.structs[out[1]], e)), out[1]
            return out
        if t == "other" or struct:
            for sub in ast.walk(e):
                if sub is not e and self.ty(sub) in DIFF:
                    if struct:
                        raise d.error(e, "`%s` makes a struct of values with gradients here, where their adjoints would be lost: assign it to a name, store it to an array or return it" % ast.unparse(e))
                    raise d.error(e, "`%s` takes a float value and the differentiator cannot tell what it gives" % ast.unparse(e))
        return _paren(self.text(e)), t  # an atom, wherever a rule puts it

    def made(self, call):
        """What a call by a module's name calls (a struct class, for one), else ``None``."""
        return self.d.global_value(call.func.id) if type(call.func) is ast.Name else None

    # ----- structs: each field a value of its own

    def takes_structs(self, call):
        """Whether a func call passes a struct whose fields are values of their own (a struct
        local, one made or read from an array there; not a struct parameter): the func is
        inlined, so that they reach its body."""
        d = self.d
        return any(self.ty(a) in d.structs and (type(a) is not ast.Name or self.env.get(a.id, _NONE)[0] == _STRUCT)
                   for a in call.args)

    def struct_array(self, e):
        """The kernel's array parameter ``e`` names when it is an array of structs with an
        adjoint, else ``None``."""
        if type(e) is ast.Name:
            a = self.arrays.get(e.id)
            if a in self.d.struct_grads:
                return a
        return None

    def struct_val(self, e):
        """Struct-valued expression ``e`` as its leaves (every number, vector, matrix of it
        and of the structs in it): {path: (text, type)}, a leaf with an adjoint a name."""
        d = self.d
        t = self.ty(e)
        cls = d.structs.get(t) if isinstance(t, str) else None
        if cls is None:
            raise d.error(e, "`%s` is not a struct here" % ast.unparse(e))
        k = type(e)
        if k is ast.Name:
            v = self.env.get(e.id)
            if v is not None and v[0] == _STRUCT:
                keys = ["%s.%s" % (e.id, p) for p, _, _ in leaf_offsets(cls)]
                if not all(k in self.env for k in keys):
                    raise d.error(e, "`%s` is not assigned on every path to here" % e.id)
                return {p: self.env[k] for (p, _, _), k in zip(leaf_offsets(cls), keys)}
            # A struct parameter (a uniform, no adjoint) or a module's: its fields, read.
            base = v[0] if v is not None else e.id
            self.check(e)
            return {p: self.field_of("%s.%s" % (base, p), d.type_of(ft)) for p, ft, _ in leaf_offsets(cls)}
        if k is ast.Attribute:  # a struct in a struct
            pre = e.attr + "."
            return {p[len(pre):]: v for p, v in self.struct_val(e.value).items() if p.startswith(pre)}
        if k is ast.Subscript and type(e.value) is ast.Name and e.value.id in self.arrays:
            return self.element(e, cls)
        if k is ast.Call:
            if self.made(e) is cls:
                out = {}
                for field, arg in self.struct_args(e, cls).items():
                    if isinstance(layout(cls).types[field], StructType):
                        out.update(("%s.%s" % (field, p), v) for p, v in self.struct_val(arg).items())
                    else:
                        out[field] = self.val(arg)
                return out
            if d.callee(e)[0] == "func":
                out, _ = self.inline(e)
                if isinstance(out, dict):
                    return out
        raise d.error(e, "`%s`: a struct made this way is not differentiable yet (a name, a field, an array's element, `S(...)` and a func's result are)" % ast.unparse(e))

    def field_of(self, text, t):
        """A field read from a struct without adjoints: a float one a name (as every value
        that may meet one with an adjoint), others the text."""
        return self.let("field", t, text, []) if t in DIFF else (text, t)

    def element(self, e, cls):
        """``a[i]`` of an array of structs, its leaves: of an array with an adjoint, each
        float field's a load of its own, whose reverse adds to that field's entries."""
        d = self.d
        name, index = self.read(e)
        tmp = d.fresh("st")
        self.nodes.append(_Plain("%s = %s[%s]" % (tmp, name, index)))
        out = {}
        for path, ft, off in leaf_offsets(cls):
            t = d.field_type(ft)
            if name in d.struct_grads and t in DIFF:
                out[path] = self.field_load(name, index, path, off, t)
            else:
                out[path] = self.field_of("%s.%s" % (tmp, path), t)
        return out

    def leaf(self, e):
        """Field read ``e`` (``p.vel``, ``p.inner.w``, ``a[i].mass``) of a struct local (its
        field's value) or of an element of an array of structs with an adjoint (a load of
        that field alone): (text, type); ``None`` for any other struct's."""
        d = self.d
        path, base = [], e
        while type(base) is ast.Attribute and self.ty(base.value) in d.structs:
            path.append(base.attr)
            base = base.value
        path = ".".join(reversed(path))
        if type(base) is ast.Name:
            v = self.env.get(base.id)
            if v is None or v[0] != _STRUCT:
                return None
            key = "%s.%s" % (base.id, path)
            return self.env[key] if key in self.env else self.sub_struct(e)
        name = self.struct_array(base.value) if type(base) is ast.Subscript else None
        if name is None:
            return None
        at = [(ft, off) for p, ft, off in leaf_offsets(d.struct_grads[name]) if p == path]
        if not at:
            return self.sub_struct(e)
        _, index = self.read(base)
        ft, off = at[0]
        t = d.field_type(ft)
        if t not in DIFF:
            return "%s[%s].%s" % (name, index, path), t
        return self.field_load(name, index, path, off, t)

    def sub_struct(self, e):
        """A struct in a struct local or in an element of an array of structs with an
        adjoint (``p.inner``), used whole in text: ``S(...)`` of its fields' values, refused
        where a field carries an adjoint (``whole_of``)."""
        t = self.ty(e)
        return self.whole_of(self.struct_val(e), self.d.structs[t], e), t

    def field_load(self, name, index, path, off, t):
        """The load of float field ``path`` (at byte ``off`` of the element, of type ``t``) of
        element ``index`` of array of structs ``name``, whose reverse adds to its entries."""
        var = self.d.fresh("fld")
        self.nodes.append(_Load(var, t, name, index, (path, off // 4, t)))
        return var, t

    def bind_struct(self, env, name, leaves, cls, node):
        """``name`` (in ``env``) a struct local of class ``cls`` holding ``leaves``: each
        field a local of its own, ``name.path``, held as the field's type."""
        d = self.d
        env[name] = (_STRUCT, d.type_of(cls))
        for path, ft, _ in leaf_offsets(cls):
            key = "%s.%s" % (name, path)
            txt, vt = leaves[path]
            want = d.type_of(ft)
            if want in DIFF:
                env[key] = self.bind(key, txt, vt, want, None, node)
            elif want in ("int", "bool") and not (txt.isidentifier() and vt == want):
                var = d.fresh(key)
                kind = "bool" if want == "bool" else S + getattr(ft, "name", "i32")
                self.nodes.append(_Plain("%s = %s(%s)" % (var, kind, txt)))  # (held as the field's type)
                if kind == S + "i32":
                    d.i32.add(var)
                env[key] = (var, want)
            else:
                env[key] = (txt, vt)

    def whole_of(self, leaves, cls, e):
        """A struct used whole (in an expression the differentiator keeps as text): ``S(...)``
        of its fields, where no field has an adjoint."""
        d = self.d
        for txt, t in leaves.values():
            if t in DIFF and txt.startswith(d.prefix):
                raise d.error(e, "`%s` is used whole here, where the adjoints of its float fields would be lost: use its fields (or pass it to a func, which is inlined)" % ast.unparse(e))
        return self.made_text(leaves, cls, e)

    def made_text(self, leaves, cls, node, pre=""):
        """``S(...)`` of a struct's ``leaves``, by the name the kernel's file gives ``S``."""
        d = self.d
        names = [k for k, v in d.globals.items() if v is cls]
        if not names:
            raise d.error(node, "struct `%s` is not a name of the kernel's file" % cls.__name__)
        args = []
        for field, ft in layout(cls).fields:
            if isinstance(ft, StructType):
                args.append(self.made_text(leaves, ft, node, pre + field + "."))
            else:
                args.append(leaves[pre + field][0])
        return "%s(%s)" % (names[0], ", ".join(args))

    def struct_store(self, target, value, kind, s, name):
        """``a[i] = value`` into an array of structs: into one with an adjoint, each float
        field a store of its own (of the field's value, which passes its adjoint on); into a
        shared or local one, the struct made of its fields (which have no adjoints)."""
        d = self.d
        if kind != "set":
            raise d.error(s, "an augmented assignment to a struct")
        index = self.index(target.slice)
        d.writes.setdefault(name, s)
        cls = d.structs[d.arrays[name][0]]
        leaves = self.struct_val(value)
        self.touch(name, "store", s)
        if name in d.memory:
            for txt, t in leaves.values():
                if t in DIFF and txt.startswith(d.prefix):
                    raise d.error(s, "a struct of values with gradients stored to a shared or local array, whose elements carry no adjoint")
            self.nodes.append(_Store(name, index, None, d.arrays[name][0], "set", self.made_text(leaves, cls, s)))
            return
        if name not in d.struct_grads:
            return
        for path, ft, off in leaf_offsets(cls):
            t = d.field_type(ft)
            if t == "float-other" and leaves[path][1] in DIFF and leaves[path][0].startswith(d.prefix):
                raise d.error(s, "field `%s` of `%s` is not differentiable yet (an f64 field of an array of structs, or one of its vectors or matrices, has no place in its flat f32 adjoint)" % (path, name))
            if t in DIFF:
                v, vt = leaves[path]
                if vt in DIFF and vt != t:
                    raise d.error(s, "a %s for field `%s`, a %s" % (vt, path, t))
                self.nodes.append(_Store(name, index, v if vt in DIFF else None, vt, "set", field=(path, off // 4, t)))

    def struct_args(self, call, cls):
        """A struct's making ``S(...)``: each field's argument, by name."""
        fields = [n for n, _ in layout(cls).fields]
        args = dict(zip(fields, call.args))
        for k in call.keywords:
            if k.arg not in fields or k.arg in args:
                raise self.d.error(call, "`%s` is given twice or is not a field of `%s`" % (k.arg, cls.__name__))
            args[k.arg] = k.value
        if len(call.args) > len(fields) or len(args) != len(fields):
            raise self.d.error(call, "`%s(...)` in a differentiated kernel gives every field, by position or by name" % cls.__name__)
        return args

    def text(self, e):
        """``e`` as replay text over the versioned names (a value without an adjoint)."""
        out = []
        self.emit(e, out)
        return "".join(out)

    def check(self, sub):
        """What a value without an adjoint may not hold, and the array reads it makes."""
        k = type(sub)
        if k is not ast.Name and k is not ast.Subscript and k is not ast.Call and k is not ast.NamedExpr:
            return
        d = self.d
        arrays = self.arrays
        if k is ast.Name:
            if type(sub.ctx) is ast.Load and sub.id not in self.env and sub.id not in arrays \
                    and d.global_value(sub.id) is _MISSING and sub.id not in _BUILTINS:
                raise d.error(sub, "`%s` is not assigned on every path to here" % sub.id)
        elif k is ast.NamedExpr:
            raise d.error(sub, "an assignment expression (`:=`); assign on a line of its own")
        elif k is ast.Subscript:
            if type(sub.value) is ast.Name and sub.value.id in arrays:
                if arrays[sub.value.id] in d.memory:
                    d.valued.add(arrays[sub.value.id])
                if arrays[sub.value.id] in d.struct_grads:
                    raise d.error(sub, "an element of `%s` (an array of structs with gradients) used whole here, where its fields' gradients would be lost: read the fields it needs (`%s.field`)"
                                  % (sub.value.id, ast.unparse(sub)))
                d.reads.setdefault(arrays[sub.value.id], sub)
                self.touch(arrays[sub.value.id], "load", sub)
        else:
            kind, name = d.callee(sub)
            if kind == "func":
                if d.writes_arrays(name):
                    raise d.error(sub, "`%s` writes arrays and its result is used inside an expression; call it on a line of its own" % name.__name__)
                for a in sub.args:
                    if isinstance(a, ast.Name) and a.id in arrays:
                        d.reads.setdefault(arrays[a.id], sub)
                        self.touch(arrays[a.id], "load", sub)
            elif kind == "lib" and name.startswith("atomic_"):
                raise d.error(sub, "the result of `%s` is used: the backward pass replays the kernel without its writes, so it cannot know what the atomic returned" % name)
            elif kind == "lib" and name in ("shared_array", "local_array", "barrier", "randf", "randn", "randi", "randu", "rand_init"):
                raise d.error(sub, "`%s` in a differentiated kernel is not supported yet" % name)

    def emit(self, e, out):
        """Appends the text of ``e`` to ``out`` (an operand that is not an atom in
        parentheses), checking each node; what it does not know, through ``ast.unparse``."""
        self.check(e)
        k = type(e)
        if k is ast.Name:
            v = self.env.get(e.id)
            if v is not None and v[0] == _STRUCT:
                out.append(self.whole_of(self.struct_val(e), self.d.structs[v[1]], e))
            else:
                out.append(v[0] if v is not None else self.arrays.get(e.id, e.id))
        elif k is ast.Constant and (type(e.value) in (int, bool) or e.value is None
                                    or (type(e.value) is float and math.isfinite(e.value))):
            out.append(repr(e.value))
        elif k is ast.BinOp and type(e.op) in _BINOPS:
            self.operand(e.left, out)
            out.append(_BINOPS[type(e.op)])
            self.operand(e.right, out)
        elif k is ast.UnaryOp:
            out.append(_UNARY[type(e.op)])
            self.operand(e.operand, out)
        elif k is ast.Compare and all(type(op) in _COMPARE for op in e.ops):
            self.operand(e.left, out)
            for op, c in zip(e.ops, e.comparators):
                out.append(_COMPARE[type(op)])
                self.operand(c, out)
        elif k is ast.BoolOp:
            for j, v in enumerate(e.values):
                if j:
                    out.append(" and " if isinstance(e.op, ast.And) else " or ")
                self.operand(v, out)
        elif k is ast.IfExp:
            self.operand(e.body, out)
            out.append(" if ")
            self.operand(e.test, out)
            out.append(" else ")
            self.operand(e.orelse, out)
        elif k is ast.Attribute:
            field = self.leaf(e) if self.ty(e.value) in self.d.structs else None
            if field is not None:
                out.append(_paren(field[0]))  # a struct local's field, an element's read
            else:
                self.operand(e.value, out, type(e.value) is not ast.Constant)
                out.append("." + e.attr)
        elif k is ast.Subscript and type(e.slice) is not ast.Slice:
            self.operand(e.value, out)
            out.append("[")
            parts = e.slice.elts if type(e.slice) is ast.Tuple else (e.slice,)
            for j, p in enumerate(parts):
                if j:
                    out.append(", ")
                self.operand(p, out, type(p) is not ast.Tuple)
            out.append("]")
        elif k is ast.Call and not any(type(a) is ast.Starred for a in e.args) and all(w.arg for w in e.keywords):
            self.operand(e.func, out)
            out.append("(")
            for j, a in enumerate(e.args):
                if j:
                    out.append(", ")
                self.operand(a, out, type(a) is not ast.Tuple)
            for j, w in enumerate(e.keywords):
                out.append("%s%s=" % (", " if j or e.args else "", w.arg))
                self.operand(w.value, out, type(w.value) is not ast.Tuple)
            out.append(")")
        elif k is ast.Tuple:
            out.append("(")
            for j, v in enumerate(e.elts):
                if j:
                    out.append(", ")
                self.operand(v, out, type(v) is not ast.Tuple)
            out.append(",)" if len(e.elts) == 1 else ")")
        else:
            out.append(self.unparsed(e))

    def operand(self, e, out, bare=False):
        """``e`` as an operand: in parentheses unless it is an atom (or ``bare``)."""
        if bare or type(e) in _ATOMS:
            self.emit(e, out)
        else:
            out.append("(")
            self.emit(e, out)
            out.append(")")

    def unparsed(self, e):
        """The text of an expression ``emit`` does not write itself, checked node by node,
        through ``ast.unparse`` with the names renamed in place, then restored (the tree is
        shared)."""
        env, arrays = self.env, self.arrays
        names = []
        for sub in ast.walk(e):
            if sub is not e:
                self.check(sub)
            if isinstance(sub, ast.Name):
                names.append(sub)
        renamed = []
        for sub in names:
            new = env[sub.id][0] if sub.id in env else arrays.get(sub.id)
            if new == _STRUCT:
                raise self.d.error(sub, "`%s`, a struct, is used whole in `%s`, which is not differentiable yet: use its fields" % (sub.id, ast.unparse(e)))
            if new is not None:
                renamed.append((sub, sub.id))
                sub.id = new
        try:
            return ast.unparse(e)
        finally:
            for sub, old in renamed:
                sub.id = old

    def let(self, base, t, text, rules):
        var = self.d.fresh(base)
        self.nodes.append(_Let(var, t, text, rules))
        return var, t

    def diff(self, e, t):
        d = self.d
        if isinstance(e, ast.Name):
            if e.id in self.env:
                return self.env[e.id][0], t
            return self.let("k", t, "%s%s(%s)" % (S, t, e.id), [])  # a module constant
        if isinstance(e, ast.BinOp):
            return self.binop(e, t)
        if isinstance(e, ast.UnaryOp):
            a, at = self.val(e.operand)
            if isinstance(e.op, ast.USub):
                return self.let("neg", t, "-" + _paren(a), [(a, at, "-" + G)])
            if isinstance(e.op, ast.UAdd):
                return (a, at) if at == t else self.let("f", t, "%s%s(%s)" % (S, t, a), [])
        if isinstance(e, ast.IfExp):
            return self.ifexp(e, t)
        if isinstance(e, ast.BoolOp) and t in SCALARS:
            return self.ifexp(_chosen(e), t)
        if isinstance(e, ast.Attribute):
            if self.ty(e.value) in d.structs:
                field = self.leaf(e)
                if field is not None:
                    return field
                base = e.value
                while type(base) is ast.Attribute and self.ty(base.value) in d.structs:
                    base = base.value
                if type(base) is ast.Call:
                    # A field of a struct a func returns or `S(...)` makes: its value there.
                    return self.struct_val(e.value)[e.attr]
                # A field of any other struct: a value without an adjoint (a uniform's, an
                # element of an array without one).
                return self.let("field", t, self.text(e), [])
            v, vt = self.val(e.value)
            if len(e.attr) == 1:
                return self.component(v, vt, "xyzw".index(e.attr))
            return self.swizzle(v, vt, e.attr, t)
        if isinstance(e, ast.Subscript):
            bt = self.ty(e.value)
            if isinstance(bt, tuple):
                return self.load(e, t)
            if bt == "table-f":
                return self.let("tab", t, self.text(e), [])
            if bt in FLOAT_VECS:
                k = _const_int(d, e.slice)
                if k is None:
                    raise d.error(e, "a vector component at a run-time index; use .x/.y/.z/.w or a constant")
                v, vt = self.val(e.value)
                return self.component(v, vt, k % _size(vt))
            if bt in MATS:
                return self.matrix_index(e, t)
        if isinstance(e, ast.Call):
            return self.call(e, t)
        raise d.error(e, "`%s` is not differentiable yet" % ast.unparse(e))

    def matrix_index(self, e, t):
        """``m[i, j]`` (an entry) or ``m[i]`` (a row), the indices constants or ints: the
        adjoint goes to that entry or row (negative indices count from the end)."""
        d = self.d
        m, mt = self.val(e.value)
        n = _size(mt)
        idx = []
        for p, (txt, pt) in zip(_index_parts(e.slice), self.index_parts(e.slice)):
            if pt not in ("int", "litint"):
                raise d.error(p, "a matrix index that is not an int")
            idx.append(txt)
        var = d.fresh("m")
        text = "%s[%s]" % (_paren(m), ", ".join(idx))
        hit = lambda k, r: "(%s == %d or %s == %d)" % (k, r, k, r - n)
        if len(idx) == 2:
            rule = _entries(mt, lambda r, c: "%s if %s and %s else 0.0" % (G, hit(idx[0], r), hit(idx[1], c)))
        else:
            rows = ", ".join("%s if %s else %s" % (G, hit(idx[0], r), _zero(_row(mt))) for r in range(n))
            rule = "%s%s(%s)" % (S, mt, rows)
        self.nodes.append(_Let(var, t, text, [(m, mt, rule, mt)]))
        return var, t

    def component(self, v, vt, k):
        back = ", ".join(G if i == k else "0.0" for i in range(_size(vt)))
        return self.let("c", _scalar(vt), "%s.%s" % (_paren(v), "xyzw"[k]), [(v, vt, "%s%s(%s)" % (S, vt, back))])

    def swizzle(self, v, vt, attr, t):
        # The adjoint of a read swizzle: each component's adjoint goes back to its source.
        parts = []
        for i in range(_size(vt)):
            picks = ["%s.%s" % (G, "xyzw"[j]) for j, c in enumerate(attr) if c == "xyzw"[i]]
            parts.append(" + ".join(picks) if picks else "0.0")
        return self.let("sw", t, "%s.%s" % (_paren(v), attr), [(v, vt, "%s%s(%s)" % (S, vt, ", ".join(parts)))])

    def binop(self, e, t):
        d = self.d
        a, at = self.val(e.left)
        b, bt = self.val(e.right)
        sym = _FLOAT_OPS.get(type(e.op))
        if sym is None:
            raise d.error(e, "`%s` on floats is not differentiable" % ast.unparse(e))
        var = d.fresh("t")
        pa, pb = _paren(a), _paren(b)
        if sym == "+":
            rules = [(a, at, G), (b, bt, G)]
        elif sym == "-":
            rules = [(a, at, G), (b, bt, "-" + G)]
        elif sym == "@":
            tr = lambda x: "%stranspose(%s)" % (S, x)
            if at in MATS and bt in MATS:
                rules = [(a, at, "%s @ %s" % (G, tr(b))), (b, bt, "%s @ %s" % (tr(a), G))]
            elif at in MATS:
                rules = [(a, at, "%souter(%s, %s)" % (S, G, b)), (b, bt, "%s @ %s" % (G, a))]
            else:
                rules = [(a, at, "%s @ %s" % (b, G)), (b, bt, "%souter(%s, %s)" % (S, a, G))]
        elif t in MATS and sym in ("*", "/"):
            # A matrix by a number: the number's adjoint sums the entries' products.
            mat, num = (a, b) if at in MATS else (b, a)
            mt, nt = (at, bt) if at in MATS else (bt, at)
            if sym == "*":
                rules = [(mat, mt, "%s * %s" % (G, _paren(num))), (num, nt, "(%s)" % _frobenius(G, mat, mt), _scalar(mt))]
            else:
                rules = [(a, at, "%s / %s" % (G, pb)), (b, bt, "-(%s) / %s" % (_frobenius(G, var, t), pb), _scalar(t))]
        elif sym == "*" and at == bt == "quat":
            # The Hamilton product: right (left) multiplication's adjoint is by the conjugate.
            rules = [(a, at, "%s * %squat_inverse(%s)" % (G, S, b)), (b, bt, "%squat_inverse(%s) * %s" % (S, a, G))]
        elif sym == "*":
            rules = [(a, at, "%s * %s" % (G, pb)), (b, bt, "%s * %s" % (G, pa))]
        elif sym == "/":
            rules = [(a, at, "%s / %s" % (G, pb)), (b, bt, "-%s * %s / %s" % (G, var, pb))]
        elif sym == "//":
            rules = []  # piecewise constant
        elif sym == "%":
            if t not in SCALARS:
                raise d.error(e, "`%` on float vectors is not differentiable yet")
            rules = [(a, at, G), (b, bt, "-%s * (%s // %s)" % (G, pa, pb))]
        else:
            if t not in SCALARS:
                raise d.error(e, "`**` on vectors is not differentiable yet")
            n = e.right.value if isinstance(e.right, ast.Constant) and type(e.right.value) is int else None
            if n is not None:
                # x ** n with a literal int n (repeated multiplication): n * x ** (n - 1).
                rules = [(a, at, "%s * %d.0 * %s ** %d" % (G, n, pa, n - 1) if n != 1 else G)]
            else:
                ra, rb = MATH2["pow"]
                rules = [(a, at, _rule(ra, t, a=a, b=b, r=var)), (b, bt, _rule(rb, t, a=a, b=b, r=var))]
        self.nodes.append(_Let(var, t, "%s %s %s" % (pa, sym, pb), rules))
        return var, t

    def cond(self, test):
        c = self.d.fresh("c")
        self.nodes.append(_Plain("%s = %s" % (c, self.text(test))))
        return c

    def ifexp(self, e, t):
        cond = self.cond(e.test)
        out = self.d.fresh("sel")
        then, other = self.sub(), self.sub()
        # (a literal side of an f64 choice is an f64, as the language takes it: the merged
        # name's first assignment fixes its type)
        typed = lambda v: "%sf64(%s)" % (S, v[0]) if t == "f64" and v[1] in ("litfloat", "litint") else v[0]
        a = typed(then.val(e.body))
        b = typed(other.val(e.orelse))
        self.nodes.append(_If(cond, then.nodes, other.nodes, [(out, t, a, b)]))
        return out, t

    def load(self, e, t):
        d = self.d
        if not (isinstance(e.value, ast.Name) and e.value.id in self.arrays):
            raise d.error(e, "a read of `%s`: only array parameters are differentiable yet" % ast.unparse(e.value))
        name, index = self.read(e)
        var = d.fresh("ld")
        self.nodes.append(_Load(var, t, name, index))
        return var, t

    def read(self, e):
        """``a[i]``, a read of an array parameter or of a shared or local array: (the
        array, the index as the replay computed it), the read logged."""
        name = self.arrays[e.value.id]
        index = self.index(e.slice)
        self.d.reads.setdefault(name, e)
        self.touch(name, "load", e)
        return name, index

    def index(self, s):
        """An index as the names (or literals) the replay computed it into."""
        return ", ".join(txt for txt, _ in self.index_parts(s))

    def index_parts(self, s):
        """Each part of an index (one, or a tuple's) as (a name or literal the replay
        computed it into, its type)."""
        out = []
        for p in _index_parts(s):
            txt, pt = self.val(p)
            if pt in DIFF or pt == "litfloat":
                raise self.d.error(p, "a float index")
            if not (isinstance(p, ast.Constant) or isinstance(p, ast.Name)):
                k = self.d.fresh("i")
                self.nodes.append(_Plain("%s = %s" % (k, txt)))
                txt = k
            out.append((txt, pt))
        return out

    def call(self, e, t):
        d = self.d
        kind, name = d.callee(e)
        if e.keywords:
            raise d.error(e, "keyword arguments in a differentiated call")
        if kind == "func":
            return self.inline(e)
        args = [self.val(a) for a in e.args]
        names = [a for a, _ in args]
        text = "%s(%s)" % (_callee_text(e.func), ", ".join(names))
        var = d.fresh(name if name.isidentifier() else "call")
        rules = None
        if kind == "math":
            if name in MATH1 and len(args) == 1:
                rules = [(names[0], args[0][1], _rule(MATH1[name], t, a=names[0], r=var))]
            elif name in MATH2 and len(args) == 2:
                ra, rb = MATH2[name]
                rules = [(names[0], args[0][1], _rule(ra, t, a=names[0], b=names[1], r=var))]
                if rb is not None:
                    rules.append((names[1], args[1][1], _rule(rb, t, a=names[0], b=names[1], r=var)))
            elif name == "log" and len(args) == 2:
                rules = [(names[0], args[0][1], _rule("{G} / ({a} * {M}log({b}))", t, a=names[0], b=names[1])),
                         (names[1], args[1][1], _rule("-{G} * {r} / ({b} * {M}log({b}))", t, b=names[1], r=var))]
            else:
                raise d.error(e, "math.%s is not differentiable yet" % name)
        elif name in ("float", "f32", "f64") and len(args) == 1:
            a, at = args[0]
            to = "f64" if name == "f64" else "f32"
            if at == to:
                return args[0]
            # f32 to f64 and back: the adjoint converted back (an int has none).
            rules = [(a, at, "%s%s(%s)" % (S, at, G))] if at in SCALARS else []
        elif name in FLOAT_VECS:
            return self.construct(name, args, text, e)
        elif name in MATS:
            return self.construct_matrix(name, args, text, e)
        elif name == "transpose" and len(args) == 1:
            rules = [(names[0], args[0][1], "%stranspose(%s)" % (S, G))]
        elif name == "determinant" and len(args) == 1:
            m, mt = args[0]
            m3 = _mat(3, _scalar(mt))
            if _size(mt) == 2:
                cof = "%s%s(%s[1, 1], -%s[1, 0], -%s[0, 1], %s[0, 0])" % (S, mt, m, m, m, m)
            elif _size(mt) == 3:
                cof = "%s%s(%scross(%s[1], %s[2]), %scross(%s[2], %s[0]), %scross(%s[0], %s[1]))" % (S, mt, S, m, m, S, m, m, S, m, m)
            else:
                # Each entry's cofactor: the signed determinant of the 3x3 minor without its
                # row and column.
                def minor(r, c):
                    rest = ["%s[%d, %d]" % (m, i, j) for i in range(4) if i != r for j in range(4) if j != c]
                    return "%s%sdeterminant(%s%s(%s))" % ("-" if (r + c) % 2 else "", S, S, m3, ", ".join(rest))
                cof = "%s%s(%s)" % (S, mt, ", ".join(minor(r, c) for r in range(4) for c in range(4)))
            rules = [(m, mt, "%s * %s" % (G, cof), mt)]
        elif name == "inverse" and len(args) == 1:
            m, mt = args[0]
            rules = [(m, mt, "-(%stranspose(%s) @ %s @ %stranspose(%s))" % (S, var, G, S, var))]
        elif name == "outer" and len(args) == 2:
            (u, ut), (v, vt) = args
            rules = [(u, ut, "%s @ %s" % (G, v), ut), (v, vt, "%s @ %s" % (u, G), vt)]
        elif name == "diag" and len(args) == 1:
            v, vt = args[0]
            rules = [(v, vt, "%s%s(%s)" % (S, vt, ", ".join("%s[%d, %d]" % (G, k, k) for k in range(_size(vt)))), vt)]
        elif name in ("identity", "quat_identity"):
            rules = []
        elif name in SUBGROUP_RULES and len(args) >= 1:
            # Over the subgroup's lanes: what the adjoints need is computed by every lane
            # (subgroup operations over the result's adjoints) before any lane takes its share.
            a, at = args[0]
            first, rule = SUBGROUP_RULES[name] or _minmax_lanes(at, a, var)
            sums = [d.fresh("lanes_g") for _ in first]
            fill = dict(S=S, G=G, s=sums, lane=names[1] if len(names) > 1 else None, zero=_zero(at))
            pre = ["%s = %s" % (v, op.format(**fill)) for v, op in zip(sums, first)]
            self.nodes.append(_Let(var, t, text, [(a, at, rule.format(**fill))], pre))
            return var, t
        elif name == "quat_inverse" and len(args) == 1:
            rules = [(names[0], args[0][1], "%squat_inverse(%s)" % (S, G))]
        elif name == "quat_from_axis_angle" and len(args) == 2:
            (a, at), (h, ht) = args
            half = "%s * 0.5" % _paren(h)
            rules = [(a, at, "%s.xyz * %ssin(%s)" % (G, M, half), "vec3"),
                     (h, ht, "0.5 * (%sdot(%s.xyz, %s) * %scos(%s) - %s.w * %ssin(%s))" % (S, G, a, M, half, G, M, half), "f32")]
        elif name in ("quat_rotate", "quat_rotate_inv") and len(args) == 2:
            (q, qt), (x, xt) = args
            sign = "+" if name == "quat_rotate" else "-"
            rules = [(q, qt, _rotate_q_adjoint(q, x, G, sign), "quat"), (x, xt, _rotate_x_adjoint(q, G, sign), "vec3")]
        elif name == "quat_to_matrix" and len(args) == 1:
            q, qt = args[0]
            # Column c is quat_rotate(q, e_c); its adjoint is column c of G.
            cols = []
            for c in range(3):
                e_c = "%svec3(%s)" % (S, ", ".join("1.0" if k == c else "0.0" for k in range(3)))
                g_c = "%svec3(%s[0, %d], %s[1, %d], %s[2, %d])" % (S, G, c, G, c, G, c)
                cols.append(_rotate_q_adjoint(q, e_c, g_c, "+"))
            rules = [(q, qt, " + ".join("(%s)" % c for c in cols), "quat")]
        elif name == "abs" and len(args) == 1:
            a, at = args[0]
            if at in SCALARS:
                rules = [(a, at, "%s if %s >= 0.0 else -%s" % (G, a, G))]
            else:
                one = _one(at)
                sign = ", ".join("%s if %s.%s >= 0.0 else -1.0" % (one, a, c) for c in "xyzw"[:_size(at)])
                rules = [(a, at, "%s * %s%s(%s)" % (G, S, at, sign))]
        elif name in ("min", "max") and len(args) >= 2:
            return self.minmax(name, args, t)
        elif name == "clamp" and len(args) == 3:
            # clamp(x, lo, hi): x where lo <= x <= hi, else the bound it is held at.
            (x, xt), (lo, lt), (hi, ht) = args
            rules = self.clamp_rules(x, xt, lo, lt, hi, ht, t)
        elif name == "dot" and len(args) == 2:
            (a, at), (b, bt) = args
            rules = [(a, at, "%s * %s" % (G, b)), (b, bt, "%s * %s" % (G, a))]
        elif name == "cross" and len(args) == 2:
            (a, at), (b, bt) = args
            rules = [(a, at, "%scross(%s, %s)" % (S, b, G)), (b, bt, "%scross(%s, %s)" % (S, G, a))]
        elif name == "length" and len(args) == 1:
            a, at = args[0]
            rules = [(a, at, "%s * %s / %s if %s > 0.0 else %s" % (G, a, var, var, _zero(at)))]
        elif name == "distance" and len(args) == 2:
            (a, at), (b, bt) = args
            delta = "(%s - %s)" % (a, b)
            rules = [(a, at, "%s * %s / %s if %s > 0.0 else %s" % (G, delta, var, var, _zero(at))),
                     (b, bt, "-%s * %s / %s if %s > 0.0 else %s" % (G, delta, var, var, _zero(bt)))]
        elif name == "normalize" and len(args) == 1:
            a, at = args[0]
            n = "%slength(%s)" % (S, a)
            rules = [(a, at, "(%s - %s * %sdot(%s, %s)) / %s if %s > 0.0 else %s" % (G, var, S, G, var, n, n, _zero(at)))]
        elif name == "mix" and len(args) == 3:
            (a, at), (b, bt), (w, wt) = args
            rules = [(a, at, "%s * (1.0 - %s)" % (G, _paren(w))), (b, bt, "%s * %s" % (G, _paren(w))),
                     (w, wt, "%s * (%s - %s)" % (G, _paren(b), _paren(a)))]
        elif name == "step" and len(args) == 2:
            rules = []
        elif name == "smoothstep" and len(args) == 3 and t in SCALARS:
            (e0, _), (e1, _), (x, xt) = args
            u = "((%s - %s) / (%s - %s))" % (x, e0, e1, e0)
            rules = [(x, xt, "%s * 6.0 * %s * (1.0 - %s) / (%s - %s) if 0.0 < %s < 1.0 else %s"
                      % (G, u, u, e1, e0, u, _zero(t)))]
        if rules is None:
            raise d.error(e, "`%s` is not differentiable yet" % ast.unparse(e.func))
        self.nodes.append(_Let(var, t, text, rules))
        return var, t

    def clamp_rules(self, x, xt, lo, lt, hi, ht, t):
        # clamp(x, lo, hi) is min(max(x, lo), hi): m = x where x >= lo, else lo; the
        # result is m where m <= hi, else hi (per component on vectors).
        def masks(cx, clo, chi):
            m = "(%s if %s >= %s else %s)" % (cx, cx, clo, clo)
            return ("%s >= %s and %s <= %s" % (cx, clo, m, chi), "%s < %s and %s <= %s" % (cx, clo, m, chi),
                    "not %s <= %s" % (m, chi))
        if t in SCALARS:
            return [(v, vt, "%s if %s else %s" % (G, cond, _zero(t))) for (v, vt), cond in zip(((x, xt), (lo, lt), (hi, ht)), masks(x, lo, hi))]
        comps = "xyzw"[:_size(t)]
        c = lambda v, vt, k: "%s.%s" % (v, k) if vt in FLOAT_VECS else v
        per = [masks(c(x, xt, k), c(lo, lt, k), c(hi, ht, k)) for k in comps]
        out = []
        for w, (v, vt) in enumerate(((x, xt), (lo, lt), (hi, ht))):
            mask = "%s%s(%s)" % (S, t, ", ".join("%s if %s else 0.0" % (_one(t), m[w]) for m in per))
            out.append((v, vt, "%s * %s" % (G, mask)))
        return out

    def minmax(self, name, args, t):
        # Python's min and max return the first of equal arguments: it takes the adjoint.
        cmp = "<=" if name == "min" else ">="
        cur = args[0]
        for nxt in args[1:]:
            (a, at), (b, bt) = cur, nxt
            if t in FLOAT_VECS:
                ca = lambda k: "%s.%s" % (a, k) if at in FLOAT_VECS else a
                cb = lambda k: "%s.%s" % (b, k) if bt in FLOAT_VECS else b
                mask = "%s%s(%s)" % (S, t, ", ".join("%s if %s %s %s else 0.0" % (_one(t), ca(k), cmp, cb(k)) for k in "xyzw"[:_size(t)]))
                rules = [(a, at, "%s * %s" % (G, mask)), (b, bt, "%s * (1.0 - %s)" % (G, mask))]
            else:
                rules = [(a, at, "%s if %s %s %s else %s" % (G, a, cmp, b, _zero(t))),
                         (b, bt, "%s if %s %s %s else %s" % (_zero(t), a, cmp, b, G))]
            cur = self.let(name, t, "%s(%s, %s)" % (name, a, b), rules)
        return cur

    def construct(self, name, args, text, e):
        if len(args) == 1 and args[0][1] == name:
            return args[0]
        if len(args) == 1:
            a, at = args[0]
            return self.let("splat", name, text, [(a, at, G)])  # summed over the components
        rules, k = [], 0
        for a, at in args:
            if at in FLOAT_VECS:
                w = _size(at)
                rules.append((a, at, "%s%s(%s)" % (S, at, ", ".join("%s.%s" % (G, "xyzw"[k + i]) for i in range(w)))))
            else:
                w = 1
                rules.append((a, at, "%s.%s" % (G, "xyzw"[k]), _scalar(name)))
            k += w
        if k != _size(name):
            raise self.d.error(e, "a %s from %d components" % (name, k))
        return self.let(name, name, text, rules)

    def construct_matrix(self, name, args, text, e):
        n = _size(name)
        if len(args) == 1 and args[0][1] == name:
            return args[0]
        if len(args) == n and all(at == _row(name) for _, at in args):
            rules = [(a, at, "%s[%d]" % (G, k), at) for k, (a, at) in enumerate(args)]
        elif len(args) == n * n and all(at not in FLOAT_VECS and at not in MATS for _, at in args):
            rules = [(a, at, "%s[%d, %d]" % (G, k // n, k % n), _scalar(name)) for k, (a, at) in enumerate(args)]
        else:
            raise self.d.error(e, "this %s constructor is not differentiable yet (rows, or all %d numbers, are)" % (name, n * n))
        return self.let(name, name, text, rules)

    # ----- funcs: inlined, their parameters bound as the call converts them

    def own_adjoint(self, e, fn, grad):
        """A call of a func with its own adjoint (``@func(grad=...)``): the call in the
        replay, and the adjoint func's results added to the float arguments' adjoints."""
        d = self.d
        if d.writes_arrays(fn):
            raise d.error(e, "`%s` has its own adjoint and writes arrays: the replay would write them again" % fn.__name__)
        if d.global_value(grad.__name__) is not grad or getattr(grad, "__wrapped__", grad).__code__.co_filename != d.path:
            raise d.error(e, "the adjoint of `%s`, `%s`, is not a func of this file under that name" % (fn.__name__, grad.__name__))
        if e.keywords:
            raise d.error(e, "call of `%s`: pass each argument by position" % fn.__name__)
        args = [self.val(a) for a in e.args]
        if any(isinstance(t, tuple) for _, t in args):
            raise d.error(e, "`%s` has its own adjoint and takes an array" % fn.__name__)
        t = _settle(self.call_type(e))
        var = d.fresh(fn.__name__)
        # The adjoint func returns one adjoint per float parameter of the func, in order.
        hints = _hints(fn)
        params = _func_tree(d, fn, e).args.args
        if len(params) != len(args):
            raise d.error(e, "call of `%s` with %d arguments for %d parameters" % (fn.__name__, len(args), len(params)))
        floats = [k for k, p in enumerate(params)
                  if (d.type_of(hints[p.arg]) if p.arg in hints else _settle(args[k][1])) in DIFF]
        outs = [d.fresh("own_g") for _ in floats]
        pre = ["%s = %s(%s, %s)" % (", ".join(outs), grad.__name__, ", ".join(a for a, _ in args), G)] if floats else []
        rules = [(args[k][0], args[k][1], out, args[k][1]) for k, out in zip(floats, outs)]
        self.nodes.append(_Let(var, t, "%s(%s)" % (_callee_text(e.func), ", ".join(a for a, _ in args)), rules, pre))
        return var, t

    def inline(self, e):
        d = self.d
        _, fn = d.callee(e)
        grad = getattr(fn, "__spirthon_grad__", None)
        if grad is not None:
            return self.own_adjoint(e, fn, grad)
        if fn in d.inlining:
            raise d.error(e, "`%s` calls itself" % fn.__name__)
        tree = _func_tree(d, fn, e)
        hints = _hints(fn)
        params = tree.args.args
        if e.keywords or len(e.args) > len(params) or len(e.args) < len(params) - len(tree.args.defaults):
            raise d.error(e, "call of `%s`: pass each argument by position" % fn.__name__)
        values = list(e.args) + tree.args.defaults[len(tree.args.defaults) - (len(params) - len(e.args)):] if len(params) > len(e.args) else list(e.args)
        body = _Body(d, {}, {}, func=fn)
        for p, v in zip(params, values):
            vt = self.ty(v)
            if isinstance(vt, tuple):
                if not (isinstance(v, ast.Name) and v.id in self.arrays):
                    raise d.error(v, "only the kernel's array parameters may be passed to a differentiated func")
                body.arrays[p.arg] = self.arrays[v.id]
                continue
            ann = hints.get(p.arg)
            want = d.type_of(ann) if ann is not None else _settle(vt)
            if want in d.structs:
                self.bind_struct(body.env, p.arg, self.struct_val(v), d.structs[want], v)
                continue
            txt, vt = self.val(v)
            body.env[p.arg] = self.bind(p.arg, txt, vt, want, p.annotation, v)
        d.inlining.append(fn)
        try:
            body.stmts(_tail_returns(d, tree, fn))
        finally:
            d.inlining.pop()
        self.nodes.extend(body.nodes)
        if body.env.get("return", _NONE)[0] == _STRUCT:
            # A struct: its fields (``struct_val``).
            t = body.env["return"][1]
            return {p: body.env["return." + p] for p, _, _ in leaf_offsets(d.structs[t])}, t
        if "return0" in body.env:
            # A tuple: its parts, for the unpacking that called it (``unpack``).
            parts = []
            while "return%d" % len(parts) in body.env:
                parts.append(body.env["return%d" % len(parts)])
            return parts, "tuple"
        if "return" not in body.env:
            return "None", "other"
        return body.env["return"]

    def bind(self, name, txt, vt, want, annotation, node, value=None):
        """A new name for ``txt`` of type ``vt`` held as ``want`` (converted as an
        assignment to an annotated local or parameter converts); ``value``, the source
        expression, tells whether an int is an ``i32``."""
        d = self.d
        var, t = self._bind(name, txt, vt, want, annotation, node)
        if want == "int" and annotation is None and value is not None and self.is_i32(value):
            d.i32.add(var)
        return var, t

    def is_i32(self, e):
        """Whether int expression ``e`` is surely an ``i32``: a literal below 2**31, a thread
        id's component, ``len``, ``local_index``, ``int()``, an ``i32`` name, and arithmetic
        of those."""
        d = self.d
        if isinstance(e, ast.Constant):
            return type(e.value) is int and -2 ** 31 <= e.value < 2 ** 31
        if isinstance(e, ast.Name):
            if e.id in self.env:
                v = self.env[e.id][0]
                return v in d.i32 or (v in d.params and _param_is_i32(d, v))
            return isinstance(d.global_value(e.id), int) and -2 ** 31 <= d.global_value(e.id) < 2 ** 31
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Call) and isinstance(e.value.func, ast.Name):
            return d.callee(e.value) in (("lib", n) for n in ("global_id", "local_id", "workgroup_id", "num_workgroups", "num_threads"))
        if isinstance(e, ast.Call):
            kind, name = d.callee(e)
            return kind == "lib" and name in ("len", "local_index", "int", "i32") or \
                (kind == "lib" and name in ("min", "max", "abs") and all(self.is_i32(a) for a in e.args))
        if isinstance(e, ast.BinOp) and not isinstance(e.op, (ast.Div, ast.MatMult)):
            return self.is_i32(e.left) and self.is_i32(e.right)
        if isinstance(e, ast.UnaryOp) and not isinstance(e.op, ast.Not):
            return self.is_i32(e.operand)
        if isinstance(e, ast.IfExp):
            return self.is_i32(e.body) and self.is_i32(e.orelse)
        return False

    def _bind(self, name, txt, vt, want, annotation, node):
        d = self.d
        if vt == want and (annotation is None or want in DIFF) and txt not in d.mutable \
                and (txt.startswith(d.prefix) or txt in d.params):
            # A copy of a value that never changes (every versioned name but a loop's
            # header and variable is assigned once on each path) is that value; so is a
            # float value held as its own type (an annotation converts ints only).
            return txt, want
        var = d.fresh(name)
        if want in DIFF:
            if vt == want:
                self.nodes.append(_Let(var, want, txt, [(txt, vt, G)]))
            elif vt in DIFF:
                raise d.error(node, "a %s where a %s is expected" % (vt, want))
            else:
                self.nodes.append(_Let(var, want, "%s%s(%s)" % (S, want, txt), []))
        elif want == "float-other":
            raise d.error(node, "f16 and its vectors and matrices are not differentiable yet")
        elif vt in DIFF:
            raise d.error(node, "a %s held as %s: its adjoint would be lost" % (vt, want))
        elif annotation is not None and want == "int":
            self.nodes.append(_Plain("%s = %s(%s)" % (var, ast.unparse(annotation), txt)))
        else:
            self.nodes.append(_Plain("%s = %s" % (var, txt)))
        return var, want

    # ----- statements

    def stmts(self, body):
        for s in body:
            self.stmt(s)

    def stmt(self, s):
        d = self.d
        if isinstance(s, ast.Expr):
            v = s.value
            if isinstance(v, ast.Constant):
                return
            if isinstance(v, ast.Call):
                kind, name = d.callee(v)
                if kind == "lib" and name == "print":
                    return  # the backward pass does not print the forward's lines again
                if kind == "lib" and name.startswith("atomic_"):
                    return self.atomic(v, name)
                if kind == "lib" and name == "barrier":
                    if not self.barriers:
                        raise d.error(s, "a `barrier()` inside a branch or a func of a differentiated kernel is not supported yet; call it at the top level of the kernel or in its loops")
                    self.nodes.append(_Barrier())
                    return
                if kind == "func":
                    self.inline(v)
                    return
            raise d.error(s, "this statement is not differentiable yet")
        if isinstance(s, (ast.Pass, ast.Assert)):
            return
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                raise d.error(s, "a chained assignment; assign one target per line")
            return self.assign_to(s.targets[0], s.value, s, None)
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                raise d.error(s, "a declaration without a value")
            return self.assign_to(s.target, s.value, s, s.annotation)
        if isinstance(s, ast.AugAssign):
            return self.augassign(s)
        if isinstance(s, ast.If):
            return self.if_stmt(s)
        if isinstance(s, ast.For):
            return self.for_stmt(s)
        if isinstance(s, ast.Return) and self.func is not None:
            if isinstance(s.value, ast.Tuple):
                # `return a, b`: each part its own value (`return0`, ...), typed by the
                # annotation's parts (`-> tuple[f32, vec3]`); every part first, as Python does.
                anns = typing.get_args(_hints(self.func).get("return"))
                parts = [self.val(v) for v in s.value.elts]
                for k, (txt, vt) in enumerate(parts):
                    name = "return%d" % k
                    old = self.env.get(name)
                    want = old[1] if old is not None else d.type_of(anns[k]) if k < len(anns) and not _generic(anns[k]) else _settle(vt)
                    self.env[name] = self.bind(name, txt, vt, want, None, s)
            elif s.value is not None:
                ann = _hints(self.func).get("return")
                self.assign_name("return", s.value, s, None, ann)
            return
        if isinstance(s, ast.Return):
            raise d.error(s, "a `return` that is not a guard (`if ...: return` at the top level of the kernel)", leave=True)
        if isinstance(s, ast.While):
            return self.while_stmt(s)
        if isinstance(s, (ast.Break, ast.Continue)):
            # (taken as a flag: the kernel is differentiated again with ``_flag_leaves``)
            raise d.error(s, "a `%s` that does not end a branch of the loop's body" % type(s).__name__.lower(), leave=True)
        raise d.error(s, "this statement is not differentiable yet")

    def assign_to(self, target, value, s, annotation):
        d = self.d
        if isinstance(target, ast.Name):
            ann = _eval_annotation(d, annotation) if annotation is not None else None
            return self.assign_name(target.id, value, s, annotation, ann)
        if isinstance(target, ast.Tuple):
            return self.unpack(target, value, s)
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in self.arrays:
            return self.array_store(target, value, "set", s)
        key = self.local_key(target)
        if key is not None:
            return self.assign_part(target, key, value, s, None)
        raise d.error(s, "an assignment to `%s` is not differentiable yet" % ast.unparse(target))

    def local_key(self, target):
        """The local an assignment to a part of one changes: ``v`` for ``v.x``/``v[1]`` (a
        vector's component), ``p.vel`` for ``p.vel``, ``p.vel.y`` and ``p.vel[1]`` (a struct
        local's field, a local of its own, or its component), else ``None``."""
        d = self.d
        node, component = target, False
        if type(node) is ast.Subscript or (type(node) is ast.Attribute and self.ty(node.value) not in d.structs):
            node, component = node.value, True
        path = []
        while type(node) is ast.Attribute and self.ty(node.value) in d.structs:
            path.append(node.attr)
            node = node.value
        if type(node) is not ast.Name or node.id not in self.env:
            return None
        if path:
            return ".".join([node.id] + path[::-1]) if self.env[node.id][0] == _STRUCT else None
        return node.id if component else None

    def assign_part(self, target, key, value, s, op):
        """``target = value`` (``target op= value``) where ``target`` is a part of local
        ``key``: a field of a struct local (itself a local), or a component of a vector."""
        if self.ty(target) in self.d.structs or (type(target) is ast.Attribute and self.ty(target.value) in self.d.structs):
            if op is not None:
                read = ast.copy_location(_load_copy(target), target)
                value = ast.copy_location(ast.BinOp(left=read, op=op, right=value), target)
            if self.ty(target) in self.d.structs:
                pre = key + "."
                leaves = self.struct_val(value)
                cls = self.d.structs[self.ty(target)]
                for path, ft, _ in leaf_offsets(cls):
                    txt, vt = leaves[path]
                    self.env[pre + path] = self.bind(pre + path, txt, vt, self.env[pre + path][1], None, s)
                return
            txt, vt = self.val(value)
            self.env[key] = self.bind(key, txt, vt, self.env[key][1], None, s)
            return
        return self.component_store(target, key, value, s, op)

    def assign_name(self, name, value, s, annotation, ann):
        d = self.d
        if isinstance(value, ast.Call):
            kind, lib = d.callee(value)
            if kind == "lib" and lib in ("shared_array", "local_array"):
                return self.declare(name, value, lib[:-len("_array")], s)
        t = d.type_of(ann) if ann is not None else self.ty(value)
        if t in d.structs:
            # A struct local: each of its fields a local of its own.
            return self.bind_struct(self.env, name, self.struct_val(value), d.structs[t], s)
        txt, vt = self.val(value)
        old = self.env.get(name)
        want = old[1] if old is not None else self.d.type_of(ann) if ann is not None else _settle(vt)
        self.env[name] = self.bind(name, txt, vt, want, annotation, s, value)
        if want == "int" and type(value) is ast.Attribute and value.attr in ("x", "y", "z") and type(value.value) is ast.Call \
                and not value.value.args and d.callee(value.value) == ("lib", "local_id"):
            d.lid[self.env[name][0]] = value.attr  # (for ``whole``)

    def declare(self, name, call, kind, s):
        """``name = shared_array(T, n)`` or ``local_array(T, n)``: the array, in the replay
        too, and for floats its adjoint (a local one beside it, a shared one zeroed at the
        adjoint kernel's start)."""
        d = self.d
        if len(call.args) != 2 or call.keywords:
            raise d.error(call, "`%s_array` takes the element type and the size" % kind)
        elem = d.type_of(_eval_annotation(d, call.args[0]))
        if elem == "float-other":
            raise d.error(call, "%s arrays of f16, of its vectors or of its matrices are not differentiable yet" % kind)
        size = call.args[1]
        dims = len(size.elts) if isinstance(size, ast.Tuple) else 1
        arr = d.fresh(name)
        d.arrays[arr] = (elem, dims)
        d.memory[arr] = kind
        if dims == 1 and _const_int(d, size) is not None:
            d.sizes[arr] = _const_int(d, size)
        self.arrays[name] = arr
        size_text = ast.unparse(size)
        self.nodes.append(_Declare("%s = %s(%s, %s)" % (arr, ast.unparse(call.func), ast.unparse(call.args[0]), size_text), arr))
        if elem in DIFF:
            adj = arr + "_adj"
            d.memory_adj[arr] = adj
            if kind == "local":
                self.nodes.append(_Declare("%s = %slocal_array(%s%s, %s)" % (adj, S, S, elem, size_text), None))
            else:
                if dims != 1:
                    raise d.error(call, "a multi-dimensional shared array of floats is not differentiable yet")
                d.shared_adj.append((adj, elem, size_text))

    def unpack(self, target, value, s):
        d = self.d
        if any(isinstance(t, (ast.Tuple, ast.List, ast.Starred)) for t in target.elts):
            raise d.error(s, "unpacking into a nested tuple in a differentiated kernel is not supported yet")
        vals = None
        if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
            vals = [self.val(v) for v in value.elts]  # every value first, as Python does
        elif isinstance(value, ast.Call) and d.callee(value)[0] == "func":
            vals, t = self.inline(value)  # a func's tuple, its parts
            if t != "tuple" or len(vals) != len(target.elts):
                raise d.error(s, "unpacking `%s` into %d names: it returns %s" % (
                    ast.unparse(value), len(target.elts), "%d values" % len(vals) if t == "tuple" else "one value"))
        if vals is not None:
            for tg, (txt, vt) in zip(target.elts, vals):
                if isinstance(tg, ast.Name):
                    old = self.env.get(tg.id)
                    self.env[tg.id] = self.bind(tg.id, txt, vt, old[1] if old else _settle(vt), None, s)
                else:
                    # An element, a component or a field (`v.x, v.y = v.y, v.x`): assigned
                    # as on a line of its own, from a name standing for the value taken.
                    if isinstance(txt, dict):
                        raise d.error(tg, "a struct unpacked into `%s` in a differentiated kernel is not supported yet: assign it to a name first" % ast.unparse(tg))
                    held = d.fresh("held")
                    self.env[held] = (txt, vt)
                    self.assign_to(tg, ast.copy_location(ast.Name(id=held, ctx=ast.Load()), tg), s, None)
                    del self.env[held]
            return
        if not all(isinstance(t, ast.Name) for t in target.elts):
            raise d.error(s, "unpacking `%s` into something other than names in a differentiated kernel is not supported yet" % ast.unparse(value))
        t = self.ty(value)
        if t not in ("ivec", "shape"):  # (a thread id, an array's shape: ints)
            raise d.error(s, "unpacking `%s` is not differentiable yet" % ast.unparse(value))
        txt = self.text(value)
        names = [d.fresh(tg.id) for tg in target.elts]
        self.nodes.append(_Plain("%s = %s" % (", ".join(names), txt)))
        if type(value) is ast.Call and not value.args and d.callee(value) == ("lib", "local_id"):
            d.lid.update(zip(names, "xyz"))
        for tg, n in zip(target.elts, names):
            self.env[tg.id] = (n, "int")

    def component_store(self, target, name, value, s, op):
        """A component of float vector local ``name`` (a struct local's field too) assigned."""
        d = self.d
        cur, t = self.env[name]
        if t == "ivec":
            return self.int_component_store(target, name, value, s, op)
        if t not in FLOAT_VECS:
            raise d.error(s, "an assignment to a component of `%s` (not a float vector) in a differentiated kernel is not supported yet" % name)
        if isinstance(target, ast.Attribute):
            if not (len(target.attr) == 1 and target.attr in "xyzw"):
                raise d.error(target, "a swizzle cannot be assigned")
            k = "xyzw".index(target.attr)
        else:
            k = _const_int(d, target.slice)
            if k is None:
                raise d.error(target, "a vector component at a run-time index; use .x/.y/.z/.w or a constant")
            k %= _size(t)
        if op is not None:
            comp = ast.copy_location(ast.Attribute(value=_load_copy(target.value), attr="xyzw"[k], ctx=ast.Load()), target)
            value = ast.copy_location(ast.BinOp(left=comp, op=op, right=value), s)
        v, vt = self.val(value)
        c = _scalar(t)
        if vt != c:
            v, vt = self.let("f", c, "%s%s(%s)" % (S, c, v), [])
        n = _size(t)
        parts = ", ".join(v if i == k else "%s.%s" % (cur, "xyzw"[i]) for i in range(n))
        keep = ", ".join("0.0" if i == k else "%s.%s" % (G, "xyzw"[i]) for i in range(n))
        var = d.fresh(name)
        self.nodes.append(_Let(var, t, "%s%s(%s)" % (S, t, parts), [(cur, t, "%s%s(%s)" % (S, t, keep)), (v, vt, "%s.%s" % (G, "xyzw"[k]), c)]))
        self.env[name] = (var, t)

    def int_component_store(self, target, name, value, s, op):
        """A component of int vector local ``name`` assigned (`cell.x = min(cell.x, n - 1)`,
        a pixel's `mean.w = src[i].w`): ints carry no adjoint, so the replay does what the
        kernel does, on a copy (`v + 0` is a new vector of the same type, so neither the
        replays in the reverse nor CPython's shared objects see the old one change)."""
        d = self.d
        cur, t = self.env[name]
        if isinstance(target, ast.Attribute):
            if not (len(target.attr) == 1 and target.attr in "xyzw"):
                raise d.error(target, "a swizzle cannot be assigned")
            part = "." + target.attr
        else:
            k = _const_int(d, target.slice)
            if k is None or k < 0:
                raise d.error(target, "an int vector's component at a run-time or negative index in a differentiated kernel; use .x/.y/.z/.w")
            part = "[%d]" % k
        if op is not None:
            value = ast.copy_location(ast.BinOp(left=_load_copy(target), op=op, right=value), s)
        if self.ty(value) in DIFF:
            raise d.error(s, "a float assigned to a component of int vector `%s`" % name)
        text = self.text(value)
        var = d.fresh(name)
        self.nodes.append(_Plain("%s = %s + 0" % (var, cur)))
        self.nodes.append(_Plain("%s%s = %s" % (var, part, text)))
        self.env[name] = (var, t)

    def augassign(self, s):
        d = self.d
        target = s.target
        if isinstance(target, ast.Name):
            if target.id not in self.env:
                raise d.error(s, "`%s` is not a local here" % target.id)
            read = ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target)
            return self.assign_name(target.id, ast.copy_location(ast.BinOp(left=read, op=s.op, right=s.value), s), s, None, None)
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in self.arrays:
            kind = {ast.Add: "add", ast.Sub: "sub"}.get(type(s.op))
            elem = d.arrays[self.arrays[target.value.id]][0]
            if self.arrays[target.value.id] in d.memory:
                if elem in DIFF and kind is None:
                    raise d.error(s, "`%s` on an element of `%s`: its adjoint needs the value it overwrites, which the backward pass does not keep; `+=` and `-=` are differentiable (or write the result to another element or array)" % (_aug_text(s), target.value.id))
                return self.array_store(target, s.value, kind or "update", s, type(s.op))
            if kind is None or elem not in DIFF:
                # `x[i] *= e` is `x[i] = x[i] * e`: a read, then a write (of the array the
                # tape copied before the launch); an int element updated in place too.
                read = ast.copy_location(ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load()), target)
                value = ast.copy_location(ast.BinOp(left=read, op=s.op, right=s.value), s)
                return self.array_store(target, value, "set", s)
            return self.array_store(target, s.value, kind, s)
        key = self.local_key(target)
        if key is not None:
            return self.assign_part(target, key, s.value, s, s.op)
        raise d.error(s, "an assignment to `%s` is not differentiable yet" % ast.unparse(target))

    def array_store(self, target, value, kind, s, op=None):
        """``target = value`` (``kind`` "set"), or ``+=``/``-=`` ("add", "sub"); on a shared
        or local array any augmented assignment, ``op`` its operator's node type."""
        d = self.d
        name = self.arrays[target.value.id]
        if d.arrays[name][0] in d.structs:
            return self.struct_store(target, value, kind, s, name)
        elem = d.arrays[name][0]
        if elem == "float-other":
            raise d.error(s, "arrays of f16, of its vectors or of its matrices are not differentiable yet")
        index = self.index(target.slice)
        d.writes.setdefault(name, s)
        v, vt = self.val(value)
        if name in d.memory:
            # The replay writes it again (an augmented assignment as the element updated;
            # only `+=` and `-=` reach here for floats).
            self.touch(name, "store", s)
            replay = v if op is None else "%s[%s]%s%s" % (name, index, _BINOPS[op], v)
            whole = kind == "set" and d.memory[name] == "shared" and self.whole(target.slice, d.sizes.get(name))
            self.nodes.append(_Store(name, index, v if (elem in DIFF and vt in DIFF) else None, vt, kind, replay, whole=whole))
            return
        self.touch(name, "store", s)
        if elem in DIFF:
            if vt in DIFF and vt != elem:
                raise d.error(s, "a %s stored to an array of %s" % (vt, elem))
            self.nodes.append(_Store(name, index, v if vt in DIFF else None, vt, kind))

    def whole(self, index, size):
        """Whether ``index`` takes each element of a shared array of ``size`` once in the
        workgroup: ``local_index()``, ``lx`` (a 1-D workgroup) or ``ly * W + lx`` (a 2-D
        one of width ``W``) over ``local_id()``'s components, the array the workgroup's
        size."""
        d = self.d
        wx, wy, wz = self.d.kernel.workgroup_size
        lid = lambda e, c: type(e) is ast.Name and e.id in self.env and d.lid.get(self.env[e.id][0]) == c
        if type(index) is ast.Call and not index.args and d.callee(index) == ("lib", "local_index"):
            return size == wx * wy * wz
        if lid(index, "x"):
            return size == wx and wy == wz == 1
        if type(index) is ast.BinOp and type(index.op) is ast.Add and wz == 1 and size == wx * wy:
            for row, x in ((index.left, index.right), (index.right, index.left)):
                if lid(x, "x") and type(row) is ast.BinOp and type(row.op) is ast.Mult:
                    for y, w in ((row.left, row.right), (row.right, row.left)):
                        if lid(y, "y") and _const_int(d, w) == wx:
                            return True
        return False

    def atomic(self, call, name):
        d = self.d
        if len(call.args) != 3 or not (isinstance(call.args[0], ast.Name) and call.args[0].id in self.arrays):
            raise d.error(call, "`%s` on something other than an array parameter of the kernel is not differentiable yet" % name)
        arr = self.arrays[call.args[0].id]
        elem = d.arrays[arr][0]
        if elem in DIFF and name not in ("atomic_add", "atomic_sub"):
            raise d.error(call, "`%s` on floats is not differentiable yet (`atomic_add` and `atomic_sub` are)" % name)
        index = self.index(call.args[1])
        d.writes.setdefault(arr, call)
        v, vt = self.val(call.args[2])
        self.touch(arr, "store", call)
        kind = {"atomic_add": "add", "atomic_sub": "sub"}.get(name, "update")
        if arr in d.memory:
            # A shared or local array: the replay runs the atomic again (an `+=` by many
            # invocations; the replays inside the reverse do not, see ``writer``).
            self.nodes.append(_Store(arr, index, v if elem in DIFF and vt in DIFF else None, vt, kind,
                                     "%s%s(%s, %s, %s)" % (S, name, arr, index, v), call=True))
        elif elem in DIFF:
            self.nodes.append(_Store(arr, index, v if vt in DIFF else None, vt, kind))

    def if_stmt(self, s):
        d = self.d
        cond = self.cond(s.test)
        then, other = self.sub(), self.sub()
        start = len(d.log)
        then.stmts(s.body)
        # One branch runs: the other does not see its reads and writes (a loop around both
        # still does, in ``finish_loop``).
        taken = d.log[start:]
        del d.log[start:]
        other.stmts(s.orelse)
        d.log[start:start] = taken
        merges = []
        for name in sorted(set(then.env) & set(other.env)):
            a, b = then.env[name], other.env[name]
            if a[0] == b[0]:
                continue
            if a[1] != b[1]:
                raise d.error(s, "`%s` is a %s in one branch and a %s in the other" % (name, a[1], b[1]))
            if _STRUCT in (a[0], b[0]):
                raise d.error(s, "`%s` is a struct made one way in one branch and another way in the other (unpacked, say): assign it as `p = ...` in both" % name)
            out = d.fresh(name)
            merges.append((out, a[1], a[0], b[0]))
            self.env[name] = (out, a[1])
        if getattr(s, "flag_guard", False):
            # `if not (flags): ...` made of a return, break or continue: what its branch
            # defines is read after it only under the same flags, so where it did not run
            # the name holds a zero no one reads (and that passes no adjoint on).
            for name in sorted(set(then.env) - set(other.env)):
                a = then.env[name]
                if a[0] == _STRUCT:
                    self.env[name] = a  # (its fields, merged with zeros here)
                    continue
                zero = _zero_text(a[1])
                if zero is not None:
                    out = d.fresh(name)
                    merges.append((out, _settle(a[1]), a[0], zero))
                    self.env[name] = (out, _settle(a[1]))
        self.nodes.append(_If(cond, then.nodes, other.nodes, merges))

    def loop_body(self, loop, stmts, target):
        """The scope of a loop's body: each name ``stmts`` assign (but the loop's
        ``target``) that is bound before the loop carried, under a header name."""
        d = self.d
        body = self.sub()
        body.barriers = self.barriers
        loop.carried = []
        for local in sorted(_assigned(stmts) - {target}):
            if local not in self.env:
                continue
            # (a struct local: each of its fields)
            names = [local] if self.env[local][0] != _STRUCT else sorted(k for k in self.env if k.startswith(local + "."))
            for name in names:
                h = d.fresh(name)
                d.mutable.add(h)
                body.env[name] = (h, self.env[name][1])
                loop.carried.append([h, self.env[name][1], self.env[name][0], None, name])
        return body

    def finish_loop(self, loop, body, stmts):
        """Linearizes the loop's body ``stmts`` in ``body``; each carried name then holds its
        header after the loop."""
        d = self.d
        start = len(d.log)
        body.stmts(_unguard(d, stmts, ast.Continue))
        seen = {}
        loop.tiles = _tiles(body.nodes, d.log[start:])
        # Arrays the body declares, or writes whole at each iteration before a barrier, are
        # new at each iteration.
        fresh = (_declared(body.nodes) | loop.tiles) if d.memory else ()
        for arr, what, node in d.log[start:]:
            if arr not in fresh:
                seen.setdefault(arr, {})[what] = node
        for arr, both in seen.items():
            if len(both) == 2 and arr in d.memory:
                d.later.append((arr, d.error(both["store"], "`%s` is written and read in this loop: a later iteration's write would change what an earlier one read, and the backward pass replays the reads; write the array in one loop and read it in another"
                                             % _source_name(arr, d))))
            elif len(both) == 2:
                raise d.error(both["store"], "`%s` is written and read in this loop: a later iteration's write would change what an earlier one read, and the backward pass replays the reads; write the array in one loop and read it in another"
                              % _source_name(arr, d))
        for c in loop.carried:
            c[3] = body.env[c[4]][0]
            self.env[c[4]] = (c[0], c[1])
        loop.body = body.nodes

    def table_loop(self, s):
        """``for w in T:`` or ``for k, w in enumerate(T):`` over a module's constant tuple
        (or list) ``T``, as ``for k in range(len(T)): w = T[k]`` (new nodes: the tree is
        shared); over a table of rows, ``for (u, v) in T:``, each column a tuple of its own
        the adjoint's file defines (``Differentiator.tables``), ``u = T_0[k]``; else
        ``None``."""
        d = self.d
        it, target = s.iter, s.target
        if type(it) is ast.Call and d.callee(it) == ("lib", "enumerate") and len(it.args) == 1 and not it.keywords \
                and type(target) is ast.Tuple and len(target.elts) == 2 and type(target.elts[0]) is ast.Name \
                and type(target.elts[1]) in (ast.Name, ast.Tuple):
            table, (index, value) = it.args[0], target.elts
        elif type(target) in (ast.Name, ast.Tuple):
            table, index, value = it, None, target
        else:
            return None
        if type(table) is ast.Tuple:
            # A literal (`for dz in (-1, 0, 1):`): a table of the adjoint's file.
            try:
                values = ast.literal_eval(table)
            except ValueError:
                return None
            if not (_numbers(values) or (values and all(_numbers(r) and len(r) == len(values[0]) for r in values))):
                return None
            name = d.fresh("table")
            d.tables[name] = tuple(values)
            table = _located(ast.Name(id=name, ctx=ast.Load()), table)
        if type(table) is not ast.Name or self.ty(table) not in ("table-f", "table-i", "table2"):
            return None
        rows = d.global_value(table.id)
        if type(value) is ast.Tuple:
            if self.ty(table) != "table2" or len(value.elts) != len(rows[0]) or not all(type(v) is ast.Name for v in value.elts):
                raise d.error(value, "unpacking the rows of `%s` into something other than %d names" % (table.id, len(rows[0])))
        elif self.ty(table) == "table2":
            raise d.error(value, "a row of `%s` held whole; unpack it (`for (a, b) in %s:`)" % (table.id, table.id))
        index = _located(ast.Name(id=index.id if index is not None else d.fresh("k"), ctx=ast.Store()), s)
        count = _located(ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=[ast.Constant(len(d.global_value(table.id)))],
                                  keywords=[]), it)
        read = lambda name: _located(ast.Subscript(value=ast.Name(id=name, ctx=ast.Load()), slice=ast.Name(id=index.id, ctx=ast.Load()),
                                                   ctx=ast.Load()), it)
        if type(value) is ast.Name:
            body = [_assign(value.id, read(table.id), value)] + s.body
        else:
            body = [_assign(v.id, read(d.column(table.id, j)), v) for j, v in enumerate(value.elts)] + s.body
        return ast.copy_location(ast.For(target=index, iter=count, body=body, orelse=[], type_comment=None), s)

    def while_stmt(self, s):
        """``while test: body``: replayed counting its iterations; the reverse recomputes
        each iteration's carried values by replaying it from its entry, as for a run-time
        trip count. (A ``break`` is a flag its test reads first: ``_flag_leaves``.)"""
        d = self.d
        if s.orelse:
            raise d.error(s, "a `while ... else` is not differentiable yet")
        test, stmts = s.test, s.body
        loop = _For()
        loop.var = loop.lo = loop.hi = loop.static = None
        loop.step, loop.counter = 1, d.fresh("n")
        body = self.loop_body(loop, stmts, None)
        loop.test = body.text(test)
        self.finish_loop(loop, body, stmts)
        loop.recompute, loop.checkpoints = True, {}
        self.nodes.append(loop)

    def for_stmt(self, s):
        d = self.d
        if s.orelse:
            raise d.error(s, "a `for ... else` is not differentiable yet")
        s = self.table_loop(s) or s
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and 1 <= len(it.args) <= 3 and not it.keywords):
            raise d.error(s, "a loop that is not `for ... in range(...)` is not differentiable yet")
        if not isinstance(s.target, ast.Name):
            raise d.error(s.target, "a loop target that is not a name")
        args = list(it.args)
        lo, hi = (args[0], args[1]) if len(args) >= 2 else (ast.Constant(0), args[0])
        loop = _For()
        loop.step = _const_int(d, args[2]) if len(args) == 3 else 1
        if not loop.step:
            raise d.error(it, "a range whose step is not a nonzero constant")
        for a in (lo, hi):
            if self.ty(a) not in ("int", "litint"):
                raise d.error(a if hasattr(a, "lineno") else it, "a range bound that is not an int")
        clo, chi = _const_int(d, lo), _const_int(d, hi)
        loop.static = len(range(clo, chi, loop.step)) if clo is not None and chi is not None else None
        loop.lo, loop.hi, loop.counter = d.fresh("lo"), d.fresh("hi"), d.fresh("n")
        self.nodes.append(_Plain("%s = %s" % (loop.lo, self.text(lo))))
        self.nodes.append(_Plain("%s = %s" % (loop.hi, self.text(hi))))
        before = dict(self.env)
        body = self.loop_body(loop, s.body, s.target.id)
        # A target bound before the loop is carried too: after the loop it is its value at
        # the end of the last iteration (or before the loop when it did not run). No
        # iteration reads that value, so its reverse needs no checkpoint of it.
        target = None
        if s.target.id in before and before[s.target.id][1] in ("int", "litint"):
            target = [d.fresh(s.target.id), "int", before[s.target.id][0], None, s.target.id]
            d.mutable.add(target[0])
            loop.carried.append(target)
        loop.var = d.fresh(s.target.id)
        d.mutable.add(loop.var)
        if self.is_i32(lo) and self.is_i32(hi):
            d.i32.add(loop.var)
            if target is not None and target[2] in d.i32:
                d.i32.add(target[0])
        body.env[s.target.id] = (loop.var, "int")
        self.finish_loop(loop, body, s.body)
        loop.checkpoints = {}
        loop.recompute = False
        # (a carried value the body does not change, a struct local's field the loop does
        # not assign, is the same at every iteration: it needs no checkpoint)
        kept = [c for c in loop.carried if c is not target and c[3] != c[0]]
        names = [c[4] for c in kept]
        names += sorted({n.split(".")[0] for n in names if "." in n})  # (struct locals whose fields are carried)
        if all(_only_accumulated(s.body, c[4], names) for c in kept):
            pass  # accumulators only (a sum, a dot product): no iteration's reverse needs their values
        elif loop.static is None:
            loop.recompute = True
        else:
            for c in kept:
                t = c[1] if c[1] in DIFF else {"bool": "bool", "int": "i32"}.get(c[1])
                if t is None or (c[1] == "int" and c[2] not in d.i32) \
                        or loop.static * (8 if _scalar(t) == "f64" else 4) * (_size(t) ** 2 if t in MATS else _size(t)) > LOCAL_ARRAY_BYTES:
                    loop.recompute, loop.checkpoints = True, {}
                    break
                loop.checkpoints[c[0]] = (d.fresh("keep_" + c[4]), t)
        self.nodes.append(loop)


_BUILTINS = set(dir(builtins))


_NONE = (None, None)
_STRUCT = "\x04struct"  # the env text of a struct local, whose fields are locals of their own ("name.field")


def _load_copy(e):
    """A copy of assignment target ``e`` that reads it (every context ``Load``)."""
    e = copy.deepcopy(e)
    for n in ast.walk(e):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()
    return e


def _numbers(v):
    """Whether ``v`` is a module's table: a tuple or list of ints and floats."""
    return isinstance(v, (tuple, list)) and len(v) > 0 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)


def _chosen(e):
    """The float ``and``/``or`` ``e`` as the conditional expression of Python's value:
    ``a or b`` is ``a if a != 0.0 else b``, ``a and b`` is ``b if a != 0.0 else a``, longer
    chains nested (new nodes over the operands: the tree is shared)."""
    out = e.values[-1]
    for v in reversed(e.values[:-1]):
        test = ast.copy_location(ast.Compare(left=v, ops=[ast.NotEq()], comparators=[ast.copy_location(ast.Constant(0.0), v)]), v)
        out = ast.copy_location(ast.IfExp(test=test, body=v, orelse=out) if isinstance(e.op, ast.Or)
                                else ast.IfExp(test=test, body=out, orelse=v), e)
    return out


def _callee_text(f):
    """A call's callee as text: a name or ``module.name`` as written, else unparsed."""
    if type(f) is ast.Name:
        return f.id
    if type(f) is ast.Attribute and type(f.value) is ast.Name:
        return "%s.%s" % (f.value.id, f.attr)
    return ast.unparse(f)
_BINOPS = {ast.Add: " + ", ast.Sub: " - ", ast.Mult: " * ", ast.Div: " / ", ast.FloorDiv: " // ", ast.Mod: " % ",
           ast.Pow: " ** ", ast.MatMult: " @ ", ast.BitAnd: " & ", ast.BitOr: " | ", ast.BitXor: " ^ ",
           ast.LShift: " << ", ast.RShift: " >> "}
_BIT_OPS = frozenset((ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift))
_FLOAT_OPS = {k: _BINOPS[k].strip() for k in (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not "}
_COMPARE = {ast.Eq: " == ", ast.NotEq: " != ", ast.Lt: " < ", ast.LtE: " <= ", ast.Gt: " > ", ast.GtE: " >= ",
            ast.Is: " is ", ast.IsNot: " is not ", ast.In: " in ", ast.NotIn: " not in "}
_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)


def _index_parts(s):
    return s.elts if isinstance(s, ast.Tuple) else [s]


def _aug_text(s):
    op = _BINOPS.get(type(getattr(s, "op", None)))
    return op.strip() + "=" if op else "="


def _param_is_i32(d, name):
    p = next((p for p in d.kernel.params if p.name == name), None)
    return p is not None and getattr(p.elem, "name", None) == "i32"


def _only_accumulated(body, name, carried):
    """Whether ``name`` changes in the loop ``body`` only by ``name += e``, ``name -= e``,
    ``name = name + e``, ``name = e + name`` or ``name = name - e`` with ``e`` reading no
    ``carried`` name, and is read nowhere else: then no iteration needs the value it had,
    and the backward pass need not restore it. (A struct local's field, ``p.vel``, is
    never taken for one.)"""
    if "." in name:
        return False
    tree = ast.Module(body=body, type_ignores=[])
    own = set()  # the reads of `name` that are its accumulations' own
    for s in ast.walk(tree):
        e = None
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id == name and isinstance(s.op, (ast.Add, ast.Sub)):
            e = s.value
        elif isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name \
                and isinstance(s.value, ast.BinOp) and isinstance(s.value.op, (ast.Add, ast.Sub)):
            v = s.value
            if isinstance(v.left, ast.Name) and v.left.id == name:
                own.add(id(v.left))
                e = v.right
            elif isinstance(v.op, ast.Add) and isinstance(v.right, ast.Name) and v.right.id == name:
                own.add(id(v.right))
                e = v.left
        if e is not None:
            if any(isinstance(sub, ast.Name) and sub.id in carried for sub in ast.walk(e)):
                return False
            continue
        targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, (ast.AnnAssign, ast.AugAssign)) else []
        if any(isinstance(sub, ast.Name) and sub.id == name for tg in targets for sub in ast.walk(tg)):
            return False
    return not any(isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load) and id(sub) not in own
                   for sub in ast.walk(tree))


def _assigned(body):
    """The local names a loop body assigns (a component assignment assigns its vector), by
    its statements' targets (an assignment expression is refused where it is met)."""
    out = set()
    work = list(body)
    while work:
        s = work.pop()
        k = type(s)
        targets = s.targets if k is ast.Assign else (s.target,) if k in (ast.AnnAssign, ast.AugAssign, ast.For) else ()
        for tg in targets:
            base = tg
            while type(base) in (ast.Attribute, ast.Subscript):
                base = base.value  # (a struct local's field's component: the struct)
            if base is not tg and type(base) is ast.Name:
                out.add(base.id)
            for n in ast.walk(tg) if type(tg) is not ast.Name else (tg,):
                if type(n) is ast.Name and type(n.ctx) is ast.Store:
                    out.add(n.id)
        work += _child_stmts(s)
    return out


def _all_stmts(stmts):
    """Every statement in ``stmts`` and in their blocks, in order (not expressions)."""
    work = list(reversed(stmts))
    while work:
        s = work.pop()
        yield s
        work += reversed(_child_stmts(s))


def _child_stmts(s):
    """The statements directly inside statement ``s`` (its blocks')."""
    k = type(s)
    if k is ast.If or k is ast.For or k is ast.While:
        return s.body + s.orelse
    return getattr(s, "body", []) + getattr(s, "orelse", []) + getattr(s, "finalbody", []) if hasattr(s, "body") else []


def _zero_text(t):
    """A zero of type ``t`` as replay text: ints, bools and differentiable types; else
    ``None``."""
    return {"int": "0", "litint": "0", "bool": "False"}.get(t) or (_zero(t) if t in DIFF else None)


def _one(t):
    """A one of the components of float type ``t``, as the first side of a choice between
    literals (`1.0 if c else 0.0`): an ``f64`` one for ``f64`` and its vectors, whose
    choice of two bare literals would be an ``f32``."""
    return "%sf64(1.0)" % S if _scalar(t) == "f64" else "1.0"


def _settle(t):
    """A value's type once a name holds it: a float literal an ``f32``, an int one an int."""
    return {"litfloat": "f32", "litint": "int"}.get(t, t) if isinstance(t, str) else t


def _const_int(d, e):
    """``e``'s value when it is an int the compiler folds (a literal, a module constant, or
    ``+ - * //`` of those), else ``None``."""
    if isinstance(e, ast.Constant):
        return e.value if type(e.value) is int else None
    if isinstance(e, ast.Name):
        v = d.global_value(e.id)
        return v if type(v) is int else None
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        v = _const_int(d, e.operand)
        return None if v is None else -v
    if isinstance(e, ast.BinOp):
        a, b = _const_int(d, e.left), _const_int(d, e.right)
        if a is None or b is None:
            return None
        op = type(e.op)
        if op is ast.FloorDiv:
            return a // b if b else None
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(op)
    return None


def _eval_annotation(d, ann):
    try:
        return eval(compile(ast.Expression(ann), d.path, "eval"), d.globals)
    except Exception:
        raise d.error(ann, "an annotation the differentiator cannot read: `%s`" % ast.unparse(ann)) from None


def _hints(fn):
    """A func's annotations, evaluated (kept per function, by its own annotations), without
    the generic ones (``Any``, a ``TypeVar``): such a parameter has its argument's type, and
    such a result the type of what the func returns, as where there is no annotation."""
    target = getattr(fn, "__wrapped__", fn)
    raw = getattr(target, "__annotations__", {})
    kept = _HINTS.get(target)
    if kept is not None and kept[0] == raw:
        return kept[1]
    try:
        hints = typing.get_type_hints(target)
    except Exception:
        hints = dict(raw)
    hints = {k: v for k, v in hints.items() if not _generic(v)}
    _HINTS[target] = (dict(raw), hints)
    return hints


def _generic(ann):
    """Whether annotation ``ann`` is generic: ``typing.Any`` or a ``TypeVar``."""
    return ann is typing.Any or isinstance(ann, typing.TypeVar)


_HINTS = weakref.WeakKeyDictionary()  # function -> (its annotations, evaluated)


_DEFS = {}  # a file's text -> its top-level functions by first line (decorators included)


def _parse_def(fn, src):
    """The ``FunctionDef`` of ``fn`` (a top-level function) in its kept source, at its
    lines; ``None`` when the text does not hold it."""
    if src is None:
        return None
    node = _defs(src).get(fn.__code__.co_firstlineno)
    return node if node is not None and node.name == fn.__name__ else None


def _defs(src):
    """The top-level functions of ``src``'s text by first line; each text parsed once."""
    defs = _DEFS.get(src.text)
    if defs is None:
        defs = {}
        try:
            tree = ast.parse(src.text)
        except SyntaxError:
            tree = ast.Module(body=[], type_ignores=[])
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                first = min([node.lineno] + [dec.lineno for dec in node.decorator_list])
                defs[first] = node
        # Published whole: another thread may read it at once (two threads may both parse).
        if len(_DEFS) > 64:
            _DEFS.clear()
        _DEFS[src.text] = defs
    return defs


def _kernel_lines(kernel):
    """The (first, last) lines of each kernel's definition (decorators included) in the
    file of ``kernel``, as ``_parse_def`` read it: what an adjoint's compile need not read
    again."""
    from ..api import Kernel
    src = kernel.source
    if src is None or _parse_def(kernel.fn, src) is None:
        return []
    names = kernel.fn.__globals__
    return [(first, node.end_lineno) for first, node in _defs(src).items()
            if isinstance(names.get(node.name), Kernel)]


def _func_tree(d, fn, e):
    from .. import source as _source
    target = getattr(fn, "__wrapped__", fn)
    if target.__code__.co_filename != d.path:
        raise d.error(e, "`%s` is defined in another file; the kernel's funcs are its file's" % fn.__name__)
    tree = _parse_def(target, getattr(fn, "__spirthon_source__", None) or _source.keep(target))
    if tree is None:
        raise d.error(e, "the source of `%s` is not available" % fn.__name__)
    return tree


def _always_returns(stmts):
    """Whether ``stmts`` end in a ``return``, or in an ``if`` each of whose branches does."""
    if not stmts:
        return False
    last = stmts[-1]
    return isinstance(last, ast.Return) or (isinstance(last, ast.If) and _always_returns(last.body) and _always_returns(last.orelse))


def _returns_last(stmts, depth=0):
    """A func's ``stmts`` with each ``if`` one of whose branches always returns holding the
    statements after it in its other branch (``if c: return a`` then ``return b`` is
    ``if c: return a else: return b``), so that it returns only at its end; nodes copied,
    never changed (the tree is shared). ``None`` for a chain deeper than
    ``_NESTED_GUARDS`` (taken as flags instead)."""
    out = []
    for k, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            out.append(s)
            return out
        if isinstance(s, ast.If):
            then_ret, else_ret = _always_returns(s.body), _always_returns(s.orelse)
            if (then_ret or else_ret) and depth >= _NESTED_GUARDS:
                return None
            if then_ret or else_ret:
                rest = stmts[k + 1:]
                body = _returns_last(s.body if then_ret else s.body + rest, depth + 1)
                orelse = _returns_last(s.orelse if else_ret else s.orelse + rest, depth + 1)
                if body is None or orelse is None:
                    return None
                out.append(ast.copy_location(ast.If(test=s.test, body=body, orelse=orelse), s))
                return out
        out.append(s)
    return out


def _tail_returns(d, tree, fn):
    """The func's statements (its guards' returns made the ends of branches), checked to
    return only at their end (the last statement, or the last statement of each branch of a
    last ``if``), so that inlining keeps their meaning."""
    stmts = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    body = _returns_last(stmts)
    if body is None or any(isinstance(x, (ast.Break, ast.Continue)) for x in _all_stmts(stmts)):
        return _returns_by_flag(d, tree, fn, stmts, None)  # its leaves as flags
    work = [(body, True)]
    while work:
        stmts, tail = work.pop()
        for k, s in enumerate(stmts):
            last = tail and k == len(stmts) - 1
            if isinstance(s, ast.Return) and not last:
                return _returns_by_flag(d, tree, fn, body, s)
            if isinstance(s, ast.If):
                if last and s.orelse == [] and s.body and isinstance(s.body[-1], ast.Return) and tree.returns is not None:
                    raise d.error(s, "`%s` returns in one branch of its last `if` only; return after it" % fn.__name__)
                work += [(s.body, last), (s.orelse, last)]
            elif isinstance(s, (ast.For, ast.While)):
                work.append((s.body, False))
    return body


def _returns_by_flag(d, tree, fn, body, early):
    """A func's ``body`` that returns before its end (``early``, or ``None``: its loops
    break or continue) with its leaves as flags (``_flag_leaves``): each ``return v`` keeps
    ``v`` in a value that starts as a zero of the func's return type (its annotation),
    returned at the end."""
    if not any(isinstance(x, ast.Return) and x.value is not None for x in _all_stmts(body)):
        return _flag_leaves(body, d.fresh)
    early = early or next(x for x in _all_stmts(body) if isinstance(x, ast.Return))
    t = d.type_of(_hints(fn).get("return"))
    zero = _zero_text(t)
    if zero is None:
        raise d.error(early, "`%s` returns before its end and its return type is not annotated (or not an int, a bool or a differentiable type); annotate it, or return once at its end" % fn.__name__)
    value = d.fresh("value")
    keep = _assign(value, _located(ast.parse(zero.replace(S, d.prefix + "sp."), mode="eval").body, tree), tree)
    end = ast.copy_location(ast.Return(value=_located(ast.Name(id=value, ctx=ast.Load()), tree)), body[-1] if body else tree)
    return [keep] + _flag_leaves(body, d.fresh, value) + [end]


_NESTED_GUARDS = 8  # guards made branches deeper than this are taken as flags (flat)


def _unguard(d, stmts, leave=ast.Return, depth=0):
    """``stmts`` with each ``if c: ... return`` (``leave`` is ``ast.Return``, at a kernel's
    top level) or ``if c: ... continue`` (``ast.Continue``, in a loop's body) whose branch
    ends in it turned into an ``if``/``else`` whose other branch holds the statements after
    it, so that the body leaves only at its end. A chain of more than ``_NESTED_GUARDS``
    would nest as deep: it is refused as a ``leave``, which ``_flag_leaves`` takes flat."""
    out = []
    for k, s in enumerate(stmts):
        if isinstance(s, leave) and getattr(s, "value", None) is None:
            return out
        if isinstance(s, ast.If):
            then_ret = bool(s.body) and isinstance(s.body[-1], leave)
            else_ret = bool(s.orelse) and isinstance(s.orelse[-1], leave)
            if (then_ret or else_ret) and depth >= _NESTED_GUARDS:
                raise d.error(s, "more than %d guards in a row" % _NESTED_GUARDS, leave=True)
            if then_ret or else_ret:
                rest = stmts[k + 1:]
                body = _unguard(d, s.body[:-1] if then_ret else s.body + rest, leave, depth + 1)
                orelse = _unguard(d, s.orelse[:-1] if else_ret else s.orelse + rest, leave, depth + 1)
                new = ast.copy_location(ast.If(test=s.test, body=body, orelse=orelse), s)
                out.append(new)
                return out
        work = [s]
        while work:
            x = work.pop()
            if isinstance(x, leave):
                what = "a `return` that does not end a branch at the kernel's top level; use `if ...: return` guards, or compute a flag" \
                    if leave is ast.Return else "a `continue` that does not end a branch at the top of the loop's body"
                raise d.error(x, what, leave=True)
            if leave is ast.Continue and isinstance(x, (ast.For, ast.While)):
                continue  # its `continue`s are its own
            work += _child_stmts(x)
        out.append(s)
    return out


def _flag_leaves(stmts, fresh, value=None):
    """A kernel's body with every ``return``, ``break`` and ``continue`` (funcs have their
    own) turned into flags, so that nothing leaves a block but at its end: a leave sets its
    flag, and what runs after it in the kernel's order is guarded by the flags it may have
    set (``return`` also stops every loop around it; ``break`` its loop, whose remaining
    iterations are guarded, or whose ``while`` test reads the flag first; ``continue`` the
    rest of its iteration). Nodes are copied, never changed (the tree is shared); each
    flag is a fresh name from ``fresh``, bound before it is read. In a func, ``value`` is
    the name each ``return v`` keeps ``v`` in."""
    ret = fresh("returned")
    return [_assign_flag(ret, False, stmts[0] if stmts else None)] + _leaves(stmts, (ret, value), None, fresh)


def _located(node, at):
    """``node``, a tree made here, with every node at ``at``'s location (or line 1)."""
    for n in ast.walk(node):
        if at is not None:
            ast.copy_location(n, at)
    return ast.fix_missing_locations(node)


def _assign(name, value, at):
    """``name = value`` at ``at``'s location (``value`` a node; made here, or the source's)."""
    node = ast.Assign(targets=[_located(ast.Name(id=name, ctx=ast.Store()), at)], value=value)
    return ast.fix_missing_locations(ast.copy_location(node, at) if at is not None else node)


def _assign_flag(flag, value, at):
    return _assign(flag, _located(ast.Constant(value), at), at)


def _not_any(flags, at):
    """``not (f1 or f2 ...)`` at ``at``'s location."""
    names = [ast.Name(id=f, ctx=ast.Load()) for f in flags]
    return _located(ast.UnaryOp(op=ast.Not(), operand=names[0] if len(names) == 1 else ast.BoolOp(op=ast.Or(), values=names)), at)


def _sets(stmts, loop):
    """The flags statements ``stmts`` may set: the kernel's return flag (a ``return``
    anywhere in them), and the innermost loop's (a ``break`` or ``continue`` outside loops
    inside them)."""
    ret, brk, cont = loop[0], loop[1], loop[2]
    out = []
    work = [(s, False) for s in stmts]
    while work:
        x, inner = work.pop()
        if isinstance(x, ast.Return) and ret not in out:
            out.append(ret)
        elif isinstance(x, ast.Break) and not inner and brk not in out:
            out.append(brk)
        elif isinstance(x, ast.Continue) and not inner and cont not in out:
            out.append(cont)
        in_loop = inner or isinstance(x, (ast.For, ast.While))
        work += [(c, in_loop) for c in _child_stmts(x)]
    return [f for f in out if f is not None]


def _leaves(stmts, ret, loop, fresh):
    """``stmts`` without leaves (``_flag_leaves``); ``ret``: the return flag and the name a
    func's returned value is kept in (or ``None``); ``loop``: the innermost loop's (break,
    continue) flags, or ``None`` outside loops."""
    brk, cont = loop if loop is not None else (None, None)
    # Flat: the statements after one that may set flags run under `if not (flags)`, a run
    # of them under one `if`, never nested deeper than the source is.
    out, flags, run = [], [], []
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Break, ast.Continue)):
            if isinstance(s, ast.Return) and s.value is not None and ret[1] is not None:
                run.append(_assign(ret[1], s.value, s))
            run.append(_assign_flag(ret[0] if isinstance(s, ast.Return) else brk if isinstance(s, ast.Break) else cont, True, s))
            break
        if isinstance(s, ast.If):
            run.append(ast.copy_location(ast.If(test=s.test, body=_leaves(s.body, ret, loop, fresh),
                                                orelse=_leaves(s.orelse, ret, loop, fresh)), s))
            sets = _sets([s], (ret[0], brk, cont))
        elif isinstance(s, (ast.For, ast.While)) and not s.orelse:
            run += _loop_leaves(s, ret, fresh)
            sets = _sets([s], (ret[0], None, None))
        else:
            run.append(s)
            continue
        if sets:
            _guarded(out, run, flags, s)
            run = []
            flags = flags + [f for f in sets if f not in flags]
    _guarded(out, run, flags, stmts[-1] if stmts else None)
    return out


def _guarded(out, run, flags, at):
    """Appends the statements ``run`` to ``out``, under ``if not (flags)`` when any."""
    if run and flags:
        guard = ast.copy_location(ast.If(test=_not_any(flags, at), body=run, orelse=[]), at)
        guard.flag_guard = True  # (what it defines is merged with zeros: `if_stmt`)
        out.append(guard)
    elif run:
        out += run


def _loop_leaves(s, ret, fresh):
    """A loop without leaves: the statements that bind its flags, then the loop."""
    brk, cont = fresh("broke"), fresh("skip")
    body = _leaves(s.body, ret, (brk, cont), fresh)
    own = _sets(s.body, (ret[0], brk, cont))
    if cont in own:
        body = [_assign_flag(cont, False, s)] + body  # each iteration starts not skipping
    stops = [f for f in (brk, ret[0]) if f in own]
    out = [_assign_flag(brk, False, s)] if brk in own else []
    if not stops:
        new = ast.copy_location(type(s)(**{**{f: getattr(s, f) for f in s._fields}, "body": body}), s)
    elif isinstance(s, ast.While):
        test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[_not_any(stops, s), s.test]), s)
        new = ast.copy_location(ast.While(test=test, body=body, orelse=[]), s)
    else:
        # for k in range(...): if not stopped: k = hidden; body
        hidden = fresh("k")
        bind = ast.copy_location(ast.Assign(targets=[s.target], value=_located(ast.Name(id=hidden, ctx=ast.Load()), s)), s)
        guard = ast.copy_location(ast.If(test=_not_any(stops, s), body=[bind] + body, orelse=[]), s)
        new = ast.copy_location(ast.For(target=ast.copy_location(ast.Name(id=hidden, ctx=ast.Store()), s), iter=s.iter,
                                        body=[guard], orelse=[], type_comment=None), s)
    out.append(new)
    return out


def _nodes(nodes):
    """Every node of ``nodes`` and of the branches and loop bodies among them, in no
    particular order (an explicit worklist)."""
    work = list(nodes)
    while work:
        n = work.pop()
        yield n
        if isinstance(n, _If):
            work += n.then + n.other
        elif isinstance(n, _For):
            work += n.body


def _writes_memory(node):
    """Whether ``node`` (an ``_If`` or ``_For``) writes a shared or local array declared
    outside it: the replay must then run it. One it declares itself is new each time its
    declaration runs and is not seen after it (a name is usable to the end of its block),
    and the node's reverse replays it whole: a guarded kernel body (the other branch of
    its guard) that fills a local array is not run twice."""
    nodes = list(_nodes([node]))
    inside = {n.array for n in nodes if isinstance(n, _Declare)}
    return any(isinstance(n, _Store) and n.replay is not None and n.array not in inside for n in nodes)


def _declared(nodes):
    """The shared and local arrays declared in ``nodes`` (in nested branches and loops too),
    and those a loop among them writes whole at each iteration (``_For.tiles``)."""
    out = set()
    for n in _nodes(nodes):
        if isinstance(n, _Declare):
            out.add(n.array)
        elif isinstance(n, _For):
            out |= n.tiles
    return out


def _linear_only(d, nodes):
    """The shared and local arrays of floats none of whose read values the adjoint needs
    (a tree reduction's ``tile[i] += tile[i + s]`` then ``out[g] = tile[0] * 0.5``): such an
    array may be read before it is written, since the replays' stale reads reach nothing.
    A value is needed where an adjoint rule, a condition, an index, an int or a loop's bounds
    read it, and so is every value it is computed from (its ``Let``'s operands, a merge's or
    a loop header's sources) and every value stored into an array a needed value is read
    from."""
    names = lambda text: set(re.findall(r"%s\w+" % re.escape(d.prefix), text or ""))
    needed, deps, into, loads = set(), {}, {}, {}
    for n in _nodes(nodes):
        if isinstance(n, _Let):
            deps.setdefault(n.var, set()).update(names(n.text))
            # (a rule for a literal or a parameter adds to no adjoint: the writer skips it)
            for text in list(n.pre) + [r[2] for r in n.rules if r[0].startswith(d.prefix)]:
                needed |= names(text)
        elif isinstance(n, _Load):
            needed |= names(n.index)
            if n.array in d.memory:
                loads.setdefault(n.array, []).append(n.var)
        elif isinstance(n, _Store):
            needed |= names(n.index)
            if n.array in d.memory:
                into.setdefault(n.array, set()).update(names(n.replay) | ({n.value} if n.value else set()))
        elif isinstance(n, (_Plain, _Declare)):
            needed |= names(n.text)
        elif isinstance(n, _If):
            needed |= names(n.cond)
            for m in n.merges:
                deps.setdefault(m[0], set()).update((m[2], m[3]))
        elif isinstance(n, _For):
            needed |= names(" ".join(str(x) for x in (n.lo, n.hi, n.test)))
            for c in n.carried:
                deps.setdefault(c[0], set()).update(x for x in (c[2], c[3]) if x)
    size = -1
    while size != len(needed):
        size = len(needed)
        for arr, vs in loads.items():
            if arr in d.valued or any(v in needed for v in vs):
                needed |= into.get(arr, set())
        for v in list(needed):
            needed |= deps.get(v, set())
    return {a for a, vs in loads.items() if a not in d.valued and d.arrays[a][0] in DIFF and not any(v in needed for v in vs)}


def _tiles(body, log):
    """The shared arrays a loop's ``body`` writes whole at each iteration, as a tile of a
    tiled product is: stored at its top level at an index that takes each element once in
    the workgroup (``_Store.whole``), before a barrier there, with no other store of the
    array in the body, that store the body's first access to it (``log``, the body's
    accesses in order). Each iteration then reads only what it wrote, so a replay of the
    iteration writes again what the iteration read."""
    first = {}
    for arr, what, _ in log:
        first.setdefault(arr, what)
    stores = collections.Counter(n.array for n in _nodes(body) if isinstance(n, _Store))
    out, stored = set(), set()
    for n in body:
        if isinstance(n, _Store) and n.whole:
            stored.add(n.array)
        elif isinstance(n, _Barrier):
            out |= {a for a in stored if stores.get(a) == 1 and first.get(a) == "store"}
    return frozenset(out)


def _source_name(arr, d):
    """The source's name of a versioned array name."""
    return arr[len(d.prefix):].split("_", 1)[1] if arr.startswith(d.prefix) else arr

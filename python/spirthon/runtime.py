"""The CPython reference executor: decorators, thread ids, and kernel launches.

A launch runs every invocation of every workgroup, one at a time, in a defined order:
workgroups by z, then y, then x; within a workgroup, invocations by local z, y, x. The
invocations outside the requested thread counts are skipped, as the compiled kernel's
implicit guard returns at once for them. Each invocation sees its own ids through
``global_id()`` and the other builtins.

The kernel runs in the kernel's types: it and its funcs are compiled once more from their
source by ``spirthon.typed`` (same lines and columns), so every value is an ``F32``, ``I32``
or ``U32`` that rounds or wraps after each operation as the GPU's does (``spirthon.scalars``).

A kernel that calls ``barrier()`` (itself or through its funcs) runs each workgroup's
invocations as threads of which exactly one runs at a time: in local order, each runs until it
reaches a barrier or returns; when every invocation has reached the barrier, the next phase
starts, again in local order. So the run is deterministic, and an invocation that returns
while others wait at a barrier (or waits at a barrier others never reach) is reported as the
deadlock it would be on the GPU. Such a kernel has no implicit launch guard: every invocation
of every workgroup runs, as on the GPU.

``shared_array(T, n)`` gives every invocation of a workgroup the same array (one per call
site), zero-filled (on the GPU its contents start undefined). The atomics read, change and
write one element and return the old value; one invocation runs at a time, so they are
trivially atomic.

``kernel.launch`` comes here on the ``"python"`` device (``spirthon.set_device``), and
``python3 -m spirthon run`` always does; ``Kernel.reference_launch`` runs here whatever the
device.

Checked mode (``launch_checked``, ``run --checked``): an invocation that raises
``IndexError``, ``ZeroDivisionError`` or ``AssertionError`` stops there and the others run on
(past later barriers without it); after the launch ``CheckError`` reports the first failure,
by lowest workgroup then invocation, located at the column CPython's traceback gives, and
the count, in the words ``spirthon run --checked`` prints.
"""

import functools
import inspect
import itertools
import linecache
import os
import re
import sys
import threading
import typing

from .types import Array, _ArrayType, convert, element, f32, i32, u32
from .vectors import Vector, VectorType, ivec3
from . import source, typed, vectors
from .scalars import I32


class _Invocation:
    __slots__ = ("gid", "lid", "wid", "nwg", "lindex", "threads", "group", "key")


_local = threading.local()
# One launch at a time on the reference executor: launches from several Python threads take
# turns (the executor runs one invocation at a time anyway), so that none sees another's
# invocation, module refresh or checked-mode tables.
_launching = threading.RLock()


def _now():
    inv = getattr(_local, "current", None)
    if inv is None:
        raise RuntimeError("thread ids exist only while a kernel runs: call kernel.launch(...)")
    return inv


# The ids are vectors, which kernels may change (`g = global_id(); g.x += 1`): each call
# returns a copy, as each call gives a fresh value on the GPU.


def global_id():
    return _copy(_now().gid)


def local_id():
    return _copy(_now().lid)


def workgroup_id():
    return _copy(_now().wid)


def num_workgroups():
    return _copy(_now().nwg)


def local_index():
    return _now().lindex


def num_threads():
    return _copy(_now().threads)


def shared_array(elem, size):
    """The workgroup's array for this call site: every invocation of a workgroup gets the same."""
    inv = _now()
    caller = sys._getframe(1)
    key = (caller.f_code, caller.f_lineno)
    arrays = inv.group.shared
    if key not in arrays:
        # Named after the variable it is assigned to, as the compiler names it.
        target = re.match(r"\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=", linecache.getline(caller.f_code.co_filename, caller.f_lineno))
        name = target.group(1) if target else None
        if isinstance(size, tuple):
            # `(H, W)` or `(D, H, W)`: a row-major multi-dimensional array, `a[i, j]`.
            arrays[key] = Array(elem, None, name=name, shape=size)
        else:
            arrays[key] = Array(elem, size, name=name)
    return arrays[key]


def barrier():
    """Waits until every invocation of the workgroup has reached a barrier."""
    inv = _now()
    phases = inv.group.phases
    if phases is None:
        raise RuntimeError("barrier() reached in a kernel that was not found to call it; call it from the kernel or a @func it calls")
    phases.arrive(inv.lindex, sys._getframe(1))


def _atomic(update):
    def op(array, index, *values):
        old = array[index]
        array[index] = update(old, *values)
        return old

    return op


atomic_add = _atomic(lambda old, v: old + v)
atomic_sub = _atomic(lambda old, v: old - v)
atomic_min = _atomic(lambda old, v: min(old, v))
atomic_max = _atomic(lambda old, v: max(old, v))
atomic_and = _atomic(lambda old, v: old & v)
atomic_or = _atomic(lambda old, v: old | v)
atomic_xor = _atomic(lambda old, v: old ^ v)
atomic_exchange = _atomic(lambda old, v: v)
atomic_compare_exchange = _atomic(lambda old, expected, v: v if old == expected else old)


class DeadlockError(RuntimeError):
    """Some invocations of a workgroup wait at a barrier that others never reach."""


class _Abort(BaseException):
    """Unwinds an invocation's thread after another one failed."""


class _Group:
    """A workgroup's shared arrays, and its barrier phases when the kernel has barriers."""

    __slots__ = ("shared", "phases")

    def __init__(self, phases):
        self.shared = {}
        self.phases = phases


class _Phases:
    """Runs a workgroup's invocations as threads, one at a time, phase by phase."""

    def __init__(self, n):
        self.n = n
        self.turn = [threading.Semaphore(0) for _ in range(n)]
        self.main = threading.Semaphore(0)
        self.waiting = {}
        self.done = set()
        # Checked mode: invocations that stopped at a failed check. The others go on past
        # barriers without them, as on the GPU.
        self.failed = set()
        self.error = None

    def run(self, bodies):
        threads = [threading.Thread(target=self._body, args=(k, b), daemon=True) for k, b in enumerate(bodies)]
        for t in threads:
            t.start()
        self._next(-1)
        self.main.acquire()
        if self.error is not None:
            for k in range(self.n):
                self.turn[k].release()
            raise self.error

    def _body(self, k, body):
        self.turn[k].acquire()
        if self.error is not None:
            return
        try:
            body()
        except _Abort:
            return
        except BaseException as e:  # handed to the launching thread
            self.error = e
            self.main.release()
            return
        self.done.add(k)
        self._next(k)

    def arrive(self, k, frame):
        self.waiting[k] = "%s:%d" % (frame.f_code.co_filename, frame.f_lineno)
        self._next(k)
        self.turn[k].acquire()
        if self.error is not None:
            raise _Abort()

    def _next(self, k):
        """Hands the turn to the next invocation of this phase, or starts the next phase."""
        for j in range(k + 1, self.n):
            if j not in self.done and j not in self.waiting:
                self.turn[j].release()
                return
        if len(self.done) == self.n:
            self.main.release()
            return
        sites = sorted(set(self.waiting.values()))
        if len(sites) > 1:
            by_site = {s: sorted(k for k, w in self.waiting.items() if w == s) for s in sites}
            self.error = DeadlockError(
                "deadlock: the invocations of a workgroup wait at different barrier() calls: %s"
                % "; ".join("%s at %s" % (_ranks(ks), s) for s, ks in by_site.items()))
            self.main.release()
            return
        returned = self.done - self.failed
        if returned:
            where = sorted(set(self.waiting.values()))
            self.error = DeadlockError(
                "deadlock: invocations %s of the workgroup wait at barrier() (%s) that invocations %s never reach (they returned)"
                % (_ranks(self.waiting), ", ".join(where), _ranks(returned)))
            self.main.release()
            return
        self.waiting.clear()
        self._next(-1)


def _ranks(ks):
    ks = sorted(ks)
    if len(ks) > 6:
        return "%s, … (%d in all)" % (", ".join(map(str, ks[:5])), len(ks))
    return ", ".join(map(str, ks))


def _per_component_min_max(fn):
    """Makes ``min`` and ``max`` in the module of ``fn`` work per component on vectors (they
    behave as the built-ins on everything else), unless the module defines its own."""
    g = getattr(fn, "__globals__", None)
    if isinstance(g, dict):
        g.setdefault("min", vectors.min)
        g.setdefault("max", vectors.max)


def _calls_barrier(fn, seen=None):
    """Whether ``fn`` names ``barrier`` (called, or as ``spirthon.barrier``), itself or through
    the ``@func``s of its module that it names."""
    seen = set() if seen is None else seen
    fn = getattr(fn, "__wrapped__", fn)
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    names = set()
    work = [code]
    while work:
        c = work.pop()
        names.update(c.co_names)
        work.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    if "barrier" in names:
        return True
    g = getattr(fn, "__globals__", {})
    return any(getattr(g.get(n), "__spirthon_func__", False) and _calls_barrier(g[n], seen) for n in names)


def func(fn):
    """Marks a device function. Under CPython it is the function, run in the kernel's types
    (``spirthon.typed``): its arguments and result are converted to their annotated types as
    the compiled func converts them (a ``-> u32`` hash returns what the GPU returns; an int
    passed to an ``f32`` parameter becomes float32), and vector arguments are copies (vectors
    are values in kernels: a func changing a component of its parameter does not change the
    caller's vector)."""
    _per_component_min_max(fn)
    hints = _annotations(fn)
    params = [_converter(hints.get(n)) for n in inspect.signature(fn).parameters]
    result = _converter(hints.get("return"))
    compiled = []

    src = source.keep(fn)

    @functools.wraps(fn)
    def call(*args):
        if not compiled:
            compiled.append(typed.compile_typed(fn, typed.module_globals(fn.__globals__, refresh=False), src) or fn)
        out = compiled[0](*[c(a) for c, a in zip(params, args)])
        return result(out)

    call.__spirthon_func__ = True
    call.__spirthon_source__ = src
    return call


def _converter(ann):
    """The conversion of a value annotated ``ann`` when it enters or leaves a func."""
    scalar = {int: i32, i32: i32, u32: u32, float: f32, f32: f32}.get(ann) if not isinstance(ann, tuple) else None
    if scalar is not None:
        return lambda v: convert(scalar, v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    items = ann if isinstance(ann, tuple) else (typing.get_args(ann) if typing.get_origin(ann) is tuple else None)
    if items:
        each = [_converter(a) for a in items]
        return lambda v: tuple(c(x) for c, x in zip(each, v)) if isinstance(v, tuple) and len(v) == len(each) else v
    return _copy


def _copy(value):
    return Vector(value.type, value.tolist()) if isinstance(value, Vector) else value


def _annotations(fn):
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


class Param:
    __slots__ = ("name", "kind", "elem", "dims")

    def __init__(self, name, kind, elem):
        self.name, self.kind, self.elem = name, kind, elem
        self.dims = 1


def _param(name, ann):
    if isinstance(ann, _ArrayType):
        if isinstance(ann.elem, VectorType) and ann.elem.size == 3:
            raise TypeError("parameter %r: `%r` has no portable storage layout; use Array[%s] and ignore the fourth component"
                            % (name, ann, ann.elem.name.replace("3", "4")))
        p = Param(name, "array", ann.elem)
        p.dims = ann.dims
        return p
    if ann is int or ann is i32:
        return Param(name, "scalar", i32)
    if ann is float or ann is f32:
        return Param(name, "scalar", f32)
    if ann is u32:
        return Param(name, "scalar", u32)
    if ann is bool:
        return Param(name, "scalar", bool)
    if isinstance(ann, VectorType):
        return Param(name, "vector", ann)
    raise TypeError("parameter %r has an unsupported annotation %r" % (name, ann))


class Kernel:
    """A ``@kernel``: ``kernel.launch(threads, *args, **kwargs)`` runs it."""

    def __init__(self, fn, workgroup_size):
        functools.update_wrapper(self, fn)
        _per_component_min_max(fn)
        self.fn = fn
        self._compiled = None
        self.name = fn.__name__
        # The file's text now: what every device runs (``spirthon.source``).
        self.source = source.keep(fn)
        if isinstance(workgroup_size, int):
            workgroup_size = (workgroup_size,)
        self.workgroup_size = tuple(workgroup_size) + (1,) * (3 - len(workgroup_size))
        hints = _annotations(fn)
        self._signature = inspect.signature(fn)
        self.params = [_param(n, hints.get(n)) for n in self._signature.parameters]

    def __call__(self, *args, **kwargs):
        raise TypeError("a kernel runs through %s.launch(threads, ...)" % self.name)

    def bind(self, args, kwargs):
        """The arguments in parameter order, scalars converted to their declared types."""
        bound = self.signature().bind(*args, **kwargs)
        out = []
        for p in self.params:
            value = bound.arguments[p.name]
            if p.kind == "array":
                if not isinstance(value, Array):
                    raise TypeError("argument %r must be an Array(%r, ...)" % (p.name, p.elem))
                if value.elem is not p.elem:
                    raise TypeError("argument %r must be an Array of %r, not of %r" % (p.name, p.elem, value.elem))
                if value.dims != p.dims:
                    raise TypeError("argument %r must have %d dimensions, not %d" % (p.name, p.dims, value.dims))
                if value.name is None:
                    value.name = p.name
                out.append(value)
            elif p.elem is bool:
                out.append(bool(value))
            elif p.kind == "vector":
                out.append(element(p.elem, value))
            else:
                out.append(convert(p.elem, value))
        return out

    def signature(self):
        """The kernel function's ``inspect.Signature``."""
        return self._signature

    def __getitem__(self, threads):
        """``kernel[threads](*args)``: ``kernel.launch(threads, *args)`` in the spelling of
        Numba-CUDA and Warp."""
        return functools.partial(self.launch, threads)

    def launch(self, threads, /, *args, **kwargs):
        """Runs one invocation per thread (``threads``: an int or one to three ints) on the
        current device (``spirthon.set_device``): a GPU through the native module, or the
        CPython reference executor. Arrays are NumPy arrays, device arrays or ``Array``
        values; those the kernel writes are updated in place."""
        from . import gpu
        gpu.launch(self, threads, args, kwargs, False)

    def launch_checked(self, threads, /, *args, **kwargs):
        """``launch`` in checked mode: an invocation that fails an index, division or assert
        check stops, the others run on, and then ``CheckError`` reports the first failure
        (lowest workgroup, then invocation) as ``spirthon run --checked`` does."""
        from . import gpu
        gpu.launch(self, threads, args, kwargs, True)

    def reference_launch(self, threads, args, kwargs, checked=False):
        """A launch on the CPython reference executor, whatever the current device. In
        checked mode an invocation that raises ``IndexError``, ``ZeroDivisionError`` or
        ``AssertionError`` stops, the others run on, and ``CheckError`` reports the first
        failure; the module's constant tuples are checked as arrays are, for the launch (a
        negative index is out of range)."""
        with _launching:
            if not checked:
                self._launch(threads, self.bind(args, kwargs), None)
                return
            failures = _Failures()
            tables = self.fn.__globals__
            saved = {n: v for n, v in tables.items() if _is_table(v)}
            tables.update({n: _Table(n, v) for n, v in saved.items()})
            try:
                self._launch(threads, self.bind(args, kwargs), failures)
            finally:
                tables.update(saved)
            if failures.count:
                raise failures.error()

    def _launch(self, threads, values, failures):
        if isinstance(threads, int):
            threads = (threads,)
        threads = tuple(threads) + (1,) * (3 - len(threads))
        wg = self.workgroup_size
        groups = tuple(-(-t // w) for t, w in zip(threads, wg))
        barriers = _calls_barrier(self.fn)
        fn = self._typed(typed.module_globals(self.fn.__globals__))
        # Shared by the invocations: the id functions hand out copies.
        nwg, size = ivec3(*groups), ivec3(*threads)
        saved = getattr(_local, "current", None)
        try:
            for wz, wy, wx in itertools.product(range(groups[2]), range(groups[1]), range(groups[0])):
                group = _Group(_Phases(wg[0] * wg[1] * wg[2]) if barriers else None)
                wid = ivec3(wx, wy, wz)
                invs = []
                for lz, ly, lx in itertools.product(range(wg[2]), range(wg[1]), range(wg[0])):
                    gx, gy, gz = wx * wg[0] + lx, wy * wg[1] + ly, wz * wg[2] + lz
                    # The implicit guard; a kernel with barriers has none.
                    if not barriers and (gx >= threads[0] or gy >= threads[1] or gz >= threads[2]):
                        continue
                    inv = _Invocation()
                    inv.nwg, inv.threads, inv.wid = nwg, size, wid
                    inv.gid = Vector(ivec3, [I32(gx), I32(gy), I32(gz)])
                    inv.lid = Vector(ivec3, [I32(lx), I32(ly), I32(lz)])
                    inv.lindex = I32((lz * wg[1] + ly) * wg[0] + lx)
                    inv.group = group
                    inv.key = (wx + groups[0] * (wy + groups[1] * wz)) * (wg[0] * wg[1] * wg[2]) + inv.lindex
                    invs.append(inv)
                if barriers:
                    group.phases.run([functools.partial(self._invoke, fn, inv, values, failures) for inv in invs])
                else:
                    for inv in invs:
                        _local.current = inv
                        self._run_one(fn, inv, values, failures)
        finally:
            _local.current = saved

    def _typed(self, globals_):
        """The kernel's function compiled to run in kernel types (``spirthon.typed``), once
        per module namespace; the function itself when its source cannot be read."""
        if self._compiled is None or self._compiled[0] is not globals_:
            self._compiled = (globals_, typed.compile_typed(self.fn, globals_, self.source) or self.fn)
        return self._compiled[1]

    def _run_one(self, fn, inv, values, failures):
        # Each invocation gets its own copy of a vector parameter.
        if failures is None:
            return fn(*[_copy(v) for v in values])
        try:
            fn(*[_copy(v) for v in values])
        except _CHECKED as e:
            failures.add(inv.key, inv, e)
            if inv.group.phases is not None:
                inv.group.phases.failed.add(inv.lindex)

    def _invoke(self, fn, inv, values, failures):
        _local.current = inv
        self._run_one(fn, inv, values, failures)


def kernel(fn=None, *, workgroup_size=64):
    """Marks a kernel: ``@kernel`` or ``@kernel(workgroup_size=N | (X, Y) | (X, Y, Z))``."""
    if fn is None:
        return lambda f: Kernel(f, workgroup_size)
    return Kernel(fn, workgroup_size)


# Checked mode (docs/language.md, "Checked mode"): the exceptions a check raises, and the report.

_CHECKED = (IndexError, ZeroDivisionError, AssertionError)
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _is_table(v):
    """Whether ``v`` is a constant tuple of numbers, or of equal-length tuples of them (a
    kernel indexes it as an array, or as one array per column)."""
    def numbers(t):
        return len(t) > 0 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in t)
    if type(v) is not tuple or not v:
        return False
    if numbers(v):
        return True
    return all(type(r) is tuple and len(r) == len(v[0]) and numbers(r) for r in v)


class _Table(tuple):
    """A module's constant tuple during a checked launch: indexed as the compiled kernel
    indexes it, with the same message out of range."""

    def __new__(cls, name, items):
        t = super().__new__(cls, items)
        t.name = name
        return t

    def __getitem__(self, k):
        if isinstance(k, int) and not isinstance(k, bool) and not 0 <= k < len(self):
            wrap = "; negative indices do not wrap" if k < 0 else ""
            raise IndexError("index %d out of range for '%s' (len %d%s)" % (k, self.name, len(self), wrap))
        return super().__getitem__(k)


class CheckError(Exception):
    """A checked launch failed. ``str(e)`` is the report ``spirthon run --checked`` prints
    (the first failure, by lowest workgroup then invocation, with its line and column, then
    which invocation it was and how many failed); ``error`` is the first failure's exception
    (``None`` when a GPU lost its record among too many failures) and ``count`` the number of
    failing invocations."""

    lost = None  # the device's report, when it lost the first failure's record

    def __init__(self, error, count, where, invocation):
        self.error = error
        self.count = count
        self.filename, self.line, self.column = where
        self.invocation = invocation
        super().__init__(self.report())

    @classmethod
    def from_report(cls, path, text, count, located, invocation):
        """The error of a checked GPU launch, from the parts the native module gives:
        the report's text, the failure count, ``(message, line, column)`` (``None`` when
        the record was lost) and the invocation's ids."""
        e = cls.__new__(cls)
        e.count, e.invocation = count, invocation
        e.filename, e.line, e.column = path, 0, 0
        e.error, e.lost = None, text
        if located is not None:
            message, e.line, e.column = located
            kind, _, detail = message.partition(": ")
            exc_type = {"IndexError": IndexError, "ZeroDivisionError": ZeroDivisionError}.get(kind, AssertionError)
            e.error = exc_type(detail) if detail else exc_type()
            e.lost = None
        Exception.__init__(e, e.report())
        return e

    def report(self, path=None):
        """The report, naming the kernel file ``path`` as given (default: as loaded)."""
        if self.lost is not None:
            return self.lost  # the device lost the first failure's record: its own words
        filename = self.filename
        if path is not None and os.path.exists(path) and os.path.exists(filename) and os.path.samefile(path, filename):
            filename = path
        text = type(self.error).__name__
        if str(self.error):
            text += ": %s" % self.error
        others = "the only failing invocation" if self.count == 1 else "the first of %d failing invocations" % self.count
        return "%s at %s:%d:%d\n  in invocation %s: %s" % (text, filename, self.line, self.column, self.invocation, others)


def _where(exc):
    """``path:line:col`` of the kernel source that raised ``exc`` (its innermost frame outside
    this package); the column is CPython's, 1-based in characters."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        if not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(_PACKAGE + os.sep):
            found = tb
        tb = tb.tb_next
    if found is None:
        return ("?", 0, 0)
    code = found.tb_frame.f_code
    line, col = found.tb_lineno, 0
    positions = getattr(code, "co_positions", None)
    if positions is not None:
        pos = list(positions())[found.tb_lasti // 2]
        if pos[0] is not None:
            line = pos[0]
        if pos[2] is not None:
            text = linecache.getline(code.co_filename, line).encode()
            col = len(text[: pos[2]].decode(errors="replace"))
    return (code.co_filename, line, col + 1)


class _Failures:
    """The failures of one checked launch: the first by key, and the count."""

    def __init__(self):
        self.first = None
        self.count = 0

    def add(self, key, inv, exc):
        self.count += 1
        if self.first is None or key < self.first[0]:
            self.first = (key, inv, exc, _where(exc))

    def error(self):
        _, inv, exc, where = self.first
        ids = "global_id (%d, %d, %d), workgroup_id (%d, %d, %d), local_id (%d, %d, %d)" % (
            tuple(inv.gid.tolist()) + tuple(inv.wid.tolist()) + tuple(inv.lid.tolist()))
        return CheckError(exc, self.count, where, ids)

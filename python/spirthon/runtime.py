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
starts, again in local order. So the run is deterministic. An invocation that returned takes
no part in the barriers after (the compiled kernel keeps it, inactive, taking the barriers the
others take: language.md, "Barriers"); invocations that wait at different barriers are
reported as the deadlock they would be on the GPU. Such a kernel has no implicit launch guard: every invocation
of every workgroup runs, as on the GPU.

``shared_array(T, n)`` gives every invocation of a workgroup the same array (one per call
site), zero-filled (on the GPU its contents start undefined). ``local_array(T, n)`` gives a
new zero-filled array each time it runs, as the GPU zeroes its private array there. The atomics read, change and
write one element and return the old value; one invocation runs at a time, so they are
trivially atomic.

``kernel.launch`` comes here on the ``"python"`` device (``spirthon.set_device``), and
``python3 -m spirthon run`` always does; ``Kernel.reference_launch`` runs here whatever the
device. This module does not import the launch path (``spirthon.gpu``) or the API
(``spirthon.api``): they call it.

Checked mode (``launch_checked``, ``run --checked``): an invocation that raises
``IndexError``, ``ZeroDivisionError`` or ``AssertionError`` stops there and the others run on
(past later barriers without it); after the launch ``CheckError`` reports the first failure,
by lowest workgroup then invocation, located at the column CPython's traceback gives, and
the count, in the words ``spirthon run --checked`` prints.
"""

import functools
import itertools
import linecache
import os
import re
import sys
import threading

from . import _library, typed, vectors
from .arrays import Array, copied
from .errors import CheckError, DeadlockError
from .scalars import I32, U32, index_text, to_type
from .vectors import Vector, ivec3


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
    return copied(_now().gid)


def local_id():
    return copied(_now().lid)


def workgroup_id():
    return copied(_now().wid)


def num_workgroups():
    return copied(_now().nwg)


def local_index():
    return _now().lindex


def num_threads():
    return copied(_now().threads)


def _fixed_array(elem, size, caller):
    """A zero-filled array of ``size`` (an int, or ``(H, W)`` / ``(D, H, W)`` for a row-major
    multi-dimensional one), named after the variable the caller's line assigns it to, as the
    compiler names it."""
    target = re.match(r"\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=", linecache.getline(caller.f_code.co_filename, caller.f_lineno))
    name = target.group(1) if target else None
    if isinstance(size, tuple):
        return Array(elem, None, name=name, shape=size)
    return Array(elem, size, name=name)


def shared_array(elem, size):
    """The workgroup's array for this call site: every invocation of a workgroup gets the same."""
    inv = _now()
    caller = sys._getframe(1)
    key = (caller.f_code, caller.f_lineno)
    arrays = inv.group.shared
    if key not in arrays:
        arrays[key] = _fixed_array(elem, size, caller)
    return arrays[key]


def local_array(elem, size):
    """A new zero-filled array of the invocation's own, each time the call runs."""
    _now()
    return _fixed_array(elem, size, sys._getframe(1))


def barrier():
    """Waits until every invocation of the workgroup has reached a barrier."""
    inv = _now()
    phases = inv.group.phases
    if phases is None:
        raise RuntimeError("barrier() reached in a kernel that was not found to call it; call it from the kernel or a @func it calls")
    phases.arrive(inv.lindex, sys._getframe(1))


# Subgroups (docs/language.md, "Subgroups"): the invocations of a workgroup in runs of
# `subgroup_size()` consecutive local indices, as Vulkan devices form them for a 1-D
# workgroup. The size is the executor's choice (a device's is its own: 8 on lavapipe, 32 on
# NVIDIA, 32 or 64 on AMD): set it to the device's to compare results that depend on it.

_subgroup_size = None


def set_subgroup_size(n):
    """Sets the subgroup size of the reference executor (a power of two from 1 to 128; also
    ``SPIRTHON_SUBGROUP_SIZE``; 32 when neither sets it); ``None`` restores the default."""
    global _subgroup_size
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1 or n > 128 or n & (n - 1)):
        raise ValueError("a subgroup size is a power of two from 1 to 128, not %r" % (n,))
    _subgroup_size = n


def _size():
    if _subgroup_size is not None:
        return _subgroup_size
    env = os.environ.get("SPIRTHON_SUBGROUP_SIZE")
    if env:
        try:
            n = int(env)
        except ValueError:
            n = 0
        if n < 1 or n > 128 or n & (n - 1):
            raise ValueError("SPIRTHON_SUBGROUP_SIZE=%s: a subgroup size is a power of two from 1 to 128" % env)
        return n
    return 32


def subgroup_size():
    """The invocations in a subgroup (the executor's: see ``set_subgroup_size``)."""
    return I32(_size())


def subgroup_invocation_id():
    """The invocation's index in its subgroup."""
    return I32(int(_now().lindex) % _size())


def _gather(op, *operands):
    inv = _now()
    phases = inv.group.phases
    if phases is None:
        raise RuntimeError("%s() reached in a kernel that was not found to call it; call it from the kernel or a @func it calls" % op)
    return phases.gather(int(inv.lindex), sys._getframe(2), op, operands)


def _collective(name):
    def op(x):
        return _gather(name, x)

    op.__name__ = name
    op.__doc__ = "%s over the subgroup's active invocations." % name
    return op


def _shuffle(name):
    def op(x, lane):
        return _gather(name, x, int(lane))

    op.__name__ = name
    op.__doc__ = "``x`` of another invocation of the subgroup (its own when that one is past the subgroup or inactive)."
    return op


subgroup_add = _collective("subgroup_add")
subgroup_mul = _collective("subgroup_mul")
subgroup_min = _collective("subgroup_min")
subgroup_max = _collective("subgroup_max")
subgroup_and = _collective("subgroup_and")
subgroup_or = _collective("subgroup_or")
subgroup_xor = _collective("subgroup_xor")
subgroup_inclusive_add = _collective("subgroup_inclusive_add")
subgroup_exclusive_add = _collective("subgroup_exclusive_add")
subgroup_inclusive_mul = _collective("subgroup_inclusive_mul")
subgroup_exclusive_mul = _collective("subgroup_exclusive_mul")
subgroup_broadcast_first = _collective("subgroup_broadcast_first")
subgroup_ballot = _collective("subgroup_ballot")
subgroup_all = _collective("subgroup_all")
subgroup_any = _collective("subgroup_any")
subgroup_broadcast = _shuffle("subgroup_broadcast")
subgroup_shuffle = _shuffle("subgroup_shuffle")
subgroup_shuffle_down = _shuffle("subgroup_shuffle_down")
subgroup_shuffle_up = _shuffle("subgroup_shuffle_up")
subgroup_shuffle_xor = _shuffle("subgroup_shuffle_xor")


def subgroup_elect():
    """True in the subgroup's lowest active invocation."""
    return _gather("subgroup_elect")


# The subgroup operations that make a kernel run its invocations in phases.
_SUBGROUP_NAMES = tuple(n for n in list(globals()) if n.startswith("subgroup_") and n not in ("subgroup_size", "subgroup_invocation_id"))


def _fold(values, fn):
    acc = values[0]
    for v in values[1:]:
        acc = fn(acc, v)
    return acc


def _zero_like(x, one=False):
    """The identity of add (or of mul) in the type of ``x``."""
    n = 1 if one else 0
    if isinstance(x, Vector):
        return Vector(x.type, [to_type(c, n) for c in x.tolist()])
    return to_type(x, n)


def _subgroup_results(op, values, size):
    """The results of subgroup operation ``op`` for each active lane: ``values`` maps each
    active lane (in ``0..size``) to its operands."""
    lanes = sorted(values)
    xs = [values[k][0] for k in lanes] if op != "subgroup_elect" else []
    combine = {
        "add": lambda a, b: a + b,
        "mul": lambda a, b: a * b,
        "min": vectors.min,
        "max": vectors.max,
        "and": lambda a, b: (a and b) if isinstance(a, bool) else a & b,
        "or": lambda a, b: (a or b) if isinstance(a, bool) else a | b,
        "xor": lambda a, b: (a != b) if isinstance(a, bool) else a ^ b,
    }
    name = op[len("subgroup_"):]
    if name in combine:
        total = _fold(xs, combine[name])
        return {k: copied(total) for k in lanes}
    if name.startswith(("inclusive_", "exclusive_")):
        kind, what = name.split("_", 1)
        fn = combine[what]
        out, acc = {}, None
        for k, x in zip(lanes, xs):
            if kind == "exclusive":
                out[k] = _zero_like(x, what == "mul") if acc is None else copied(acc)
            acc = x if acc is None else fn(acc, x)
            if kind == "inclusive":
                out[k] = copied(acc)
        return out
    if name == "broadcast_first":
        return {k: copied(xs[0]) for k in lanes}
    if name == "elect":
        return {k: k == lanes[0] for k in lanes}
    if name in ("all", "any"):
        r = (all if name == "all" else any)(bool(x) for x in xs)
        return {k: r for k in lanes}
    if name == "ballot":
        words = [0, 0, 0, 0]
        for k, x in zip(lanes, xs):
            if x:
                words[k // 32] |= 1 << (k % 32)
        return {k: Vector(vectors.uvec4, [U32(w) for w in words]) for k in lanes}
    # Shuffles: each lane reads the lane its operand names (its own value past the
    # subgroup or from an inactive lane).
    out = {}
    for k in lanes:
        x, n = values[k]
        src = {"broadcast": n, "shuffle": n, "shuffle_down": k + n, "shuffle_up": k - n, "shuffle_xor": k ^ n}[name]
        src &= 0xFFFFFFFF
        out[k] = copied(values[src][0] if src < size and src in values else x)
    return out


def _atomic(update):
    def op(array, index, *values):
        old = array[index]
        array[index] = update(old, *values)
        return old

    return op


atomic_add = _atomic(lambda old, v: old + v)
atomic_sub = _atomic(lambda old, v: old - v)
# Python's `min(old, v)` and `max(old, v)` (per component on vectors): the old value unless
# `v` is below (above) it, so a NaN `v` changes nothing, as the GPU's compare-exchange loop.
atomic_min = _atomic(lambda old, v: vectors.min(old, v))
atomic_max = _atomic(lambda old, v: vectors.max(old, v))
atomic_and = _atomic(lambda old, v: old & v)
atomic_or = _atomic(lambda old, v: old | v)
atomic_xor = _atomic(lambda old, v: old ^ v)
atomic_exchange = _atomic(lambda old, v: v)
atomic_compare_exchange = _atomic(lambda old, expected, v: v if old == expected else old)


class _Abort(BaseException):
    """Unwinds an invocation's thread after another one failed."""


class _Group:
    """A workgroup's shared arrays, and its barrier phases when the kernel has barriers."""

    __slots__ = ("shared", "phases")

    def __init__(self, phases):
        self.shared = {}
        self.phases = phases


class _Phases:
    """Runs a workgroup's invocations as threads, one at a time, phase by phase: each runs
    until it returns or waits (at a barrier, or at a subgroup operation); when none can run,
    the subgroups whose every running invocation waits at one subgroup operation get its
    results and go on, else the barrier completes (or the wait is the deadlock or the
    divergence it would be on the GPU)."""

    def __init__(self, lanes, subgroup_size):
        # Per body k: its invocation's local index (bodies of a kernel without barriers
        # are the invocations inside the launch, as its implicit guard leaves them).
        self.lanes = list(lanes)
        self.n = len(self.lanes)
        self.body_of = {lane: k for k, lane in enumerate(self.lanes)}
        self.size = subgroup_size
        self.turn = [threading.Semaphore(0) for _ in range(self.n)]
        self.main = threading.Semaphore(0)
        self.waiting = {}
        # Bodies waiting at a subgroup operation: k -> (site, operation, operands).
        self.gathering = {}
        self.results = {}
        # Invocations that returned, or stopped at a failed check in checked mode: the
        # others go on past barriers without them.
        self.done = set()
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

    def arrive(self, lane, frame):
        k = self.body_of[lane]
        self.waiting[k] = "%s:%d" % (frame.f_code.co_filename, frame.f_lineno)
        self._next(k)
        self.turn[k].acquire()
        if self.error is not None:
            raise _Abort()

    def gather(self, lane, frame, op, operands):
        """Waits at subgroup operation ``op`` with this invocation's operands; its result."""
        k = self.body_of[lane]
        self.gathering[k] = (_call_site(frame), op, operands)
        self._next(k)
        self.turn[k].acquire()
        if self.error is not None:
            raise _Abort()
        return self.results.pop(k)

    def _next(self, k):
        """Hands the turn to the next invocation of this phase, or settles the waits."""
        for j in range(k + 1, self.n):
            if j not in self.done and j not in self.waiting and j not in self.gathering:
                self.turn[j].release()
                return
        if len(self.done) == self.n:
            self.main.release()
            return
        if self.gathering:
            try:
                settled = self._settle_subgroups()
            except DeadlockError as e:
                self.error = e
                self.main.release()
                return
            if settled:
                self._next(-1)
                return
        sites = sorted(set(self.waiting.values()))
        if len(sites) > 1:
            by_site = {s: sorted(self.lanes[k] for k, w in self.waiting.items() if w == s) for s in sites}
            self.error = DeadlockError(
                "deadlock: the invocations of a workgroup wait at different barrier() calls: %s"
                % "; ".join("%s at %s" % (_ranks(ks), s) for s, ks in by_site.items()))
            self.main.release()
            return
        self.waiting.clear()
        self._next(-1)

    def _settle_subgroups(self):
        """Computes the subgroup operations that every running invocation of a subgroup
        waits at; whether any was. A subgroup whose running invocations wait at different
        operations, or some at a barrier, is the divergence it would be on the GPU."""
        members = {}
        for k in range(self.n):
            if k not in self.done:
                members.setdefault(self.lanes[k] // self.size, []).append(k)
        settled = False
        for group, ks in sorted(members.items()):
            at = [k for k in ks if k in self.gathering]
            if not at:
                continue
            sites = sorted({self.gathering[k][0] for k in at})
            if len(at) != len(ks) or len(sites) > 1:
                where = ["%s at %s" % (_ranks(self.lanes[k] for k in at if self.gathering[k][0] == s), s) for s in sites]
                elsewhere = [k for k in ks if k not in self.gathering]
                if elsewhere:
                    where.append("%s at barrier() (%s)" % (_ranks(self.lanes[k] for k in elsewhere),
                                                             ", ".join(sorted({self.waiting[k] for k in elsewhere}))))
                raise DeadlockError(
                    "a subgroup operation under divergent control flow (undefined on a GPU): the running "
                    "invocations of subgroup %d (local indices %d to %d) wait at different places: %s"
                    % (group, group * self.size, group * self.size + self.size - 1, "; ".join(where)))
            lanes = {self.lanes[k] % self.size: k for k in at}
            op = self.gathering[at[0]][1]
            values = {lane: self.gathering[k][2] for lane, k in lanes.items()}
            for lane, result in _subgroup_results(op, values, self.size).items():
                self.results[lanes[lane]] = result
            for k in at:
                del self.gathering[k]
            settled = True
        return settled


def _call_site(frame):
    """Where an invocation is: the line of ``frame`` and of each kernel or func call that led
    there (``k.py:12 <- k.py:30``), so that one func's subgroup operation called from two
    places is two places (the package's own frames left out)."""
    parts = []
    f = frame
    while f is not None and f.f_code is not _run_one.__code__:
        if not os.path.abspath(f.f_code.co_filename).startswith(_PACKAGE + os.sep):
            parts.append("%s:%d" % (f.f_code.co_filename, f.f_lineno))
        f = f.f_back
    return " <- ".join(parts)


def _ranks(ks):
    ks = sorted(int(k) for k in ks)
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


def _calls_barrier(fn, seen=None, names=("barrier",)):
    """Whether ``fn`` names ``barrier`` (called, as ``spirthon.barrier``, or under another
    name it was imported as: ``from spirthon import barrier as sync``), itself or through
    the ``@func``s of its module that it names, as the compiler resolves the names; with
    ``names``, one of those functions of this module instead."""
    seen = set() if seen is None else seen
    wanted = [globals()[n] for n in names]
    fn = getattr(fn, "__wrapped__", fn)
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    used = set()
    work = [code]
    while work:
        c = work.pop()
        used.update(c.co_names)
        work.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    g = getattr(fn, "__globals__", {})
    if any(n in used for n in names) or any(g.get(n) is w for n in used for w in wanted):
        return True
    return any(getattr(g.get(n), "__spirthon_func__", False) and _calls_barrier(g[n], seen, names) for n in used)


def reference_launch(kernel, threads, args, kwargs, checked=False):
    """A launch on the CPython reference executor, whatever the current device. In
    checked mode an invocation that raises ``IndexError``, ``ZeroDivisionError`` or
    ``AssertionError`` stops, the others run on, and ``CheckError`` reports the first
    failure; the module's constant tuples are checked as arrays are, for the launch (a
    negative index is out of range)."""
    with _launching:
        if not checked:
            _launch(kernel, threads, kernel.bind(args, kwargs), None)
            return
        failures = _Failures()
        tables = kernel.fn.__globals__
        saved = {n: v for n, v in tables.items() if typed.is_table(v)}
        tables.update({n: _Table(n, [tuple(r) if type(r) is list else r for r in v])
                       for n, v in saved.items()})
        try:
            _launch(kernel, threads, kernel.bind(args, kwargs), failures)
        finally:
            tables.update(saved)
        if failures.count:
            raise failures.error()


def _launch(kernel, threads, values, failures):
    if isinstance(threads, int):
        threads = (threads,)
    threads = tuple(threads) + (1,) * (3 - len(threads))
    wg = kernel.workgroup_size
    groups = tuple(-(-t // w) for t, w in zip(threads, wg))
    barriers = _calls_barrier(kernel.fn)
    phased = barriers or _calls_barrier(kernel.fn, names=_SUBGROUP_NAMES)
    fn = _typed(kernel, typed.module_globals(kernel.fn.__globals__))
    # Shared by the invocations: the id functions hand out copies.
    nwg, size = ivec3(*groups), ivec3(*threads)
    saved = getattr(_local, "current", None)
    try:
        for wz, wy, wx in itertools.product(range(groups[2]), range(groups[1]), range(groups[0])):
            group = _Group(None)
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
            if phased:
                group.phases = _Phases([int(inv.lindex) for inv in invs], subgroup_size())
                group.phases.run([functools.partial(_invoke, fn, inv, values, failures) for inv in invs])
            else:
                for inv in invs:
                    _local.current = inv
                    _run_one(fn, inv, values, failures)
    finally:
        _local.current = saved

def _typed(kernel, globals_):
    """The kernel's function compiled to run in kernel types (``spirthon.typed``), once
    per module namespace; the function itself when its source cannot be read."""
    if kernel._compiled is None or kernel._compiled[0] is not globals_:
        kernel._compiled = (globals_, typed.compile_typed(kernel.fn, globals_, kernel.source) or kernel.fn)
    return kernel._compiled[1]

def _run_one(fn, inv, values, failures):
    # Each invocation gets its own copy of a vector parameter.
    if failures is None:
        return fn(*[copied(v) for v in values])
    try:
        fn(*[copied(v) for v in values])
    except _CHECKED as e:
        failures.add(inv.key, inv, e)

def _invoke(fn, inv, values, failures):
    _local.current = inv
    _run_one(fn, inv, values, failures)


# Checked mode (docs/language.md, "Checked mode"): the exceptions a check raises, and the report.

_CHECKED = (IndexError, ZeroDivisionError, AssertionError)
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


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
            raise IndexError("index %s out of range for '%s' (len %d%s)" % (index_text(k), self.name, len(self), wrap))
        return super().__getitem__(k)


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
        values = tuple(inv.gid.tolist()) + tuple(inv.wid.tolist()) + tuple(inv.lid.tolist())
        names = ("gx", "gy", "gz", "wx", "wy", "wz", "lx", "ly", "lz")
        ids = _library.CHECK_REPORT["ids"].format(**dict(zip(names, values)))
        return CheckError(exc, self.count, where, ids)

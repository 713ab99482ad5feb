"""The CPython reference executor: decorators, thread ids, and kernel launches.

A launch runs every invocation of every workgroup, one at a time, in a defined order:
workgroups by z, then y, then x; within a workgroup, invocations by local z, y, x. The
invocations outside the requested thread counts are skipped, as the compiled kernel's
implicit guard returns at once for them. Each invocation sees its own ids through
``global_id()`` and the other builtins.

Barriers and workgroup memory are not in this version; the order above is per workgroup so
that they can be added by running a workgroup's invocations as coroutines that yield at
``barrier()``.
"""

import functools
import inspect
import itertools
import typing

from .types import Array, _ArrayType, convert, element, f32, i32, u32
from .vectors import VectorType, ivec3
from . import vectors


class _Invocation:
    __slots__ = ("gid", "lid", "wid", "nwg", "lindex")


_current = None


def _now():
    if _current is None:
        raise RuntimeError("thread ids exist only while a kernel runs: call kernel.launch(...)")
    return _current


def global_id():
    return _now().gid


def local_id():
    return _now().lid


def workgroup_id():
    return _now().wid


def num_workgroups():
    return _now().nwg


def local_index():
    return _now().lindex


def shared_array(elem, size):
    raise NotImplementedError("shared_array is not supported by this version of spirthon")


def barrier():
    raise NotImplementedError("barrier is not supported by this version of spirthon")


def _per_component_min_max(fn):
    """Makes ``min`` and ``max`` in the module of ``fn`` work per component on vectors (they
    behave as the built-ins on everything else), unless the module defines its own."""
    g = getattr(fn, "__globals__", None)
    if isinstance(g, dict):
        g.setdefault("min", vectors.min)
        g.setdefault("max", vectors.max)


def func(fn):
    """Marks a device function. Under CPython it is the plain function."""
    fn.__spirthon_func__ = True
    _per_component_min_max(fn)
    return fn


def _annotations(fn):
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


class Param:
    __slots__ = ("name", "kind", "elem")

    def __init__(self, name, kind, elem):
        self.name, self.kind, self.elem = name, kind, elem


def _param(name, ann):
    if isinstance(ann, _ArrayType):
        return Param(name, "array", ann.elem)
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
        self.name = fn.__name__
        if isinstance(workgroup_size, int):
            workgroup_size = (workgroup_size,)
        self.workgroup_size = tuple(workgroup_size) + (1,) * (3 - len(workgroup_size))
        hints = _annotations(fn)
        self.params = [_param(n, hints.get(n)) for n in inspect.signature(fn).parameters]

    def __call__(self, *args, **kwargs):
        raise TypeError("a kernel runs through %s.launch(threads, ...)" % self.name)

    def bind(self, args, kwargs):
        """The arguments in parameter order, scalars converted to their declared types."""
        sig = inspect.signature(self.fn)
        bound = sig.bind(*args, **kwargs)
        out = []
        for p in self.params:
            value = bound.arguments[p.name]
            if p.kind == "array":
                if not isinstance(value, Array):
                    raise TypeError("argument %r must be an Array(%r, ...)" % (p.name, p.elem))
                if value.elem is not p.elem:
                    raise TypeError("argument %r must be an Array of %r, not of %r" % (p.name, p.elem, value.elem))
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

    def launch(self, threads, /, *args, **kwargs):
        """Runs one invocation per thread; ``threads`` is an int or one to three ints."""
        global _current
        if isinstance(threads, int):
            threads = (threads,)
        threads = tuple(threads) + (1,) * (3 - len(threads))
        values = self.bind(args, kwargs)
        wg = self.workgroup_size
        groups = tuple(-(-t // w) for t, w in zip(threads, wg))
        inv = _Invocation()
        inv.nwg = ivec3(*groups)
        saved = _current
        _current = inv
        try:
            for wz, wy, wx in itertools.product(range(groups[2]), range(groups[1]), range(groups[0])):
                inv.wid = ivec3(wx, wy, wz)
                for lz, ly, lx in itertools.product(range(wg[2]), range(wg[1]), range(wg[0])):
                    gx, gy, gz = wx * wg[0] + lx, wy * wg[1] + ly, wz * wg[2] + lz
                    if gx >= threads[0] or gy >= threads[1] or gz >= threads[2]:
                        continue
                    inv.gid = ivec3(gx, gy, gz)
                    inv.lid = ivec3(lx, ly, lz)
                    inv.lindex = (lz * wg[1] + ly) * wg[0] + lx
                    self.fn(*values)
        finally:
            _current = saved


def kernel(fn=None, *, workgroup_size=64):
    """Marks a kernel: ``@kernel`` or ``@kernel(workgroup_size=N | (X, Y) | (X, Y, Z))``."""
    if fn is None:
        return lambda f: Kernel(f, workgroup_size)
    return Kernel(fn, workgroup_size)

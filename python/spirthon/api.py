"""The kernel language's decorators and launches: ``@kernel`` gives a ``Kernel``, whose
``launch`` runs it on the current device (``spirthon.gpu``, which hands the ``"python"``
device to the reference executor, ``spirthon.runtime``); ``@func`` marks a device function,
which runs in the kernel's types under CPython.

Imports go one way: this module uses ``gpu`` and ``runtime``; neither uses it.
"""

import copy
import functools
import inspect
import operator
import sys
import typing

from . import _library, generic as _generic, gpu, runtime, source, typed
from . import tape as _tape
from .errors import CompileError
from .arrays import Array, _ArrayType, copied, element
from .runtime import _per_component_min_max
from .scalars import LitF, LitI, value as literal_value
from .types import convert, f16, f32, f64, i32, u32, i8, u8, i16, u16, i64, u64
from .matrices import MatrixType
from .structs import StructType
from .vectors import VectorType


def func(fn=None, *, grad=None):
    """Marks a device function. Under CPython it is the function, run in the kernel's types
    (``spirthon.typed``): its arguments and result are converted to their annotated types as
    the compiled func converts them (a ``-> u32`` hash returns what the GPU returns; an int
    passed to an ``f32`` parameter becomes float32), and vector arguments are copies (vectors
    are values in kernels: a func changing a component of its parameter does not change the
    caller's vector).

    ``@func(grad=f_grad)`` gives the func its own adjoint for gradients (``spirthon.Tape``):
    ``f_grad``, a ``@func`` defined before it in the same file, takes the func's parameters
    and then the adjoint of its result, and returns the adjoints of its float parameters
    (``f32`` and ``vec``s), in order: one value, or a tuple of them."""
    if fn is None:
        return lambda f: func(f, grad=grad)
    if grad is not None and not getattr(grad, "__spirthon_func__", False):
        raise TypeError("@func(grad=...) of %s: the adjoint is a @func, not %r" % (fn.__name__, grad))
    _per_component_min_max(fn)
    hints = _annotations(fn)
    params = [_converter(hints.get(n)) if n in hints and hints[n] is not typing.Any else _generic_arg
              for n in inspect.signature(fn).parameters]
    result = _converter(hints.get("return")) if "return" in hints else _inferred_result
    compiled = []

    src = source.keep(fn)

    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if not compiled:
            compiled.append(typed.compile_typed(fn, typed.module_globals(fn.__globals__, refresh=False), src) or fn)
        if kwargs or len(args) != len(params):
            # Keyword arguments and defaults, bound as Python binds them; every parameter
            # is then passed by position, converted to its type.
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        out = compiled[0](*[c(a) for c, a in zip(params, args)])
        return result(out)

    call.__spirthon_func__ = True
    call.__spirthon_source__ = src
    call.__spirthon_grad__ = grad
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
    return copied


def _generic_arg(v):
    """An argument of a func parameter without an annotation (or annotated ``Any``): a
    literal (or a default value) takes its own type, as the compiler types the parameter
    from it (``1`` an ``i32``, ``0.5`` an ``f32``); a typed value is copied."""
    if type(v) in (int, float, LitI, LitF):
        return literal_value(v)
    return copied(v)


def _inferred_result(v):
    """The result of a func without a return annotation, as the compiler types it from its
    `return`s: a literal (or a module constant) takes its default type, an `int` an `i32`
    (a `u32` from 2**31), a `float` an `f32`; tuples item by item; typed values as they are."""
    if isinstance(v, tuple):
        return tuple(_inferred_result(x) for x in v)
    if type(v) not in (int, float, LitI, LitF):
        return copied(v)
    if isinstance(v, float):
        return convert(f32, v)
    return convert(u32 if v >= 2 ** 31 else i32, v)


def _annotations(fn):
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


class Param:
    __slots__ = ("name", "kind", "elem", "dims", "generic")

    def __init__(self, name, kind, elem):
        self.name, self.kind, self.elem = name, kind, elem
        self.dims = 1
        self.generic = None


def _param(name, ann, annotated=True):
    g = _generic.generic(name, ann, annotated)
    if g is not None:
        p = Param(name, "generic", None)
        p.generic = g
        return p
    if isinstance(ann, _ArrayType):
        p = Param(name, "array", ann.elem)
        p.dims = ann.dims
        return p
    if ann is int or ann is i32:
        return Param(name, "scalar", i32)
    if ann is float or ann is f32:
        return Param(name, "scalar", f32)
    if ann is u32:
        return Param(name, "scalar", u32)
    if ann in (f64, f16, i8, u8, i16, u16, i64, u64):
        return Param(name, "scalar", ann)
    if ann is bool:
        return Param(name, "scalar", bool)
    if isinstance(ann, (VectorType, MatrixType)):
        return Param(name, "vector", ann)
    if isinstance(ann, StructType):
        return Param(name, "struct", ann)
    raise TypeError("parameter %r has an unsupported annotation %r" % (name, ann))


# The workgroup size of a kernel whose ``@kernel`` declares none.
DEFAULT_WORKGROUP_SIZE = 64


class Kernel:
    """A ``@kernel``: ``kernel[griddim, blockdim](*args, **kwargs)`` runs it over a grid of
    workgroups, ``kernel.launch(threads, *args, **kwargs)`` over a number of threads."""

    # The workgroup size a grid launch gave this kernel (``kernel[griddim, blockdim]`` of a
    # kernel that declares none), compiled in place of the default; None: its decorator's.
    _launch_block = None

    def __init__(self, fn, workgroup_size=None):
        functools.update_wrapper(self, fn)
        _per_component_min_max(fn)
        self.fn = fn
        self._compiled = None
        self.name = fn.__name__
        # The file's text now: what every device runs (``spirthon.source``).
        self.source = source.keep(fn)
        # Whether ``@kernel`` declares the workgroup size: a grid launch's blockdim must then
        # be it; otherwise each blockdim has a specialization of its own (``_with_block``).
        self.declares_workgroup_size = workgroup_size is not None
        if workgroup_size is None:
            workgroup_size = DEFAULT_WORKGROUP_SIZE
        if isinstance(workgroup_size, int):
            workgroup_size = (workgroup_size,)
        self.workgroup_size = tuple(workgroup_size) + (1,) * (3 - len(workgroup_size))
        hints = _annotations(fn)
        self._signature = inspect.signature(fn)
        self.params = [_param(n, hints.get(n), n in hints) for n in self._signature.parameters]
        # A specialization of a generic kernel: its (generic name, type text) pairs.
        self.types = None
        self._specializations = {}

    @property
    def generic(self):
        """Whether a parameter's type comes from each launch (``spirthon.generic``)."""
        if self.types is not None:
            return False
        params = self.__dict__.get("_generic_params")
        if params is None or params[0] is not self.params:
            params = self.__dict__["_generic_params"] = (self.params, any(p.generic is not None for p in self.params))
        return params[1]

    def specialize(self, types):
        """The kernel with each generic name's type given (``types``: ``(name, type)``
        pairs, a type an annotation such as ``f32`` or ``Array2D[u8]`` or its text); one
        object per set of types, which the compile caches keep apart."""
        if not self.generic:
            raise TypeError("kernel %s is not generic" % self.name)
        ns = self.fn.__globals__
        resolved = [(n, _generic.parse(t, ns) if isinstance(t, str) else t) for n, t in types]
        key = tuple((n, _generic.text(t)) for n, t in resolved)
        spec = self._specializations.get(key)
        if spec is not None:
            return spec
        by_name = dict(resolved)
        names = []
        for p in self.params:
            if p.generic is not None and p.generic.var not in names:
                names.append(p.generic.var)
        unknown = [n for n in by_name if n not in names]
        if unknown or len(by_name) != len(names):
            raise TypeError("kernel %s: its generic names are %s; types were given for %s"
                            % (self.name, ", ".join(names), ", ".join(by_name) or "none"))
        spec = self._variant(None)
        spec.params = []
        for p in self.params:
            if p.generic is None:
                spec.params.append(p)
                continue
            ann = _generic.annotation(p.generic, by_name[p.generic.var])
            spec.params.append(_param(p.name, ann))
        spec.types = [(n, _generic.text(by_name[n])) for n in names]
        self._specializations[key] = spec
        return spec

    def _variant(self, specializations):
        """A copy of this kernel to change into a specialization (of types or of a workgroup
        size), with nothing compiled or derived for this one (its module, launch plans,
        adjoint, grid launchers) and ``specializations`` as its own."""
        spec = copy.copy(self)
        spec._compiled = None
        spec._specializations = specializations
        for cached in ("_gpu_plans", "_gpu_fast", "_adjoint", "_blocks", "_grids"):
            spec.__dict__.pop(cached, None)
        return spec

    def _with_block(self, block):
        """The kernel to run in workgroups of ``block`` (three sizes): itself when that is its
        workgroup size, a ``ValueError`` naming both when it declares another, else its
        specialization for ``block`` (one object per size, which the compile caches keep
        apart, as for a generic kernel's types)."""
        if block == self.workgroup_size:
            return self
        if self.declares_workgroup_size:
            raise ValueError(
                "kernel %s declares workgroup_size=%s, but the launch's blockdim is %s: launch it with "
                "blockdim %s, or leave workgroup_size out of its @kernel to have each launch choose"
                % (self.name, _dims_text(self.workgroup_size), _dims_text(block), _dims_text(self.workgroup_size)))
        blocks = self.__dict__.setdefault("_blocks", {})
        spec = blocks.get(block)
        if spec is not None:
            return spec
        spec = self._variant({} if self._specializations is not None else None)
        spec.workgroup_size = spec._launch_block = block
        blocks[block] = spec
        return spec

    def _specialized(self, args, kwargs):
        """The kernel to run for these arguments: itself, or its specialization for their
        types when it is generic."""
        if not self.generic:
            return self
        bound = self._signature.bind(*args, **kwargs)
        values = [bound.arguments[p.name] for p in self.params]
        return self.specialize(_generic.types_of(self.params, values, self.fn.__globals__, self.name))

    def __copy__(self):
        # A shallow copy (a specialization starts as one), not ``__reduce__``'s reference.
        spec = object.__new__(type(self))
        spec.__dict__.update(self.__dict__)
        return spec

    def __reduce__(self):
        # Pickled as the function it decorates is, by module and name, with the types and
        # workgroup size of a specialization: a process that unpickles it imports the module
        # and compiles the kernel for its own device (devices do not travel between processes).
        return (_kernel_named, (self.__module__, self.__qualname__, self.fn.__code__.co_filename,
                                self.types, self._launch_block))

    def __call__(self, *args, **kwargs):
        raise TypeError("a kernel runs through %s[griddim, blockdim](...) or %s.launch(threads, ...)" % (self.name, self.name))

    def bind(self, args, kwargs):
        """The arguments in parameter order, scalars converted to their declared types."""
        if self.generic:
            return self._specialized(args, kwargs).bind(args, kwargs)
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
            elif p.kind in ("vector", "struct"):
                out.append(element(p.elem, value))
            else:
                out.append(convert(p.elem, value))
        return out

    def signature(self):
        """The kernel function's ``inspect.Signature``."""
        return self._signature

    def __getitem__(self, config):
        """``kernel[griddim, blockdim](*args)``: a launch of ``griddim`` workgroups of
        ``blockdim`` threads each, in the spelling of Numba-CUDA (``griddim`` and ``blockdim``
        each an int or one to three ints, padded with 1s; then optionally a stream, 0 or None,
        and a dynamic shared memory size, 0). ``kernel.launch`` takes the number of threads.
        A kernel that declares its ``workgroup_size`` runs only with that blockdim; one that
        does not is compiled for each blockdim it is launched with."""
        # The launchers of the configurations written with ints (and None), kept: a loop
        # launches one configuration again and again.
        grids = self.__dict__.get("_grids")
        plain = _plain_config(config)
        launcher = grids.get(config) if plain and grids is not None else None
        if launcher is not None:
            return launcher
        threads, block = _grid(self.name, config)
        spec = self._with_block(block)
        launcher = GridLaunch(spec.launch, threads)
        if plain:
            if grids is None or len(grids) >= 64:
                grids = self.__dict__["_grids"] = {}
            grids[config] = launcher
        return launcher

    def launch(self, threads, /, *args, **kwargs):
        """Runs one invocation per thread (``threads``: an int or one to three ints), in
        workgroups of the kernel's ``workgroup_size`` (64 when it declares none), on the
        current device (``spirthon.set_device``): a GPU through the native module, or the
        CPython reference executor. Arrays are NumPy arrays, device arrays or ``Array``
        values; those the kernel writes are updated in place."""
        if self.__dict__.get("_watched") != []:
            self._refuse_rebound()
        caller = sys._getframe(1)
        site = "%s:%d" % (caller.f_code.co_filename, caller.f_lineno)
        kernel = self._specialized(args, kwargs) if self.generic else self
        # The one-pass launch of a kernel launched before (``gpu._fast_path``), else the
        # general path (which builds it, and counts array writes while a tape holds launches).
        fast = kernel.__dict__.get("_gpu_fast")
        if fast and not kwargs and not gpu._watching and fast.device is gpu._device and fast(threads, args, gpu._timeout, site):
            return
        recording = _tape.active()
        if recording is not None:
            return recording.record(kernel, threads, args, kwargs, False, site)
        gpu.launch(kernel, threads, args, kwargs, False, site)

    def launch_checked(self, threads, /, *args, **kwargs):
        """``launch`` in checked mode: an invocation that fails an index, division or assert
        check stops, the others run on, and then ``CheckError`` reports the first failure
        (lowest workgroup, then invocation) as ``spirthon run --checked`` does."""
        return self._launch_checked(threads, args, kwargs, sys._getframe(1))

    def _launch_checked(self, threads, args, kwargs, caller):
        self._refuse_rebound()
        site = "%s:%d" % (caller.f_code.co_filename, caller.f_lineno)
        recording = _tape.active()
        if recording is not None:
            return recording.record(self._specialized(args, kwargs), threads, args, kwargs, True, site)
        gpu.launch(self._specialized(args, kwargs), threads, args, kwargs, True, site)

    @property
    def adjoint(self):
        """The adjoint kernel (``spirthon.autodiff``): this kernel's parameters, then the
        adjoint array of each ``f32``/``vec`` array parameter; ``Tape.backward`` launches it.
        ``AdjointError`` (a ``CompileError``) where the kernel cannot be differentiated."""
        if self.generic:
            raise TypeError("kernel %s is generic: take the adjoint of a specialization (kernel.specialize(...))" % self.name)
        return self.__dict__.get("_adjoint") or _tape._adjoint_of(self)

    @property
    def adjoint_source(self):
        """The adjoint kernel's definition, as Python source in the kernel language."""
        return self.adjoint.info.text

    def _refuse_rebound(self):
        """A kernel runs with its module's constants as the file writes them (the compiler
        reads the text, and the executor folds it alike): one that the program has since
        bound to another value is refused on every device, rather than run with a value
        the program no longer has."""
        watched = self.__dict__.get("_watched")
        if watched is None:
            watched = self.__dict__["_watched"] = typed.watched_constants(self.fn, self.source)
        rebound = watched and typed.rebound(self.fn, watched)
        if rebound:
            name, written, now = rebound
            raise CompileError(
                "%s: `%s` is %r now, but kernel `%s` uses the module's constants as the file "
                "writes them (%r); pass a value that changes as a kernel parameter"
                % (self.fn.__code__.co_filename, name, now, self.name, written)
            )

    def reference_launch(self, threads, args, kwargs, checked=False):
        """A launch on the CPython reference executor, whatever the current device
        (``spirthon.runtime.reference_launch``)."""
        runtime.reference_launch(self._specialized(args, kwargs), threads, args, kwargs, checked)


class AdjointKernel(Kernel):
    """A kernel's adjoint (``spirthon.autodiff``, made by ``Kernel.adjoint``): the kernel's
    file text with the adjoint's definition appended, which every device compiles as it
    compiles any kernel's file. It is made without CPython compiling that text: only the
    python device runs ``fn``, the function, made at its first use."""

    def __init__(self, kernel, info, src, params):
        self.__name__ = self.__qualname__ = self.name = info.name
        self.__module__ = kernel.__module__
        self.__doc__ = "The adjoint of kernel %s." % kernel.name
        self.source = src
        self.workgroup_size = kernel.workgroup_size
        # Its text declares its kernel's workgroup size.
        self.declares_workgroup_size = True
        self.params = params
        self._compiled = None
        self.types = None
        self._specializations = {}
        self._source_checked = True  # the text is the adjoint's own
        self.info = info
        self.adjoint_of = kernel

    @property
    def _signature(self):
        # Made at its first use (a launch by keywords): most adjoints are launched by the
        # tape, by position.
        sig = self.__dict__.get("_sig")
        if sig is None:
            sig = self.__dict__["_sig"] = inspect.Signature(
                [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in self.params])
        return sig

    @property
    def fn(self):
        fn = self.__dict__.get("_fn")
        if fn is None:
            fn = self.__dict__["_fn"] = _tape._adjoint_function(self)
        return fn

    def _refuse_rebound(self):
        # It reads the module constants its kernel reads.
        self.adjoint_of._refuse_rebound()


class GridLaunch(functools.partial):
    """``kernel[griddim, blockdim]``: calling it launches the kernel over the grid
    (``griddim × blockdim`` threads in workgroups of ``blockdim``); ``.launch_checked(*args)``
    launches it in checked mode (``Kernel.launch_checked``)."""

    def launch_checked(self, *args, **kwargs):
        return self.func.__self__._launch_checked(self.args[0], args, kwargs, sys._getframe(1))


def _dims_text(dims):
    """Three sizes as a launch writes them: ``256``, ``(16, 16)``, ``(4, 4, 4)``."""
    n = 3 if dims[2] != 1 else 2 if dims[1] != 1 else 1
    return str(dims[0]) if n == 1 else "(%s)" % ", ".join(str(d) for d in dims[:n])


def _grid(name, config):
    """A grid launch's threads and workgroup size (three each) from ``kernel[config]``:
    ``griddim, blockdim[, stream[, sharedmem]]``; what is not one a ``TypeError`` or a
    ``ValueError`` that says how to write it."""
    if not isinstance(config, tuple) or len(config) < 2:
        raise TypeError(
            "%s[...] takes a grid and a block, %s[griddim, blockdim](...) (griddim workgroups of blockdim "
            "threads, each an int or up to three ints), not %s: for a number of threads write "
            "%s.launch(threads, ...)" % (name, name, gpu._shown(config[0] if isinstance(config, tuple) and config else config), name))
    if len(config) > 4:
        raise TypeError("%s[griddim, blockdim, stream, sharedmem] takes at most four values, not %d" % (name, len(config)))
    grid = gpu._counts("griddim", config[0], 0, _library.MAX_THREADS_PER_AXIS)
    block = gpu._counts("blockdim", config[1], 1, MAX_WORKGROUP_INVOCATIONS)
    grid += (1,) * (3 - len(grid))
    block += (1,) * (3 - len(block))
    if block[0] * block[1] * block[2] > MAX_WORKGROUP_INVOCATIONS:
        raise ValueError("blockdim %s is a workgroup of %d threads, more than devices allow (%d)"
                         % (_dims_text(block), block[0] * block[1] * block[2], MAX_WORKGROUP_INVOCATIONS))
    if len(config) > 2 and not (config[2] is None or (not isinstance(config[2], bool) and _is_zero(config[2]))):
        raise ValueError("%s[griddim, blockdim, stream]: a launch runs in order on its device's queue, it takes "
                         "no stream: leave it out, or pass 0 or None, not %s" % (name, gpu._shown(config[2])))
    if len(config) > 3 and (isinstance(config[3], bool) or not _is_zero(config[3])):
        raise ValueError("%s[griddim, blockdim, stream, sharedmem]: a kernel's shared memory is its "
                         "shared_array(T, n) calls, of constant sizes; the dynamic size must be 0, not %s"
                         % (name, gpu._shown(config[3])))
    threads = tuple(g * b for g, b in zip(grid, block))
    for k, t in enumerate(threads):
        if t > _library.MAX_THREADS_PER_AXIS:
            raise ValueError("griddim %s x blockdim %s is %d threads on axis %d, more than a launch takes (%d)"
                             % (_dims_text(grid), _dims_text(block), t, k, _library.MAX_THREADS_PER_AXIS))
    return threads, block


def _plain_config(config):
    """Whether a subscript is a tuple of ints, tuples of ints and Nones only (the key of a
    kept launcher: ``1.0`` or ``True`` would find the launcher of ``1``)."""
    if type(config) is not tuple:
        return False
    for v in config:
        if not (v is None or type(v) is int or (type(v) is tuple and all(type(x) is int for x in v))):
            return False
    return True


def _is_zero(value):
    try:
        return operator.index(value) == 0
    except TypeError:
        return False


def _kernel_named(module, qualname, path, types, block):
    """The kernel a pickle names (``Kernel.__reduce__``). A kernel of the main script is looked
    up in ``__main__``, then in ``__mp_main__``, which a worker process started by
    multiprocessing's spawn imports the script as; where neither has it (a worker of another
    pool: dask's), the script is run as ``__mp_main__`` as spawn runs it (the code under
    ``if __name__ == "__main__":`` does not run)."""
    import importlib
    names = [module] if module != "__main__" else ["__main__", "__mp_main__"]
    for name in names:
        found = _attribute(sys.modules.get(name) or (importlib.import_module(name) if name == module else None), qualname)
        if found is not None:
            break
    else:
        if module != "__main__" or "__mp_main__" in sys.modules:
            raise AttributeError("cannot find kernel %s of module %s to unpickle" % (qualname, module))
        import runpy
        import types as _types
        main = _types.ModuleType("__mp_main__")
        main.__file__ = path
        sys.modules["__mp_main__"] = main
        main.__dict__.update(runpy.run_path(path, run_name="__mp_main__"))
        found = _attribute(main, qualname)
    if not isinstance(found, Kernel):
        raise TypeError("%s.%s is not the kernel that was pickled (%r)" % (module, qualname, found))
    if block is not None:
        found = found._with_block(block)
    if types is not None:
        found = found.specialize(types)
    return found


def _attribute(obj, qualname):
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj


# The most invocations of one workgroup (the compiler's limit: every Vulkan device allows 128,
# most 1024).
MAX_WORKGROUP_INVOCATIONS = 1024


def kernel(fn=None, *, workgroup_size=None):
    """Marks a kernel: ``@kernel`` or ``@kernel(workgroup_size=N | (X, Y) | (X, Y, Z))``; without
    one, the workgroup size is 64 for ``launch`` and each grid launch's ``blockdim``."""
    if fn is None:
        return lambda f: Kernel(f, workgroup_size)
    return Kernel(fn, workgroup_size)

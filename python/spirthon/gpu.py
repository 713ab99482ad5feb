"""Launching kernels on a GPU from Python: ``kernel.launch`` with NumPy arrays, device
arrays, the device switch and the compile cache.

The native module ``spirthon._native`` (built from ``crates/spirthon-py``) holds the compiler
and the Vulkan/Metal runtime; everything here is plain Python over its byte-level API:

- A kernel compiles in-process the first time it is launched, from the text of the file it
  was defined in (``linecache``, so scripts, modules and notebook cells work), with the
  other imports of the file left to the CPU side. Errors raise ``CompileError`` with the
  compiler's rustc-style message. Modules are cached in memory and on disk, keyed by the
  source text, the kernel, the mode and the native module's build.
- Arguments follow the reflection JSON of the module (docs/language.md, "The binding ABI"):
  scalars and vectors go into the uniform block, arrays into storage buffers. NumPy arrays
  are copied in and, when the kernel writes them, back in place; ``spirthon.Array`` values
  are too; device arrays (``spirthon.array``, ``spirthon.zeros``) stay on the device.
- ``set_device("python")`` (or ``SPIRTHON_DEVICE=python``) runs every launch on the CPython
  reference executor instead, with the same arguments.

Invariants: launches on one device run in call order, and a launch with host arrays returns
after their results are back; a launch with device arrays only returns once it is submitted.
"""

import hashlib
import json
import linecache
import logging
import math
import os
import struct
import sys
import time

from .types import Array, element, f32, i32, u32
from .vectors import Vector, VectorType

try:
    from . import _native
except ImportError as _e:  # the pure-Python package without the extension
    _native = None
    _NATIVE_ERROR = str(_e)

_log = logging.getLogger("spirthon")


class CompileError(Exception):
    """A kernel did not compile: ``str(e)`` is the compiler's message, with the file and
    line of each error."""


# The device switch.

_device = None  # a _Device, or _PYTHON; None until the first launch or set_device
_PYTHON = "python"


class _Device:
    """A native device, with the pipelines prepared on it."""

    def __init__(self, native):
        self.native = native
        self.name = native.name
        self.pipelines = {}

    def __repr__(self):
        return "Device(%r)" % self.native.describe()


def set_device(name=None):
    """Chooses where launches run: ``"python"`` for the CPython reference executor, the name
    (or part of it, case-insensitive) of a GPU as ``devices()`` lists it, or ``None`` for the
    default (``SPIRTHON_DEVICE``, else the first GPU, else lavapipe). Raises ``RuntimeError``
    when no such device can be opened."""
    global _device
    _device = _open(name, explicit=True)


def device():
    """The current device's name (``"python"`` for the reference executor)."""
    d = _current()
    return _PYTHON if d is _PYTHON else d.native.describe()


def devices():
    """Every device a launch can run on: each Vulkan or Metal adapter, then ``"python"``."""
    found = _native.adapters() if _native is not None else []
    return found + [_PYTHON]


def synchronize():
    """Waits until every launch so far has run on the current device."""
    d = _current()
    if d is not _PYTHON:
        d.native.finish()


def _open(name, explicit):
    if name is None:
        name = os.environ.get("SPIRTHON_DEVICE") or None
        explicit = name is not None
    if name == _PYTHON:
        return _PYTHON
    if _native is None:
        if explicit:
            raise RuntimeError("cannot open device %r: the native module is not built (%s); install spirthon with `pip install .` from its repository" % (name, _NATIVE_ERROR))
        _notice("the native module is not built (%s): kernels run on the CPython reference executor; `pip install .` in spirthon's repository builds it" % _NATIVE_ERROR)
        return _PYTHON
    t = time.perf_counter()
    try:
        native = _native.Device(name)
    except RuntimeError as e:
        if explicit:
            raise
        _notice("%s: kernels run on the CPython reference executor" % e)
        return _PYTHON
    _log.debug("opened %s in %.1f ms", native.describe(), (time.perf_counter() - t) * 1e3)
    return _Device(native)


def _current():
    global _device
    if _device is None:
        _device = _open(None, explicit=False)
    return _device


_noticed = set()


def _notice(text):
    if text not in _noticed:
        _noticed.add(text)
        sys.stderr.write("spirthon: %s\n" % text)


# Compiling, with the caches.

_modules = {}  # cache key -> _Module


class _Module:
    """A compiled module: its words and the reflection of one kernel."""

    def __init__(self, words, reflection, kernel_name, path, source):
        self.words = words
        self.reflection = reflection
        self.path, self.source = path, source
        info = json.loads(reflection)
        entry = next(k for k in info["kernels"] if k["name"] == kernel_name)
        self.workgroup_size = tuple(entry["workgroup_size"])
        uniform = entry["bindings"][0]
        self.uniform_size = uniform["size"]
        self.fields = {f["name"]: (f["type"], f["offset"]) for f in uniform["fields"]}
        self.arrays = {b["name"]: (b["binding"], b["read_only"]) for b in entry["bindings"][1:]}
        self.checked = "checks" in info


def _source_of(fn):
    """The file a kernel was defined in, and its whole text."""
    path = fn.__code__.co_filename
    linecache.checkcache(path)
    text = "".join(linecache.getlines(path, fn.__globals__))
    if not text:
        raise CompileError("cannot read the source of kernel `%s` (defined in %s): spirthon compiles kernels from their file's text" % (fn.__name__, path))
    return path, text


def _cache_dir():
    d = os.environ.get("SPIRTHON_CACHE_DIR")
    if d == "":
        return None  # disabled
    if d is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "spirthon")
    return d


def _native_build():
    """What identifies the native module's build: its version and file."""
    try:
        st = os.stat(_native.__file__)
        return "%s:%d:%d" % (_native.VERSION, st.st_size, st.st_mtime_ns)
    except (AttributeError, OSError):
        return _native.VERSION


def compile_kernel(kernel, checked=False):
    """The compiled module of ``kernel`` (a ``@kernel``), from the caches when it is there.
    Raises ``CompileError`` when the file does not compile."""
    if _native is None:
        raise RuntimeError("compiling needs spirthon's native module, which is not built (%s)" % _NATIVE_ERROR)
    path, source = _source_of(kernel.fn)
    key = hashlib.sha256("\0".join([_native_build(), path, kernel.name, str(checked), source]).encode()).hexdigest()
    m = _modules.get(key)
    if m is not None:
        return m
    cache = _cache_dir()
    files = (os.path.join(cache, key + ".spv"), os.path.join(cache, key + ".json")) if cache else None
    if files and os.path.exists(files[1]):
        try:
            with open(files[0], "rb") as f:
                words = f.read()
            with open(files[1]) as f:
                reflection = f.read()
            if len(words) < 20 or len(words) % 4 or words[:4] != b"\x03\x02\x23\x07":
                raise ValueError("not a SPIR-V module")
            m = _modules[key] = _Module(words, reflection, kernel.name, path, source)
            _log.debug("kernel %s from the cache %s", kernel.name, cache)
            return m
        except (OSError, ValueError, KeyError, StopIteration) as e:
            _log.debug("the cache entry of kernel %s is unreadable (%s): compiling", kernel.name, e)
    t = time.perf_counter()
    words, reflection, messages = _native.compile(source, path, kernel.name, checked)
    if words is None:
        raise CompileError(messages.rstrip())
    if messages:
        sys.stderr.write(messages)
    _log.debug("compiled kernel %s of %s in %.2f ms", kernel.name, path, (time.perf_counter() - t) * 1e3)
    if files:
        _store(files, words, reflection)
    m = _modules[key] = _Module(words, reflection, kernel.name, path, source)
    return m


def _store(files, words, reflection):
    """Writes a cache entry; a cache that cannot be written is skipped."""
    try:
        os.makedirs(os.path.dirname(files[0]), exist_ok=True)
        for name, data, mode in ((files[0], words, "wb"), (files[1], reflection, "w")):
            tmp = "%s.%d.tmp" % (name, os.getpid())
            with open(tmp, mode) as f:
                f.write(data)
            os.replace(tmp, name)
    except OSError as e:
        _log.debug("cannot write the compile cache: %s", e)


# Arguments.

_DTYPES = {f32: "float32", i32: "int32", u32: "uint32"}
_CODES = {f32: "f", i32: "i", u32: "I", float: "f"}


def _scalar_of(elem):
    """The scalar type of an array element type."""
    if isinstance(elem, VectorType):
        return f32 if elem.scalar is float else elem.scalar
    return elem


def _elem_name(elem):
    return elem.name if isinstance(elem, VectorType) else repr(elem)


def _numpy():
    import numpy
    return numpy


def _numpy_array_type():
    """``numpy.ndarray`` when NumPy is loaded (without importing it otherwise)."""
    np = sys.modules.get("numpy")
    return np.ndarray if np is not None else ()


class DeviceArray:
    """An array that lives on a device across launches: ``spirthon.array(values)`` or
    ``spirthon.zeros(shape, dtype)``. ``.numpy()`` reads it back. On the ``"python"`` device
    it lives in host memory, so the same program runs under the reference executor."""

    def __init__(self, dev, elem, shape, buffer=None, host=None):
        self.device, self.elem, self.shape = dev, elem, tuple(shape)
        self._buffer, self._host = buffer, host

    @property
    def dtype(self):
        return _numpy().dtype(_DTYPES[_scalar_of(self.elem)])

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0]

    def _np_shape(self):
        comps = (self.elem.size,) if isinstance(self.elem, VectorType) else ()
        return self.shape + comps

    def numpy(self):
        """The contents as a new NumPy array (vector elements as a last axis)."""
        np = _numpy()
        if self._host is not None:
            return self._host.copy()
        data = self.device.native.read(self._buffer)
        return np.frombuffer(data, dtype=self.dtype).reshape(self._np_shape()).copy()

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(a)``: the contents read back (a new array)."""
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    def update(self, values):
        """Replaces the contents with ``values`` (a NumPy array of the same shape)."""
        arr = _as_numpy(values, self.elem, len(self.shape), "values")
        if arr.shape != self._np_shape():
            raise ValueError("values of shape %r for a device array of shape %r" % (arr.shape, self._np_shape()))
        if self._host is not None:
            self._host[...] = arr
        else:
            self.device.native.write(self._buffer, arr.tobytes())

    def __repr__(self):
        return "DeviceArray(%s, shape=%r, on %s)" % (_elem_name(self.elem), self.shape, "python" if self._host is not None else self.device.name)


def _elem_of(dtype, elem):
    """The element type of an array: ``elem`` when given (a spirthon type, or a NumPy dtype),
    else from ``dtype``."""
    np = _numpy()
    if elem is None:
        elem = dtype
    if isinstance(elem, VectorType) or elem in (f32, i32, u32):
        return elem
    try:
        name = np.dtype(elem).name
    except TypeError:
        raise TypeError("an array's element type is f32, i32, u32, a vector type, or a NumPy dtype float32, int32, uint32; not %r" % (elem,)) from None
    for t, n in _DTYPES.items():
        if n == name:
            return t
    raise TypeError("kernels take float32, int32 and uint32 arrays, not %s" % name)


def _as_numpy(values, elem, dims, what):
    np = _numpy()
    arr = np.ascontiguousarray(values, dtype=_DTYPES[_scalar_of(elem)])
    want = dims + (1 if isinstance(elem, VectorType) else 0)
    if arr.ndim != want:
        raise ValueError("%s: %d dimensions for an array of %s, %d expected" % (what, arr.ndim, _elem_name(elem), want))
    return arr


def array(values, dtype=None):
    """A device array holding ``values`` (a NumPy array or nested lists): its element type is
    ``dtype`` (``f32``, ``vec4``, ``np.float32``, …) or the NumPy array's. A vector element
    type takes the last axis as the components."""
    np = _numpy()
    if dtype is None and not isinstance(values, np.ndarray):
        raise TypeError("spirthon.array(values, dtype): name the element type for values that are not a NumPy array")
    elem = _elem_of(getattr(values, "dtype", None), dtype)
    arr = np.array(values, dtype=_DTYPES[_scalar_of(elem)], order="C")
    shape = arr.shape[:-1] if isinstance(elem, VectorType) else arr.shape
    if isinstance(elem, VectorType) and (arr.ndim < 2 or arr.shape[-1] != elem.size):
        raise ValueError("an array of %s needs a last axis of %d components, not shape %r" % (elem.name, elem.size, arr.shape))
    if not 1 <= len(shape) <= 3:
        raise ValueError("arrays have one to three dimensions, not %d" % len(shape))
    dev = _current()
    if dev is _PYTHON:
        return DeviceArray(dev, elem, shape, host=arr)
    return DeviceArray(dev, elem, shape, buffer=dev.native.upload(arr.tobytes()))


def zeros(shape, dtype=f32):
    """A zeroed device array of ``shape`` (an int or a tuple) with element type ``dtype``."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    elem = _elem_of(None, dtype)
    if not 1 <= len(shape) <= 3 or any(not isinstance(n, int) or n < 0 for n in shape):
        raise ValueError("a shape is one to three non-negative ints, not %r" % (shape,))
    dev = _current()
    comps = (elem.size,) if isinstance(elem, VectorType) else ()
    if dev is _PYTHON:
        return DeviceArray(dev, elem, shape, host=_numpy().zeros(shape + comps, dtype=_DTYPES[_scalar_of(elem)]))
    return DeviceArray(dev, elem, shape, buffer=dev.native.alloc(4 * math.prod(shape + comps)))


def _threads(threads):
    if isinstance(threads, int):
        threads = (threads,)
    try:
        threads = tuple(threads)
    except TypeError:
        raise TypeError("threads is an int or one to three ints, not %r" % (threads,)) from None
    if not 1 <= len(threads) <= 3 or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 0xFFFFFFFF for t in threads):
        raise ValueError("threads is one to three ints in 0..2**32-1, not %r" % (threads,))
    return threads + (1,) * (3 - len(threads))


class _HostArg:
    """A host array passed to a GPU launch: uploaded, and written back after it."""

    def __init__(self, name, value, arr, buffer):
        self.name, self.value, self.arr, self.buffer = name, value, arr, buffer

    def write_back(self, dev):
        data = dev.native.read(self.buffer)
        if isinstance(self.value, Array):
            elem = self.value.elem
            flat = struct.unpack("<%d%s" % (len(data) // 4, _CODES[_scalar_of(elem)]), data)
            if isinstance(elem, VectorType):
                flat = [flat[k:k + elem.size] for k in range(0, len(flat), elem.size)]
            self.value._data = [element(elem, v) for v in flat]
        else:
            np = _numpy()
            self.value[...] = np.frombuffer(data, dtype=self.arr.dtype).reshape(self.arr.shape)


def _array_arg(dev, p, value):
    """An array argument on the device: (buffer, shape, host argument or None). NumPy is
    needed only for NumPy arrays and device arrays."""
    if isinstance(value, DeviceArray):
        _check_type(p, "an array", value.elem, len(value.shape))
        if value.device is not dev:
            raise ValueError("argument %r lives on %r, not on the current device %r" % (p.name, value.device, dev))
        return value._buffer, value.shape, None
    if isinstance(value, Array):
        _check_type(p, "an Array", value.elem, value.dims)
        flat = [c for v in value._data for c in v.tolist()] if isinstance(p.elem, VectorType) else value._data
        data = struct.pack("<%d%s" % (len(flat), _CODES[_scalar_of(p.elem)]), *flat)
        buf = dev.native.upload(data)
        return buf, tuple(value.shape), _HostArg(p.name, value, None, buf)
    shape = _numpy_shape(p, value)
    if not value.flags.c_contiguous:
        raise TypeError("argument %r must be C-contiguous (np.ascontiguousarray makes a copy that is)" % p.name)
    buf = dev.native.upload(value.tobytes())
    return buf, shape, _HostArg(p.name, value, value, buf)


def _check_type(p, kind, elem, dims):
    """An array argument (``kind``: "an array" or "an Array") of element type ``elem`` and
    ``dims`` dimensions fits array parameter ``p``."""
    if elem is not p.elem:
        raise TypeError("argument %r must be %s of %s, not of %s" % (p.name, kind, _elem_name(p.elem), _elem_name(elem)))
    if dims != p.dims:
        raise TypeError("argument %r must have %d dimensions, not %d" % (p.name, p.dims, dims))


def _numpy_shape(p, value):
    """The shape (without a vector's component axis) of NumPy array ``value`` for array
    parameter ``p``, after checking its dtype and dimensions; a ``TypeError`` naming ``p``
    for anything else."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(value, np.ndarray):
        raise TypeError("argument %r must be a NumPy array, a device array or a spirthon.Array, not %s" % (p.name, type(value).__name__))
    want = _DTYPES[_scalar_of(p.elem)]
    if value.dtype != np.dtype(want):
        raise TypeError("argument %r must be a %s array (for Array[%s]), not %s" % (p.name, want, _elem_name(p.elem), value.dtype))
    comps = 1 if isinstance(p.elem, VectorType) else 0
    if value.ndim != p.dims + comps:
        raise TypeError("argument %r must have %d dimensions, not %d" % (p.name, p.dims + comps, value.ndim))
    if comps and value.shape[-1] != p.elem.size:
        raise TypeError("argument %r: an array of %s needs a last axis of %d, not %d" % (p.name, p.elem.name, p.elem.size, value.shape[-1]))
    return tuple(value.shape[:-1] if comps else value.shape)


def _scalar_words(p, value):
    """A scalar or vector argument as (struct format, values), converted as kernels do."""
    if p.kind == "vector":
        try:
            comps = value.tolist() if isinstance(value, (Vector, _numpy_array_type())) else list(value)
            v = element(p.elem, comps)
        except (TypeError, ValueError):
            raise TypeError("argument %r must be a %s (a vector, or %d numbers), not %r" % (p.name, p.elem.name, p.elem.size, value)) from None
        return _CODES[p.elem.scalar] * p.elem.size, v.tolist()
    if p.elem is bool:
        return "I", [1 if value else 0]
    return _CODES[p.elem], [_convert(p, value)]


def _convert(p, value):
    if not isinstance(value, (int, float)):
        try:
            value = value.item()  # a NumPy scalar
        except AttributeError:
            raise TypeError("argument %r must be a number, not %s" % (p.name, type(value).__name__)) from None
    if p.elem is not f32 and isinstance(value, float):
        raise TypeError("argument %r is %r, a float, for an %r parameter" % (p.name, value, p.elem))
    return p.elem(value)


class _Plan:
    """Where one kernel's arguments go in one compiled module: per parameter, its uniform
    slot (``None`` when the kernel never reads it) or its place among the array bindings;
    the hidden fields (the launch size, the shapes); which arrays the kernel writes."""

    def __init__(self, kernel, m):
        self.module = m
        order = sorted(m.arrays.items(), key=lambda kv: kv[1][0])
        position = {name: k for k, (name, _) in enumerate(order)}
        self.bindings = len(order)
        self.scalars, self.arrays = [], []
        for k, p in enumerate(kernel.params):
            if p.kind == "array":
                written = p.name in m.arrays and not m.arrays[p.name][1]
                self.arrays.append((k, p, position.get(p.name), written))
            else:
                self.scalars.append((k, p, m.fields[p.name][1] if p.name in m.fields else None))
        index = {p.name: k for k, p in enumerate(kernel.params)}
        self.threads = m.fields["threads"][1] if "threads" in m.fields else None
        self.shapes = []
        for name, (_, offset) in m.fields.items():
            if ".shape[" in name:
                array_name, axis = name[:-1].split(".shape[")
                self.shapes.append((index[array_name], int(axis), offset))


def _plan(kernel, checked):
    plans = kernel.__dict__.setdefault("_gpu_plans", {})
    plan = plans.get(checked)
    if plan is None:
        plan = plans[checked] = _Plan(kernel, compile_kernel(kernel, checked))
    return plan


def launch(kernel, threads, args, kwargs, checked):
    """``kernel.launch`` on the current device."""
    dev = _current()
    if dev is _PYTHON:
        return _launch_python(kernel, threads, args, kwargs, checked)
    threads = _threads(threads)
    if kwargs or len(args) != len(kernel.params):
        bound = kernel.signature().bind(*args, **kwargs)
        args = [bound.arguments[p.name] for p in kernel.params]
    plan = _plan(kernel, checked)
    m = plan.module
    pipeline = _pipeline(dev, m, kernel.name)
    uniform = bytearray(m.uniform_size)
    for k, p, offset in plan.scalars:
        fmt, vals = _scalar_words(p, args[k])
        if offset is not None:
            struct.pack_into("<" + fmt, uniform, offset, *vals)
    buffers = [None] * plan.bindings
    shapes = {}
    hosts = []
    devices = {}
    for k, p, at, written in plan.arrays:
        value = args[k]
        if written and getattr(getattr(value, "flags", None), "writeable", True) is False:
            raise ValueError("argument %r is a read-only NumPy array, but the kernel writes it (pass a writeable copy: np.array(x))" % p.name)
        buf, shapes[k], host = _array_arg(dev, p, value)
        if host is not None and written:
            hosts.append(host)
        if at is not None:
            buffers[at] = buf
            if isinstance(value, DeviceArray):
                _check_alias(devices, value, p.name, written)
    if plan.threads is not None:
        struct.pack_into("<3I", uniform, plan.threads, *threads)
    for k, axis, offset in plan.shapes:
        struct.pack_into("<i", uniform, offset, shapes[k][axis])
    errors = dev.native.launch(pipeline, bytes(uniform), buffers, threads)
    for h in hosts:
        h.write_back(dev)
    if errors is not None:
        groups = tuple(-(-t // w) for t, w in zip(threads, m.workgroup_size))
        failure = _native.report(errors, m.reflection, m.path, m.source, groups, m.workgroup_size)
        if failure is not None:
            from .runtime import CheckError
            raise CheckError.from_report(m.path, *failure)


def _check_alias(seen, value, name, written):
    """One device array bound twice, once where the kernel writes it: a device cannot bind a
    buffer as read-only and writable in one launch."""
    other = seen.get(id(value))
    if other is not None and (written or other[1]):
        raise ValueError("arguments %r and %r are the same device array, which the kernel writes through one of them: pass a copy (spirthon.array(a.numpy()))" % (other[0], name))
    seen[id(value)] = (name, written)


def _pipeline(dev, m, name):
    key = (id(m), name)
    p = dev.pipelines.get(key)
    if p is None:
        t = time.perf_counter()
        arrays = sorted(m.arrays.values())
        p = dev.native.prepare(m.words, name, m.workgroup_size, arrays, m.uniform_size, m.checked)
        dev.pipelines[key] = p
        _log.debug("prepared kernel %s on %s in %.1f ms", name, dev.name, (time.perf_counter() - t) * 1e3)
    return p


def _launch_python(kernel, threads, args, kwargs, checked):
    """A launch on the reference executor: NumPy and device arrays become ``Array`` values
    for it, and take its results back."""
    bound = kernel.signature().bind(*args, **kwargs)
    back = []
    for p in kernel.params:
        value = bound.arguments[p.name]
        if p.kind != "array" or isinstance(value, Array):
            continue
        host = value._host if isinstance(value, DeviceArray) else value
        if isinstance(value, DeviceArray) and value._host is None:
            raise ValueError("argument %r lives on %s, not on the python device" % (p.name, value.device.name))
        shape = _numpy_shape(p, host)
        comps = isinstance(p.elem, VectorType)
        flat = host.reshape(-1, p.elem.size).tolist() if comps else host.reshape(-1).tolist()
        a = Array(p.elem, flat, shape=shape if len(shape) > 1 else None)
        bound.arguments[p.name] = a
        back.append((host, a))
    try:
        kernel.reference_launch(threads, bound.args, bound.kwargs, checked)
    finally:
        np = _numpy() if back else None
        for host, a in back:
            host[...] = np.array(a.tolist(), dtype=host.dtype).reshape(host.shape)

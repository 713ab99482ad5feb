"""Launching kernels on a GPU from Python: ``kernel.launch`` with NumPy arrays, device
arrays, the device switch and the compile cache.

The native module ``spirthon._native`` (built from ``crates/spirthon-py``) holds the compiler
and the Vulkan/Metal runtime; everything here is plain Python over its byte-level API:

- A kernel compiles in-process the first time it is launched, from the text its file had
  when the kernel was defined (``spirthon.source``: an edit to the file later does not
  change what runs until the module is imported again), with the other imports of the file
  left to the CPU side. Errors raise ``CompileError`` with the compiler's rustc-style
  message. Modules are cached in memory and on disk, keyed by the source text, the kernel,
  the mode and the native module's build; a disk entry carries a checksum of itself and is
  compiled again when anything about it does not check out.
- Arguments follow the reflection JSON of the module (docs/language.md, "The binding ABI"):
  scalars and vectors go into the uniform block, arrays into storage buffers. NumPy arrays
  are copied in and, when the kernel writes them, back in place; ``spirthon.Array`` values
  are too; device arrays (``spirthon.array``, ``spirthon.zeros``) stay on the device. One
  rule converts an argument on every device (``_number``): a float for an integer is a
  ``TypeError``, a number out of its type's range an ``OverflowError``, each naming the
  argument. Arrays the kernel writes must not share memory with another array argument.
- ``set_device("python")`` (or ``SPIRTHON_DEVICE=python``) runs every launch on the CPython
  reference executor instead, with the same arguments; a kernel the compiler rejects is
  rejected there too (``print`` excepted), when the native module is there to say so.

Invariants: every operation on a device runs on that device's own thread in the order it
was asked for, from any number of Python threads (so each launch computes with its own
scalars); a launch with host arrays returns after their results are back; a launch with
device arrays only returns once it is recorded, and waits first while the device's queue is
full (``_native.MAX_QUEUED`` operations). Every wait can be interrupted (Ctrl-C) and gives
up when the device has made no progress for ``set_timeout``'s seconds, with a
``TimeoutError`` that says what did not finish. A device does not survive ``os.fork()``: a child forked after it was opened
refuses it with an error naming the ``spawn`` start method (``spirthon._native``).
"""

import atexit
import hashlib
import json
import logging
import math
import operator
import os
import struct
import sys
import threading
import time

from . import _library, files
from . import source as _source
from .errors import CheckError, CompileError
from .scalars import r16
from .arrays import _KIND, Array, element, has_gradient
from .types import INT_RANGES, STORAGE, f16, f32, f64, i32, i64, i8, u8, u32, u64, i16, u16, to_f32
from .matrices import Matrix, MatrixType
from . import structs
from .structs import Struct, StructType
from .vectors import Vector, VectorType

try:
    from . import _native
except ImportError as _e:  # the pure-Python package without the extension
    _native = None
    _NATIVE_ERROR = str(_e)

_log = logging.getLogger("spirthon")

__all__ = ["CompileError"]


# The time limit on waits.


def _env_timeout():
    text = os.environ.get("SPIRTHON_TIMEOUT")
    if text is None:
        return 60.0
    try:
        t = float(text)
    except ValueError:
        return 60.0
    return None if t <= 0 or not math.isfinite(t) else t


_timeout = _env_timeout()


def set_timeout(seconds):
    """How long a wait for the device may go without progress (the device finishing an
    operation or a batch of launches) before it raises ``TimeoutError``: a launch that reads
    results back (host arrays, checked mode), ``.numpy()``, ``synchronize()``, and a launch
    waiting for room in the device's queue. ``None`` (or 0) waits forever; the default is
    60 s (``SPIRTHON_TIMEOUT``, as for ``spirthon run --timeout``)."""
    global _timeout
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0):
        raise ValueError("set_timeout takes a number of seconds (0 or None: no limit), not %r" % (seconds,))
    _timeout = None if not seconds else float(seconds)


def get_timeout():
    """The current time limit on waits, in seconds (``None``: none)."""
    return _timeout


# The device switch.

_device = None  # a _Device, or _PYTHON; None until the first launch or set_device
# The number of tapes recording or holding launches (``spirthon.tape``): while any does, every
# launch takes the general path, which records launches on a tape and counts the writes to
# device arrays.
_watching = 0
_PYTHON = "python"
_opened = {}  # a device's description -> its _Device: each device is opened once
_switch = threading.Lock()


def _flush_at_exit():
    """At the end of the program, submits what every device has recorded (a launch returns
    once recorded), waiting at most a second for each device's thread to get to it and not
    for the work to run: the program ends without waiting for the device (a busy device is
    left to the ending process, not destroyed, since that would wait for it), also when
    Ctrl-C ended it during a long kernel. A launch the device rejected that no call has
    reported yet is reported on stderr: no failure goes unsaid. A forked child has nothing
    to submit: its devices are its parent's."""
    if _native is None or _native.forked():
        return
    for d in list(_opened.values()):
        try:
            d.native.close(timeout=1.0)
        except KeyboardInterrupt:  # Ctrl-C again: end now
            pass
        except Exception as e:
            try:
                sys.stderr.write("spirthon: at exit, on %s: %s\n" % (d.label(), e))
            except Exception:  # stderr closed: nowhere left to tell
                pass


atexit.register(_flush_at_exit)


class _Device:
    """A native device, with the pipelines prepared on it."""

    def __init__(self, native, ordinal):
        self.native = native
        self.name = native.name
        self.ordinal = ordinal
        self.pipelines = {}

    def label(self):
        return "device %d (%s)" % (self.ordinal, self.native.describe())

    def __repr__(self):
        return "Device(%d, %r)" % (self.ordinal, self.native.describe())


def set_device(name=None):
    """Chooses where launches run: ``"python"`` for the CPython reference executor, the name
    (or part of it, case-insensitive) of a GPU as ``devices()`` lists it, or ``None`` for the
    default (``SPIRTHON_DEVICE``, else the first GPU, else lavapipe). A device is opened once:
    choosing it again (by any name) gives back the same device, with its arrays. Raises
    ``RuntimeError`` when no such device can be opened."""
    global _device
    d = _open(name, explicit=True)
    with _switch:
        _device = d


def device():
    """The current device's name (``"python"`` for the reference executor)."""
    d = _current()
    return _PYTHON if d is _PYTHON else d.native.describe()


def devices():
    """Every device a launch can run on: each Vulkan or Metal adapter, then ``"python"``."""
    found = _native.adapters() if _native is not None else []
    return found + [_PYTHON]


def synchronize(timeout=None):
    """Waits until every launch so far has run on the current device; at most ``timeout``
    seconds (default: ``set_timeout``'s), then ``TimeoutError``."""
    d = _current()
    if d is not _PYTHON:
        d.native.finish(timeout=_limit(timeout))


def _limit(timeout=None):
    if timeout is None:
        return _timeout
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout >= 0:
        raise ValueError("timeout is a number of seconds, not %r" % (timeout,))
    return float(timeout) or None


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
    if _native.forked():  # no device here, and no quiet fallback either
        _native.Device(name)
    try:
        native = _native.Device(name)
    except RuntimeError as e:
        if explicit:
            raise
        _notice("%s: kernels run on the CPython reference executor" % e)
        return _PYTHON
    with _switch:
        key = native.describe()
        d = _opened.get(key)
        if d is None:
            d = _opened[key] = _Device(native, len(_opened) + 1)
            _log.debug("opened %s in %.1f ms", key, (time.perf_counter() - t) * 1e3)
    return d


def _current():
    global _device
    d = _device
    if d is None:
        d = _open(None, explicit=False)
        with _switch:
            if _device is None:
                _device = d
            d = _device
    return d


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
        entry = _entry(info, kernel_name)
        # The entry point: the kernel's name, or its specialization's (`add__f32`).
        self.entry = entry["name"]
        self.workgroup_size = tuple(int(n) for n in entry["workgroup_size"])
        if len(self.workgroup_size) != 3:
            raise ValueError("a workgroup size has three numbers")
        uniform = entry["bindings"][0]
        self.uniform_size = int(uniform["size"])
        self.fields = {f["name"]: (f["type"], int(f["offset"])) for f in uniform["fields"] if not f["hidden"]}
        self.threads = int(uniform["threads"])
        self.shapes = [(s["array"], int(s["axis"]), int(s["offset"])) for s in uniform["shapes"]]
        self.arrays = {b["name"]: (int(b["binding"]), bool(b["read_only"])) for b in entry["bindings"][1:]}
        # Each array of structs: its element's size and leaves, as the compiler lays them out.
        self.records = {b["name"]: (int(b["struct"]["size"]), [(f["name"], f["type"], int(f["offset"])) for f in b["struct"]["fields"]])
                        for b in entry["bindings"][1:] if "struct" in b}
        self.checked = "checks" in info
        self.prints = bool(entry.get("prints"))


def _entry(info, kernel_name):
    """A kernel's entry in reflection JSON: by its name, or the one specialization of the
    generic kernel of that name (a generic kernel compiles only for its types)."""
    return next(k for k in info["kernels"]
                if k["name"] == kernel_name or k.get("specializes", {}).get("kernel") == kernel_name)


def _types_text(kernel):
    """The generic types a kernel compiles with, and the workgroup size a grid launch gave
    it, as the cache keys hold them."""
    text = "" if kernel.types is None else ",".join("%s=%s" % t for t in kernel.types)
    block = kernel._launch_block
    return text if block is None else "%s;workgroup_size=%d,%d,%d" % ((text,) + tuple(block))


def _source_of(kernel):
    """The file a kernel was defined in, and its text then (``spirthon.source``)."""
    src = kernel.source
    if not getattr(kernel, "_source_checked", False):
        fn = kernel.fn
        nested = _source.nested(fn)
        if nested is not None:
            raise nested
        if src is None:
            raise CompileError("cannot read the source of kernel `%s` (defined in %s): spirthon compiles kernels from their file's text" % (fn.__name__, fn.__code__.co_filename))
        if not _source.check(fn, src):
            raise _source.changed(fn, src)
        kernel._source_checked = True
    return src.path, src.text


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


_ENTRY_MAGIC = b"spirthon-cache-entry 1\n"


def _entry_bytes(key, words, reflection):
    """A disk cache entry: a header line (the key, each part's length, the checksum of the
    key and both parts), then the module's words and its reflection JSON."""
    refl = reflection.encode("utf-8")
    digest = hashlib.sha256(b"\0".join([key.encode(), words, refl])).hexdigest()
    header = json.dumps({"key": key, "words": len(words), "reflection": len(refl), "sha256": digest})
    return _ENTRY_MAGIC + header.encode() + b"\n" + words + refl


def _parse_entry(key, data):
    """The (words, reflection) of an entry, or ``ValueError`` naming what does not check
    out."""
    if not data.startswith(_ENTRY_MAGIC):
        raise ValueError("not a cache entry")
    rest = data[len(_ENTRY_MAGIC):]
    line, sep, body = rest.partition(b"\n")
    if not sep:
        raise ValueError("no header")
    header = json.loads(line)
    if header.get("key") != key:
        raise ValueError("an entry for another source")
    n, m = header["words"], header["reflection"]
    if not (isinstance(n, int) and isinstance(m, int) and n + m == len(body)):
        raise ValueError("truncated or padded")
    words, refl = body[:n], body[n:]
    if hashlib.sha256(b"\0".join([key.encode(), words, refl])).hexdigest() != header.get("sha256"):
        raise ValueError("the checksum does not match")
    if len(words) < 20 or len(words) % 4 or words[:4] != b"\x03\x02\x23\x07":
        raise ValueError("not a SPIR-V module")
    return words, refl.decode("utf-8")


def compile_kernel(kernel, checked=False):
    """The compiled module of ``kernel`` (a ``@kernel``), from the caches when it is there.
    Raises ``CompileError`` when the file does not compile."""
    if _native is None:
        raise RuntimeError("compiling needs spirthon's native module, which is not built (%s)" % _NATIVE_ERROR)
    path, source = _source_of(kernel)
    key = hashlib.sha256("\0".join([_native_build(), path, kernel.name, _types_text(kernel), str(checked), source]).encode()).hexdigest()
    m = _modules.get(key)
    if m is not None:
        return m
    cache = _cache_dir()
    file = os.path.join(cache, key + ".entry") if cache else None
    if file and os.path.exists(file):
        try:
            with open(file, "rb") as f:
                words, reflection = _parse_entry(key, f.read())
            m = _modules[key] = _Module(words, reflection, kernel.name, path, source)
            _log.debug("kernel %s from the cache %s", kernel.name, cache)
            return m
        except Exception as e:  # any fault of the entry costs a compile, never a wrong run
            _log.debug("the cache entry of kernel %s does not check out (%s): compiling", kernel.name, e)
    t = time.perf_counter()
    words, reflection = _compile_native(kernel, path, source, checked, False)
    _log.debug("compiled kernel %s of %s in %.2f ms", kernel.name, path, (time.perf_counter() - t) * 1e3)
    m = _modules[key] = _Module(words, reflection, kernel.name, path, source)
    if file:
        _store(file, _entry_bytes(key, words, reflection))
    return m


_diagnosed = {}  # (path, text, checked, cpython) -> True: the whole file compiled
_warned = {}  # (path, text) -> True: its warnings were shown


def _compile_native(kernel, path, source, checked, cpython):
    """``kernel`` compiled by the native module: (words, reflection). The first kernel
    compiled from a file's text diagnoses the whole file (the other kernels' and funcs'
    errors refuse it too, as the command line does) and shows its warnings, once per text;
    later kernels of that text compile only what they reach. An adjoint's file is its
    kernel's, which compiled first, with the adjoint appended: only the adjoint is new."""
    key = (path, source, checked, cpython)
    whole = getattr(kernel, "adjoint_of", None) is None and key not in _diagnosed
    # A grid launch's workgroup size, for a kernel that declares none (``Kernel._with_block``).
    block = {} if kernel._launch_block is None else {"workgroup_size": list(kernel._launch_block)}
    words, reflection, messages = _native.compile(source, path, kernel.name, checked, True, cpython,
                                                  types=kernel.types, only_reached=not whole, **block)
    if words is None:
        raise _not_compiled(kernel, messages)
    if whole:
        for table in (_diagnosed, _warned):
            if len(table) > 256:
                table.clear()
        _diagnosed[key] = True
        if messages and (path, source) not in _warned:
            _warned[path, source] = True
            sys.stderr.write(messages)
    return words, reflection


def _not_compiled(kernel, messages):
    """The error of a kernel that does not compile; an adjoint spirthon wrote that does not
    is spirthon's bug, and says so."""
    if getattr(kernel, "adjoint_of", None) is not None:
        return CompileError("the adjoint spirthon wrote of kernel `%s` does not compile: a bug in spirthon's "
                            "differentiation (please report it, with the kernel)\n%s" % (kernel.adjoint_of.name, messages.rstrip()))
    return CompileError(messages.rstrip())


def _store(file, data):
    """Writes a cache entry whole (``files.write_whole``); a cache that cannot be written is
    skipped."""
    try:
        os.makedirs(os.path.dirname(file), exist_ok=True)
        files.write_whole(file, data)
    except OSError as e:
        _log.debug("cannot write the compile cache: %s", e)


_python_checked = {}  # (path, kernel, mode, source) -> the names of the arrays it writes


def _maybe_written(kernel):
    """Without the native module to say which arrays a kernel writes: the array parameters
    its text may write, from the function's syntax tree (``None``, every one, where the
    text cannot be read). A parameter is read only when every use of its name is an
    element read (``a[i]``, ``a[i].x``), ``len(a)`` or ``a.shape``; one stored through
    (``a[i] = v``, ``a[i] += v``, ``a[i].x = v``) or used any other way (passed to a func
    or an atomic, bound to another name) counts as written. Read once per kernel object
    (a launch without the native module asks at each launch)."""
    if "_text_writes" not in kernel.__dict__:
        kernel.__dict__["_text_writes"] = _text_writes(kernel)
    return kernel.__dict__["_text_writes"]


def _text_writes(kernel):
    """``_maybe_written``'s answer, from the kernel function's text."""
    import ast
    import inspect
    import textwrap
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(kernel.fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    arrays = {p.name for p in kernel.params if p.kind == "array"}
    read = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            read.update(id(a) for a in node.args)
        elif isinstance(node, ast.Attribute) and node.attr == "shape":
            read.add(id(node.value))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            read.add(id(node.value))
    stored = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [node.target]
        for t in targets:
            for part in ast.walk(t):
                base = part
                while isinstance(base, (ast.Subscript, ast.Attribute, ast.Starred)):
                    base = base.value
                if isinstance(base, ast.Name) and base is not part:
                    stored.add(base.id)
    written = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in arrays and (node.id in stored or id(node) not in read):
            written.add(node.id)
    return frozenset(written)


def _check_for_python(kernel, checked):
    """On the python device: a kernel the compiler rejects is rejected with its errors
    (``print`` allowed), when the native module is there to compile it. Returns whether the
    kernel writes an array parameter, by name (without the native module, by its text:
    ``_maybe_written``)."""
    if _native is None:
        written = _maybe_written(kernel)
        return (lambda name: True) if written is None else written.__contains__
    path, source = _source_of(kernel)
    key = (path, kernel.name, _types_text(kernel), checked, source)
    written = _python_checked.get(key)
    if written is None:
        words, reflection = _compile_native(kernel, path, source, checked, True)
        entry = _entry(json.loads(reflection), kernel.name)
        written = _python_checked[key] = frozenset(b["name"] for b in entry["bindings"][1:] if not b["read_only"])
    return lambda name: name in written


# Arguments.

_DTYPES = {t: name for t, (_, name) in STORAGE.items()}
_CODES = {t: code for t, (code, _) in STORAGE.items()}
_CODES[float] = "f"


def _scalar_of(elem):
    """The scalar type of an array element type."""
    return structs.scalar_and_axes(elem)[0]


def _np_dtype(elem):
    """The NumPy dtype of an array of ``elem``: a struct's ``numpy_dtype``, else its
    scalar's."""
    if isinstance(elem, StructType):
        return elem.numpy_dtype
    return _numpy().dtype(_DTYPES[_scalar_of(elem)])


def _elem_size(elem):
    """Bytes per element."""
    if isinstance(elem, StructType):
        return structs.layout(elem).size
    size = struct.calcsize(_CODES[_scalar_of(elem)])
    return size * (elem.size if isinstance(elem, (VectorType, MatrixType)) else 1)


def _elem_name(elem):
    return elem.name if isinstance(elem, (VectorType, MatrixType)) else repr(elem)


def _elem_axes(elem):
    """The trailing NumPy axes of one element: none for a number, the components of a
    vector, the rows and columns of a matrix."""
    return structs.scalar_and_axes(elem)[1]


def _flat(v):
    """An element's numbers, in storage order (a matrix's row by row)."""
    if isinstance(v, Matrix):
        return [x for row in v.tolist() for x in row]
    if isinstance(v, Vector):
        return v.tolist()
    return [v]


def _kind(p):
    return "%s[%s]" % (_KIND[p.dims], _elem_name(p.elem))


def _numpy():
    import numpy
    return numpy


def _numpy_array_type():
    """``numpy.ndarray`` when NumPy is loaded (without importing it otherwise)."""
    np = sys.modules.get("numpy")
    return np.ndarray if np is not None else ()


def _plain(value):
    """A NumPy scalar (or 0-d array) as the Python number it holds; anything else as it is."""
    if isinstance(value, (bool, int, float)):
        return value
    item = getattr(value, "item", None)
    if item is not None and getattr(value, "ndim", None) == 0:
        return item()
    return value


# The largest finite value of each float type, as errors show it.
_FLOAT_MAX = {f32: "3.4028235e+38", f64: "1.7976931348623157e+308", f16: "65504.0"}


def _number(name, ty, value):
    """Argument ``name`` as a number of type ``ty`` (``f32``, ``i32``, ``u32`` or ``bool``):
    the one rule of every device. Bools are no numbers (as in kernels), a float for an
    integer is a ``TypeError`` (Python's ``int()`` says how it truncates), an integer out of
    range an ``OverflowError``."""
    v = _plain(value)
    if ty is bool:
        if isinstance(v, bool):
            return v
        raise TypeError("argument %s must be a bool, not %s" % (name, _shown(value)))
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError("argument %s must be a number (%r), not %s" % (name, ty, _shown(value)))
    if ty in _FLOAT_MAX:
        # A finite number past the type's largest finite value is refused, as
        # ``struct.pack`` refuses it, rather than made an infinity; inf and nan pass.
        try:
            x = to_f32(v) if ty is f32 else float(v) if ty is f64 else r16(float(v))
        except OverflowError:
            x = math.inf
        if math.isinf(x) and not (isinstance(v, float) and math.isinf(v)):
            text = repr(v) if len(repr(v)) <= 40 else "an int of %d digits" % len(str(abs(v)))
            raise OverflowError("argument %s is %s, which does not fit in %r (its largest finite value is %s)"
                                % (name, text, ty, _FLOAT_MAX[ty]))
        return x
    if isinstance(v, float):
        raise TypeError("argument %s is %r, a float, for an %r parameter: pass an int (int(x) truncates toward zero)" % (name, v, ty))
    lo, hi = INT_RANGES[ty]
    if not lo <= v <= hi:
        raise OverflowError("argument %s is %d, which does not fit in %r (%d to %d)" % (name, v, ty, lo, hi))
    return v


def _shown(value):
    text = repr(value)
    return "%s %s" % (type(value).__name__, text if len(text) <= 40 else text[:40] + "…")


def _vector(p, value):
    """A vector argument's components, each by the rule of ``_number``."""
    t = p.elem
    if isinstance(value, Vector):
        comps = value.tolist()
    elif isinstance(value, (list, tuple)) or isinstance(value, _numpy_array_type()):
        comps = list(value)
    else:
        raise TypeError("argument %r must be a %s (a vector, or %d numbers), not %s" % (p.name, t.name, t.size, _shown(value)))
    if len(comps) != t.size:
        raise TypeError("argument %r must be a %s (a vector, or %d numbers), not %d numbers" % (p.name, t.name, t.size, len(comps)))
    scalar = f32 if t.scalar is float else t.scalar
    return [_number("%r (component %d of a %s)" % (p.name, k, t.name), scalar, c) for k, c in enumerate(comps)]


def _matrix(p, value):
    """A matrix argument's entries, row-major: a matrix, its rows, or all its numbers."""
    t = p.elem
    kind = _scalar_of(t)
    if isinstance(value, Matrix) and value.type is t:
        return [_number("%r (an entry of a %s)" % (p.name, t.name), kind, x) for x in _flat(value)]
    rows = value.tolist() if isinstance(value, _numpy_array_type()) else value
    if isinstance(rows, (list, tuple)) and len(rows) == t.n and all(isinstance(r, (list, tuple)) and len(r) == t.n for r in rows):
        return [_number("%r (an entry of a %s)" % (p.name, t.name), kind, x) for r in rows for x in r]
    raise TypeError("argument %r must be a %s (a matrix, or %d rows of %d numbers), not %s" % (p.name, t.name, t.n, t.n, _shown(value)))


def _scalar_words(p, value):
    """A scalar or vector argument as (struct format, values); a matrix's rows are a
    multiple of 16 bytes apart in the uniform block (std140: 16, or 32 for a row of 3 or 4
    float64s)."""
    if isinstance(p.elem, MatrixType):
        n = p.elem.n
        code = _CODES[_scalar_of(p.elem)]
        size = struct.calcsize(code)
        stride = -(-size * (2 if n == 2 else 4) // 16) * 16
        pad = "%dx" % (stride - size * n) if stride > size * n else ""
        return pad.join([code * n] * n), _matrix(p, value)
    if p.kind == "vector":
        # A narrow scalar's component is a whole word, as a narrow scalar parameter is.
        return _WORD_CODES.get(_scalar_of(p.elem), _CODES[_scalar_of(p.elem)]) * p.elem.size, _vector(p, value)
    v = _number(repr(p.name), p.elem, value)
    if p.elem is bool:
        return "I", [1 if v else 0]
    return _WORD_CODES.get(p.elem, _CODES[p.elem]), [v]


# A narrow parameter (or component) is a whole word of the uniform block: a narrow int
# extended, an f16 the f32 of its value.
_WORD_CODES = {i8: "i", i16: "i", u8: "I", u16: "I", f16: "f"}


def _count(what, n):
    """A whole count (``operator.index``: ints and NumPy integers, never floats or bools)."""
    if isinstance(n, bool):
        raise TypeError("%s is a count, not the bool %r" % (what, n))
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, _shown(n))) from None


def _counts(what, value, lo, hi):
    """One to three counts from an int or a sequence of them, each in ``lo..hi``."""
    if isinstance(value, (str, bytes)):
        raise TypeError("%s is an int or one to three ints, not %s" % (what, _shown(value)))
    try:
        items = (operator.index(value),) if not isinstance(value, bool) else None
    except TypeError:
        items = None
    if items is None:
        if isinstance(value, bool):
            raise TypeError("%s is an int or one to three ints, not %s" % (what, _shown(value)))
        try:
            items = tuple(value)
        except TypeError:
            raise TypeError("%s is an int or one to three ints, not %s" % (what, _shown(value))) from None
        items = tuple(_count("%s[%d]" % (what, k), n) for k, n in enumerate(items))
    if not 1 <= len(items) <= 3:
        raise ValueError("%s has one to three axes, not %d" % (what, len(items)))
    for k, n in enumerate(items):
        if not lo <= n <= hi:
            raise ValueError("%s[%d] is %d: it must be in %d..%d" % (what, k, n, lo, hi))
    return items


def _threads(threads):
    t = _counts("threads", threads, 0, _library.MAX_THREADS_PER_AXIS)
    return t + (1,) * (3 - len(t))


class DeviceArray:
    """An array that lives on a device across launches: ``spirthon.array(values)`` or
    ``spirthon.zeros(shape, dtype)``. ``.numpy()`` reads it back. On the ``"python"`` device
    it lives in host memory, so the same program runs under the reference executor."""

    # ``requires_grad`` arrays have ``grad``, their adjoint (``spirthon.Tape``). The version
    # counts the writes (launches that write the array, ``update``), the writer names the
    # last: a tape refuses to differentiate through values that changed under it.
    requires_grad = False
    grad = None
    _version = 0
    _writer = None

    def __init__(self, dev, elem, shape, buffer=None, host=None):
        self.device, self.elem, self.shape = dev, elem, tuple(shape)
        self._buffer, self._host = buffer, host

    def _written(self, site):
        self._version += 1
        self._writer = site

    def _with_grad(self, requires_grad):
        if requires_grad:
            if not has_gradient(self.elem):
                raise TypeError("requires_grad: gradients are of f32 and f64 arrays, of their vectors and matrices and of quats, and "
                                "of structs with fields of f32 and its vectors and matrices or quats, not of %s ones" % _elem_name(self.elem))
            self.requires_grad = True
            self.grad = zeros(self.shape, self.elem)
        return self

    @property
    def dtype(self):
        return _np_dtype(self.elem)

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0]

    def _np_shape(self):
        return self.shape + _elem_axes(self.elem)

    def numpy(self, timeout=None):
        """The contents as a new NumPy array (vector elements as a last axis), once every
        launch before has run (at most ``timeout`` seconds; default ``set_timeout``'s)."""
        np = _numpy()
        if self._host is not None:
            return self._host.copy()
        data = self.device.native.read(self._buffer, timeout=_limit(timeout))
        return np.frombuffer(data, dtype=self.dtype).reshape(self._np_shape()).copy()

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(a)``: the contents read back (a new array)."""
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    def _copy(self):
        """A new device array (without ``grad``) holding these contents as they are after
        the launches asked for before (copied on the device, without waiting)."""
        if self._host is not None:
            return DeviceArray(self.device, self.elem, self.shape, host=self._host.copy())
        return DeviceArray(self.device, self.elem, self.shape, buffer=self.device.native.copy(self._buffer, timeout=_timeout))

    def update(self, values):
        """Replaces the contents with ``values`` (a NumPy array of the same shape), after the
        launches asked for before."""
        arr = _as_numpy(values, self.elem, len(self.shape), "values")
        if arr.shape != self._np_shape():
            raise ValueError("values of shape %r for a device array of shape %r" % (arr.shape, self._np_shape()))
        if self._host is not None:
            self._host[...] = arr
        else:
            self.device.native.write(self._buffer, arr.tobytes(), timeout=_timeout)
        self._written("by update()")

    def __repr__(self):
        where = "python" if self._host is not None else self.device.label()
        return "DeviceArray(%s, shape=%r, on %s)" % (_elem_name(self.elem), self.shape, where)


def _structs():
    """Every ``@struct`` class made so far (for a message)."""
    return [c for c in Struct.__subclasses__() if isinstance(c, StructType)]


def _elem_of(dtype, elem):
    """The element type of an array: ``elem`` when given (a spirthon type, or a NumPy dtype),
    else from ``dtype``."""
    np = _numpy()
    if elem is None:
        elem = dtype
    if elem is float:
        elem = f32
    elif elem is int:
        elem = i32
    if isinstance(elem, (VectorType, MatrixType, StructType)) or elem in _DTYPES:
        return elem
    for t in _structs():
        if np.dtype(elem) == t.numpy_dtype:
            raise TypeError("name the struct of a structured array: dtype=%s" % t.__name__)
    try:
        name = np.dtype(elem).name
    except TypeError:
        raise TypeError("an array's element type is a number type (f32, f64, f16, i32, u32, i64, u64, i8, u8, i16, u16), a vector type, or the NumPy dtype of one; not %r" % (elem,)) from None
    for t, n in _DTYPES.items():
        if n == name:
            return t
    raise TypeError("kernels take float32, float64, float16, int32, uint32, int64, uint64, int8, uint8, int16 and uint16 arrays, not %s" % name)


def _converted(values, elem, what):
    """``values`` as a C-contiguous NumPy array of ``elem``'s dtype, refusing a conversion
    that would not keep the values: floats for an int element (which rounding is the
    program's to choose), an int out of the element's range (NumPy's cast would wrap it).
    Floats for a float element round as the launch rounds them."""
    np = _numpy()
    dt = _np_dtype(elem)
    floats = "%s: floats for an array of %s: convert them first (np.round, np.floor, .astype: the rounding is yours to choose)"
    if not isinstance(values, np.ndarray):
        # Lists: NumPy refuses an int out of the dtype's range, but would truncate a float.
        if dt.kind in "iu" and any(isinstance(v, (float, np.floating)) for v in np.asarray(values, dtype=object).ravel()):
            raise TypeError(floats % (what, _elem_name(elem)))
        return np.array(values, dtype=dt, order="C")
    src = values
    if dt.kind in "iu" and src.dtype != dt and src.size:
        if src.dtype.kind in "fc":
            raise TypeError(floats % (what, _elem_name(elem)))
        if src.dtype.kind in "iu" and not np.can_cast(src.dtype, dt):
            info = np.iinfo(dt)
            lo, hi = int(src.min()), int(src.max())
            if lo < info.min or hi > info.max:
                raise OverflowError("%s: %d does not fit in %s (%d to %d)"
                                    % (what, lo if lo < info.min else hi, dt, info.min, info.max))
    return np.ascontiguousarray(src, dtype=dt)


def _as_numpy(values, elem, dims, what):
    arr = _converted(values, elem, what)
    want = dims + len(_elem_axes(elem))
    if arr.ndim != want:
        raise ValueError("%s: %d dimensions for an array of %s, %d expected" % (what, arr.ndim, _elem_name(elem), want))
    return arr


def array(values, dtype=None, requires_grad=False):
    """A device array holding ``values`` (a NumPy array or nested lists; for a struct, a list
    of structs or of dicts of their fields): its element type is ``dtype`` (``f32``,
    ``vec4``, ``Particle``, ``np.float32``, …) or the NumPy array's. A vector element type
    takes the last axis as the components. ``requires_grad=True`` gives it ``.grad``, its
    gradient after ``Tape.backward`` (``f32`` and ``vec2``…``vec4`` arrays)."""
    return _array(values, dtype)._with_grad(requires_grad)


def _array(values, dtype):
    np = _numpy()
    if dtype is None and not isinstance(values, np.ndarray):
        raise TypeError("spirthon.array(values, dtype): name the element type for values that are not a NumPy array")
    elem = _elem_of(getattr(values, "dtype", None), dtype)
    if isinstance(elem, StructType) and not isinstance(values, np.ndarray):
        # Structs (or dicts of their fields): their element bytes, one after another.
        data = b"".join(structs.pack(element(elem, v)) for v in values)
        arr = np.frombuffer(data, dtype=elem.numpy_dtype).copy()
    else:
        arr = _converted(values, elem, "spirthon.array").copy()
    axes = _elem_axes(elem)
    shape = arr.shape[:arr.ndim - len(axes)]
    if axes and (arr.ndim <= len(axes) or arr.shape[-len(axes):] != axes):
        raise ValueError("an array of %s needs last axes %r, not shape %r" % (elem.name, axes, arr.shape))
    if not 1 <= len(shape) <= 3:
        raise ValueError("arrays have one to three dimensions, not %d" % len(shape))
    dev = _current()
    if dev is _PYTHON:
        return DeviceArray(dev, elem, shape, host=arr)
    return DeviceArray(dev, elem, shape, buffer=dev.native.upload(arr.tobytes(), timeout=_timeout))


def zeros(shape, dtype=f32, requires_grad=False):
    """A zeroed device array of ``shape`` (an int or a tuple of one to three ints; NumPy
    integers too) with element type ``dtype``; ``requires_grad`` as for ``array``."""
    return _zeros(shape, dtype)._with_grad(requires_grad)


def _zeros(shape, dtype):
    shape = _counts("a shape", shape, 0, 2 ** 31 - 1)
    elem = _elem_of(None, dtype)
    dev = _current()
    comps = _elem_axes(elem)
    if dev is _PYTHON:
        return DeviceArray(dev, elem, shape, host=_numpy().zeros(shape + comps, dtype=_np_dtype(elem)))
    return DeviceArray(dev, elem, shape, buffer=dev.native.alloc(_elem_size(elem) * math.prod(shape)))


class _HostArg:
    """A host array passed to a GPU launch: uploaded, and written back after it."""

    def __init__(self, name, value, arr, buffer):
        self.name, self.value, self.arr, self.buffer = name, value, arr, buffer

    def write_back(self, dev):
        data = dev.native.read(self.buffer, timeout=_timeout)
        if isinstance(self.value, Array) and isinstance(self.value.elem, StructType):
            elem = self.value.elem
            self.value._data = [structs.unpack(elem, data, k) for k in range(0, len(data), structs.layout(elem).size)]
        elif isinstance(self.value, Array):
            elem = self.value.elem
            s = _scalar_of(elem)
            flat = struct.unpack("<%d%s" % (len(data) // struct.calcsize(_CODES[s]), _CODES[s]), data)
            if isinstance(elem, (VectorType, MatrixType)):
                flat = [flat[k:k + elem.size] for k in range(0, len(flat), elem.size)]
            self.value._data = [element(elem, v) for v in flat]
        elif self.value.flags.c_contiguous:
            _copy_bytes(self.value, data)
        else:
            # A view with strides (`y[::2]`, `a.T`): the result, then through the view.
            whole = _numpy().empty(self.value.shape, self.value.dtype)
            _copy_bytes(whole, data)
            self.value[...] = whole


def _copy_bytes(host, data):
    """``data`` into the C-contiguous NumPy array ``host``, byte for byte (a structured
    array's padding too, which NumPy's element assignment leaves undefined); what is past
    its bytes (an empty array's one bound element) is dropped."""
    np = _numpy()
    host.reshape(-1).view(np.uint8)[:] = np.frombuffer(data, np.uint8, count=host.nbytes)


def _array_shape(dev, p, value):
    """The shape of array argument ``value`` for parameter ``p`` on ``dev``, after checking
    that it fits (a ``TypeError`` or ``ValueError`` naming ``p``). NumPy is needed only for
    NumPy arrays and device arrays."""
    if isinstance(value, DeviceArray):
        shape = _components_as_elements(p, value) or value.shape
        _check_type(p, "an array", p.elem if shape is not value.shape else value.elem, len(shape))
        if value.device is not dev:
            where = "python" if value._host is not None else value.device.label()
            raise ValueError("argument %r lives on %s, not on the current %s: read it back (.numpy()) and make a new array" % (p.name, where, dev.label()))
        return shape
    if isinstance(value, Array):
        _check_type(p, "an Array", value.elem, value.dims)
        return tuple(value.shape)
    return _numpy_shape(p, value)


def _components_as_elements(p, value):
    """The shape of device array ``value`` of scalars read as ``p``'s vectors or matrices
    (its last one or two axes their components, as a NumPy array passed for ``p`` would
    be: ``spirthon.array`` of a float32 ``(N, 3)`` array for an ``Array[vec3]``), or
    ``None`` where it is not one. The bytes are the same: vectors and matrices are packed."""
    scalar, comps = structs.scalar_and_axes(p.elem)
    if not comps or value.elem is not scalar:
        return None
    shape = tuple(value.shape)
    if len(shape) <= len(comps) or shape[-len(comps):] != comps:
        return None
    return shape[:-len(comps)]


def _array_arg(dev, p, value):
    """A checked array argument (``_array_shape``) on the device: (buffer, host argument or
    None)."""
    if isinstance(value, DeviceArray):
        return value._buffer, None
    if isinstance(value, Array) and isinstance(p.elem, StructType):
        buf = dev.native.upload(b"".join(structs.pack(v) for v in value._data), timeout=_timeout)
        return buf, _HostArg(p.name, value, None, buf)
    if isinstance(value, Array):
        flat = [c for v in value._data for c in _flat(v)]
        data = struct.pack("<%d%s" % (len(flat), _CODES[_scalar_of(p.elem)]), *flat)
        buf = dev.native.upload(data, timeout=_timeout)
        return buf, _HostArg(p.name, value, None, buf)
    buf = dev.native.upload(value.tobytes(), timeout=_timeout)
    return buf, _HostArg(p.name, value, value, buf)


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
    want = _np_dtype(p.elem)
    if isinstance(p.elem, StructType) and value.dtype != want:
        raise TypeError("argument %r must be a NumPy array of %s.numpy_dtype (for %s), not of %s" % (p.name, p.elem.__name__, _kind(p), value.dtype))
    if value.dtype != want:
        article = "an" if str(want)[0] in "aeiou" else "a"
        raise TypeError("argument %r must be %s %s array (for %s), not %s" % (p.name, article, want, _kind(p), value.dtype))
    axes = _elem_axes(p.elem)
    if value.ndim != p.dims + len(axes):
        raise TypeError("argument %r must have %d dimensions, not %d" % (p.name, p.dims + len(axes), value.ndim))
    if axes and value.shape[p.dims:] != axes:
        raise TypeError("argument %r: an array of %s needs last axes %r, not %r" % (p.name, p.elem.name, axes, value.shape[p.dims:]))
    return tuple(value.shape[:p.dims])


def _overlap(a, b):
    """Whether two array arguments share memory: one ``Array`` or device array twice, or
    NumPy arrays (views of one buffer) whose elements overlap."""
    if a is b:
        return True
    np = sys.modules.get("numpy")
    if np is not None and isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        try:
            return bool(np.shares_memory(a, b, max_work=10 ** 6))
        except Exception:  # too hard to decide: count it as shared
            return True
    return False


def _check_arrays(arrays):
    """The array arguments ``[(parameter, value, written)]`` before anything runs: none the
    kernel writes shares memory with another (``_check_aliases``), or is a read-only NumPy
    array."""
    _check_aliases(arrays)
    for p, v, written in arrays:
        if written and getattr(getattr(v, "flags", None), "writeable", True) is False:
            raise ValueError("argument %r is a read-only NumPy array, but the kernel writes it (pass a writeable copy: np.array(x))" % p.name)


def _check_aliases(arrays):
    """No array the kernel writes shares memory with another array argument: a device
    binds each argument as a buffer of its own (and the reference executor copies each), so
    one's writes would silently replace or lose the other's."""
    for k, (p, value, written) in enumerate(arrays):
        for q, other, written_too in arrays[k + 1:]:
            if (written or written_too) and _overlap(value, other):
                w = p.name if written else q.name
                if isinstance(value, DeviceArray):
                    what = "the same device array"
                elif isinstance(value, Array):
                    what = "the same Array"
                else:
                    what = "NumPy arrays that share memory (one array, or overlapping views of one)"
                raise ValueError("arguments %r and %r are %s, and the kernel writes %r: pass separate arrays (a copy: np.array(a), spirthon.array(a.numpy()))" % (p.name, q.name, what, w))


class _Leaf:
    """A leaf of a struct parameter, packed as a parameter of its own."""

    __slots__ = ("name", "kind", "elem")

    def __init__(self, name, kind, elem):
        self.name, self.kind, self.elem = name, kind, elem


def _struct_arg(name, t, value):
    """Argument ``name`` as a struct of type ``t``: one, a mapping of its fields, or a NumPy
    record of its dtype."""
    if type(value) is t:
        return value
    if isinstance(value, Struct):
        raise TypeError("argument %r must be a %s, not a %s" % (name, t.__name__, type(value).__name__))
    try:
        made = element(t, value)
    except (KeyError, ValueError, TypeError) as e:
        raise TypeError("argument %r must be a %s (or a dict of its fields): %s" % (name, t.__name__, e)) from None
    # A float field given a finite number past its type's range: ``_number``'s refusal.
    for path, lt, _ in structs.leaf_offsets(t):
        if lt in _FLOAT_MAX:
            given = value
            for part in path.split("."):
                given = given[part]
            _number("%r (field %s of a %s)" % (name, path, t.__name__), lt, given)
    return made


def _leaf_value(s, path):
    """The value at ``path`` (``vel``, ``inner.x``) of struct ``s``."""
    for part in path.split("."):
        s = getattr(s, part)
    return s


def _same_layout(p, record):
    """The compiler's layout of an array parameter's struct is the library's (both follow
    docs/language.md; a difference would put fields at the wrong bytes): a ``CompileError``
    naming both otherwise."""
    size, fields = record
    ours = (structs.layout(p.elem).size, [(path, "bool" if t is bool else _elem_name(t), offset) for path, t, offset in structs.leaf_offsets(p.elem)])
    if ours != (size, fields):
        raise CompileError("the compiler lays out struct %s as %r, but the library as %r: please report this" % (p.elem.__name__, (size, fields), ours))


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
                if p.name in m.records:
                    _same_layout(p, m.records[p.name])
            elif p.kind == "struct":
                # Each leaf is a uniform field of its own (`p.vel`).
                for path, t in structs.leaves(p.elem):
                    name = "%s.%s" % (p.name, path)
                    leaf = _Leaf(name, "vector" if isinstance(t, (VectorType, MatrixType)) else "scalar", t)
                    self.scalars.append((k, leaf, m.fields[name][1] if name in m.fields else None))
            else:
                self.scalars.append((k, p, m.fields[p.name][1] if p.name in m.fields else None))
        index = {p.name: k for k, p in enumerate(kernel.params)}
        self.threads = m.threads
        self.shapes = [(index[array], axis, offset) for array, axis, offset in m.shapes]


def _plan(kernel, checked):
    plans = kernel.__dict__.setdefault("_gpu_plans", {})
    plan = plans.get(checked)
    if plan is None:
        plan = plans[checked] = _Plan(kernel, compile_kernel(kernel, checked))
    return plan


def _bind(kernel, args, kwargs):
    """The arguments in parameter order (a ``TypeError`` for a missing or unknown one)."""
    if kwargs or len(args) != len(kernel.params):
        bound = kernel.signature().bind(*args, **kwargs)
        return [bound.arguments[p.name] for p in kernel.params]
    return list(args)


def launch(kernel, threads, args, kwargs, checked, site=None):
    """``kernel.launch`` on the current device by the general path (``Kernel.launch`` tries
    the one-pass launch first); ``site`` (``file:line`` of the call) names it in the error of
    a batch it was recorded in."""
    dev = _current()
    threads = _threads(threads)
    args = _bind(kernel, args, kwargs)
    if dev is _PYTHON:
        return _launch_python(kernel, threads, args, checked, site)
    plan = _plan(kernel, checked)
    m = plan.module
    pipeline = _pipeline(dev, m, m.entry)
    uniform, buffers, hosts = _arguments(dev, kernel, plan, threads, args)
    fast = kernel.__dict__.get("_gpu_fast")
    if not checked and (fast is None or (fast and fast.device is not dev)):
        kernel.__dict__["_gpu_fast"] = _fast_path(kernel, plan, dev, pipeline)
    if _watching:
        for k, p, _, written in plan.arrays:
            if written and isinstance(args[k], DeviceArray):
                args[k]._written(_launch_label(kernel, site))
    try:
        errors, prints = dev.native.launch(pipeline, uniform, buffers, threads, timeout=_timeout, site=site)
        for h in hosts:
            h.write_back(dev)
    except TimeoutError as e:
        raise TimeoutError("kernel `%s`: %s; the arrays it writes are not updated" % (kernel.name, e)) from None
    if prints is None and errors is None:
        return
    groups = tuple(-(-t // w) for t, w in zip(threads, m.workgroup_size))
    if prints is not None:
        # What the kernel printed, in the reference executor's order.
        sys.stdout.write(_native.printed(prints, m.reflection, groups, m.workgroup_size))
    if errors is not None:
        failure = _native.report(errors, m.reflection, m.path, m.source, groups, m.workgroup_size)
        if failure is not None:
            raise CheckError.from_report(m.path, *failure)


def _arguments(dev, kernel, plan, threads, args):
    """A launch's arguments (in parameter order) for the device: the uniform block's bytes,
    the array buffers in binding order, and the host arrays to write back after it. Every
    argument is checked before any array is copied to the device."""
    m = plan.module
    uniform = bytearray(m.uniform_size)
    structs = {}
    for k, p, offset in plan.scalars:
        value = args[k]
        if isinstance(p, _Leaf):
            param = kernel.params[k]
            if k not in structs:
                structs[k] = _struct_arg(param.name, param.elem, value)
            value = _leaf_value(structs[k], p.name[len(param.name) + 1:])
        fmt, vals = _scalar_words(p, value)
        if offset is not None:
            struct.pack_into("<" + fmt, uniform, offset, *vals)
    _check_arrays([(p, args[k], written) for k, p, _, written in plan.arrays])
    shapes = {k: _array_shape(dev, p, args[k]) for k, p, _, _ in plan.arrays}
    buffers = [None] * plan.bindings
    hosts = []
    for k, p, at, written in plan.arrays:
        buf, host = _array_arg(dev, p, args[k])
        if host is not None and written:
            hosts.append(host)
        if at is not None:
            buffers[at] = buf
    if plan.threads is not None:
        struct.pack_into("<3I", uniform, plan.threads, *threads)
    for k, axis, offset in plan.shapes:
        struct.pack_into("<i", uniform, offset, shapes[k][axis])
    return bytes(uniform), buffers, hosts


def _fast_path(kernel, plan, dev, pipeline):
    """The one-pass launch of ``kernel``'s ``plan`` on ``dev`` (the native module's
    ``Fast``), or False: the common launch, whose scalars are Python (or NumPy) numbers and
    whose arrays are device arrays of the device, with one to three ints of threads, checked
    and packed in one call. Built once per kernel (for the device of its first launch, when
    it has no parameter of another kind and neither checks nor prints); a call returns False
    for anything else, before anything is sent, and ``launch`` then takes the full path,
    which checks the same rules and raises what they raise. The bytes are the full path's:
    the fields below, packed as ``struct`` packs them."""
    m = plan.module
    if m.checked or m.prints or len(kernel.params) != len(plan.scalars) + len(plan.arrays):
        return False
    scalars, unused, fields = [], [], []
    for k, p, offset in plan.scalars:
        if isinstance(p, _Leaf) or p.kind != "scalar" or p.elem not in _FAST_SCALARS:
            return False
        floating = p.elem in (float, f32, f64)
        if offset is None:
            unused.append((k, None if floating else INT_RANGES[p.elem]))
        else:
            scalars.append((k, floating))
            fields.append((offset, _CODES[p.elem], ("s", len(scalars) - 1)))
    arrays = [(k, p.elem, p.dims, at) for k, p, at, _ in plan.arrays]
    written = {k for k, _, _, w in plan.arrays if w}
    ks = [k for k, _, _, _ in plan.arrays]
    pairs = [(a, b) for i, a in enumerate(ks) for b in ks[i + 1:] if a in written or b in written]
    if plan.threads is not None:
        fields.append((plan.threads, "3I", ("t",)))
    for k, axis, offset in plan.shapes:
        fields.append((offset, "i", ("h", k, axis)))
    fields.sort()
    np = sys.modules.get("numpy")
    numbers = []
    if np is not None:
        numbers = [(t, True) for t in (np.float16, np.float32, np.float64)]
        numbers += [(t, False) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
    return _native.Fast(kernel.name, dev.native, dev, DeviceArray, pipeline, len(kernel.params), scalars, unused,
                        arrays, pairs, fields, m.uniform_size, plan.bindings, numbers)


# The scalar parameter types of the one-pass launch (``_fast_path``).
_FAST_SCALARS = (float, f32, f64, i32, u32, i64, u64)


def time_launches(kernel, threads, args, times):
    """For benchmarks: seconds for ``times`` launches of ``kernel`` (not generic) over
    ``threads`` with ``args`` (device arrays), as ``launch`` records them, recorded into one
    command buffer from Rust and submitted once: the floor of a loop of launches."""
    dev = _current()
    threads = _threads(threads)
    plan = _plan(kernel, False)
    pipeline = _pipeline(dev, plan.module, plan.module.entry)
    uniform, buffers, hosts = _arguments(dev, kernel, plan, threads, list(args))
    if hosts:
        raise TypeError("time_launches takes device arrays")
    for k, _, _, written in plan.arrays:
        if written and isinstance(args[k], DeviceArray):
            args[k]._written("the timed launches of `%s`" % kernel.name)  # a tape sees them
    return dev.native.time_launches(pipeline, uniform, buffers, threads, times, timeout=_timeout)


def _pipeline(dev, m, name):
    key = (id(m), name)
    p = dev.pipelines.get(key)
    if p is None:
        t = time.perf_counter()
        arrays = sorted(m.arrays.values())
        p = dev.native.prepare(m.words, name, m.workgroup_size, arrays, m.uniform_size, m.checked, m.prints, timeout=_timeout)
        dev.pipelines[key] = p
        _log.debug("prepared kernel %s on %s in %.1f ms", name, dev.name, (time.perf_counter() - t) * 1e3)
    return p


def prepare(kernel, checked=False):
    """Makes ``kernel`` ready to launch on the current device without launching it: what
    its first launch would refuse (a compile error), refused now."""
    dev = _current()
    if dev is _PYTHON:
        _check_for_python(kernel, checked)
        return
    m = _plan(kernel, checked).module
    _pipeline(dev, m, m.entry)


def written_arrays(kernel, checked=False):
    """The names of the array parameters ``kernel`` writes, as the compiler says on the
    current device (every array on the python device without the native module)."""
    if _current() is _PYTHON:
        written = _check_for_python(kernel, checked)
        return {p.name for p in kernel.params if p.kind == "array" and written(p.name)}
    return {p.name for _, p, _, written in _plan(kernel, checked).arrays if written}


def _launch_label(kernel, site):
    """A launch as a device array's last writer names it."""
    return "the launch of `%s` at %s" % (kernel.name, site) if site else "a launch of `%s`" % kernel.name


def _launch_python(kernel, threads, args, checked, site=None):
    """A launch on the reference executor: the kernel checked by the compiler first, the
    arguments by the GPU's rules, NumPy and device arrays as ``Array`` values for it, taking
    its results back."""
    written = _check_for_python(kernel, checked)
    values = list(args)
    arrays = []
    back = []
    for k, p in enumerate(kernel.params):
        value = args[k]
        if p.kind == "vector":
            comps = _matrix(p, value) if isinstance(p.elem, MatrixType) else _vector(p, value)
            values[k] = p.elem(*comps)
            continue
        if p.kind == "struct":
            values[k] = _struct_arg(p.name, p.elem, value)
            continue
        if p.kind != "array":
            values[k] = _number(repr(p.name), p.elem, value)
            continue
        arrays.append((p, value))
        if isinstance(value, Array):
            continue
        host = value._host if isinstance(value, DeviceArray) else value
        if isinstance(value, DeviceArray) and value._host is None:
            raise ValueError("argument %r lives on %s, not on the python device" % (p.name, value.device.label()))
        shape = _numpy_shape(p, host)
        comps = isinstance(p.elem, (VectorType, MatrixType))
        if isinstance(p.elem, StructType):
            data, size = host.tobytes(), structs.layout(p.elem).size
            flat = [structs.unpack(p.elem, data, at) for at in range(0, len(data), size)]
        else:
            flat = host.reshape(-1, p.elem.size).tolist() if comps else host.reshape(-1).tolist()
        values[k] = Array(p.elem, flat, shape=shape if len(shape) > 1 else None)
        back.append((host, values[k], value if isinstance(value, DeviceArray) else None))
    _check_arrays([(p, v, written(p.name)) for p, v in arrays])
    # The device arrays' versions (``spirthon.tape``): by what the compiler says the kernel
    # writes; without the native module to say it, by the contents that changed.
    what = _launch_label(kernel, site)
    exact = _native is not None
    for p, v in arrays:
        if exact and isinstance(v, DeviceArray) and written(p.name):
            v._written(what)
    try:
        kernel.reference_launch(threads, values, {}, checked)
    finally:
        np = _numpy() if back else None
        for host, a, device_array in back:
            if not host.flags.writeable:
                continue
            before = host.tobytes() if device_array is not None and not exact else None
            if isinstance(a.elem, StructType):
                _copy_bytes(host, b"".join(structs.pack(v) for v in a._data))
            else:
                host[...] = np.array(a.tolist(), dtype=host.dtype).reshape(host.shape)
            if before is not None and host.tobytes() != before:
                device_array._written(what)


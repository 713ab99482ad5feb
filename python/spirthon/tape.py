"""Gradients through launches: ``Tape`` records launches and runs their adjoints backwards.

::

    x = spirthon.array(x0, requires_grad=True)
    loss = spirthon.zeros(1, requires_grad=True)
    with spirthon.Tape() as tape:
        step.launch(n, x, y)
        energy.launch(n, y, loss)
    tape.backward(loss)          # x.grad is d loss / d x

Each launch inside ``with`` runs as usual and is recorded; ``backward`` seeds the loss's
adjoint with 1 (or ``grads={array: seed}``) and launches each recorded kernel's adjoint
(``spirthon.autodiff``) in reverse order, on the arguments it was launched with (its
vector, matrix and struct arguments copied at the launch, which the program may change in
place afterwards) and the adjoint of each float array argument. An array made with ``requires_grad=True`` has its
adjoint in ``.grad``, which backward passes add to (``tape.zero()`` clears them); every
other float array a recorded launch touched gets an adjoint of the tape's own, zero at the
start of each backward pass, so the gradient flows through intermediate arrays without
asking. ``.grad`` is the gradient with respect to the array's contents when the tape
began: an element a recorded launch overwrote did not reach the loss from there, so it
is zero after the launch's adjoint ran.

The rules that keep a gradient right are checked, each with the launches' lines:

* A recorded launch takes device arrays (``spirthon.array``/``zeros``), whose writes the
  tape can see; NumPy arrays are refused.
* The backward pass replays each launch's reads, so it needs the values each recorded
  launch read. A later recorded launch that writes an array an earlier one read (a time
  step writing back into the arrays it came from, say) first copies the array on the
  device, and the earlier launches' adjoints read the copy: the tape keeps the data.
* A write outside the tape (``update``, a launch not recorded on this tape: between its
  ``with`` blocks, on another thread, on a nested tape, or one that raised) to an array
  a recorded launch read, or wrote with an adjoint, is found by the array's version and
  refused: at the next recorded write to an array a launch read, and every one at
  ``backward``, which names the array, the last recorded launch that took it and the
  write. The gradient would be of values no recorded launch saw or made (``x = 3 w``
  recorded, ``x`` overwritten, ``sum(x)`` recorded: the gradient by ``w`` is zero, not 3).
* A kernel that reads an array and then writes it (``x[i] *= s``, ``x[i] = f(x[i])``) has
  the array copied before its launch, for its adjoint to read; one that reads an array
  after writing it is refused when it is launched on a tape (``spirthon.autodiff``), and so
  is what it cannot differentiate.
"""

import math
import threading
import weakref

from . import gpu, source as _source, structs as _structs
from .arrays import has_gradient
from .autodiff import AdjointError, adjoint as _adjoint  # noqa: F401 (AdjointError re-exported)

_local = threading.local()
_count_lock = threading.Lock()  # guards gpu._watching, which tapes of every thread count in


def _watching(delta):
    with _count_lock:
        gpu._watching += delta


def active():
    """The tape recording on this thread, or ``None``."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


class _Record:
    """A recorded launch: ``args`` as launched (whose adjoints the backward pass takes),
    ``values`` the arrays its adjoint reads as the forward values (an argument a later
    recorded launch overwrote is replaced by the copy made before), ``versions`` the
    (parameter, array of ``values``, its version) of each array the kernel reads."""
    __slots__ = ("kernel", "adjoint", "threads", "args", "values", "versions", "site", "checked")


class Tape:
    """Records the launches made inside ``with tape:`` (on this thread) for ``backward``."""

    def __init__(self):
        self.records = []
        self._read_by = {}   # id(array) -> the records of the launches that read it as it is now
        self._own = {}       # id(array) -> (array, the tape's adjoint of it)
        # id(array) -> [array, its version after the last recorded launch that took it, what
        # that launch did with it]: for each array a recorded launch read, or wrote with an
        # adjoint; a version that moves on without a recorded launch is a write outside the tape.
        self._seen = {}
        self._outside = []   # the writes outside the tape found at a recorded launch, as refusals
        self._holding = None  # while it holds launches: the finalizer that stops the counting
        self._in = False

    def __enter__(self):
        if self._in:
            raise RuntimeError("this tape is already recording")
        self._in = True
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(self)
        _watching(1)  # no one-pass launch while a tape records (it would not be recorded)
        return self

    def __exit__(self, *exc):
        _local.stack.remove(self)
        self._in = False
        _watching(-1)
        return False

    # ----- recording

    def _watch(self):
        # While a tape holds launches, every launch takes the path that counts array
        # versions (the one-pass path does not), so a write outside the tape is seen.
        if self._holding is None or not self._holding.alive:
            _watching(1)
            self._holding = weakref.finalize(self, _watching, -1)

    def record(self, kernel, threads, args, kwargs, checked, site):
        """Launches ``kernel`` (a specialization for a generic kernel) and records it."""
        args = gpu._bind(kernel, args, kwargs)
        # The kernel's own errors (its file's compile errors) first: its adjoint is written
        # from a kernel that compiles.
        gpu.prepare(kernel, checked)
        if not any(p.kind == "array" and has_gradient(p.elem) for p in kernel.params):
            return self._record_constant(kernel, threads, args, checked, site)
        try:
            adj = kernel.adjoint
        except AdjointError as e:
            head, nl, rest = str(e).partition("\n")
            raise AdjointError("%s (launched on a tape at %s)%s%s" % (head, site, nl, rest)) from None
        arrays = _device_arrays(kernel, args, site)
        info = adj.info
        kept = {}  # id(array) -> the copy of an array this launch reads and writes
        for name in info.writes:
            a = arrays[name]
            copy = self._keep(a, "kernel `%s` launched on a tape at %s" % (kernel.name, site), name in info.reads)
            if copy is not None:
                kept[id(a)] = copy
        self._find_outside(kernel, arrays, site)
        r = _Record()
        held = [(name, kept.get(id(arrays[name]), arrays[name])) for name in info.reads]
        r.versions = [(name, a, a._version) for name, a in held]
        self._launch(kernel, threads, args, checked, site, arrays)
        self._took(kernel, arrays, info.writes, site, _roles(info))
        # The other arguments as the launch took them (a vector, a matrix, a struct, or the
        # NumPy array given for one, may be changed in place afterwards: the adjoint replays
        # the launch with the values it had).
        args = [v if p.kind == "array" else _as_now(p, v) for p, v in zip(kernel.params, args)]
        r.kernel, r.adjoint, r.threads, r.args, r.site, r.checked = kernel, adj, threads, args, site, checked
        r.values = [kept.get(id(v), v) for v in args]
        self.records.append(r)
        for name in info.reads:
            if id(arrays[name]) in kept:
                continue  # it read the contents the copy keeps
            readers = self._read_by.setdefault(id(arrays[name]), [])
            if not readers or readers[-1] is not r:
                readers.append(r)

    def _record_constant(self, kernel, threads, args, checked, site):
        """A launch of a kernel with no array of floats (a prefix sum of ints, a grid's cell
        counts): nothing to differentiate and no adjoint to run; what it writes, launches
        recorded before that read it read a copy of."""
        arrays = _device_arrays(kernel, args, site)
        written = gpu.written_arrays(kernel, checked)
        for name in written:
            self._keep(arrays[name], "kernel `%s` launched on a tape at %s" % (kernel.name, site), False)
        self._find_outside(kernel, arrays, site)
        self._launch(kernel, threads, args, checked, site, arrays)
        self._took(kernel, arrays, written, site, {})

    def _launch(self, kernel, threads, args, checked, site, arrays):
        """The launch to record. One that raises (a checked launch's failure, a time-out) is
        not recorded, and the arrays it wrote say so when ``backward`` refuses them."""
        self._watch()
        try:
            gpu.launch(kernel, threads, args, {}, checked, site)
        except BaseException:
            launch = gpu._launch_label(kernel, site)
            for a in arrays.values():
                if a._writer == launch:
                    a._writer = launch + ", which raised and was not recorded"
            raise

    def _find_outside(self, kernel, arrays, site):
        """Before a recorded launch takes ``arrays``: each one a recorded launch took before
        whose version has moved on since was written outside the tape (``update``, a launch
        not recorded on this tape), which ``backward`` refuses."""
        for a in arrays.values():
            seen = self._seen.get(id(a))
            if seen is not None and a._version != seen[1]:
                seen[1] = a._version  # found once
                self._outside.append(_outside_write("tape.backward()", seen[2], a._writer, "before the launch of `%s` at %s" % (kernel.name, site)))

    def _took(self, kernel, arrays, written, site, roles):
        """After a recorded launch: the versions its arrays have now, and what it did with
        those it read or wrote with an adjoint (``roles``: parameter -> ``read``, ``wrote``
        or ``read and wrote``); the arrays it wrote name it, to other tapes, as their writer."""
        launch = gpu._launch_label(kernel, site)
        for name in written:
            if arrays[name]._writer == launch:
                arrays[name]._writer = launch + ", recorded on another tape"
        done = set()
        for name, a in arrays.items():
            if name in roles and id(a) not in done:
                done.add(id(a))
                self._seen[id(a)] = [a, a._version, (name, kernel.name, site, roles[name])]
        for name, a in arrays.items():
            if id(a) in done:
                continue
            if name in written:
                # What it wrote without an adjoint (ints): the launches before read a copy,
                # and no gradient flows through the values there now.
                self._seen.pop(id(a), None)
            elif id(a) in self._seen:
                self._seen[id(a)][1] = a._version

    def _keep(self, a, what, reads):
        """Before a recorded launch writes ``a``: the launches recorded so far that read it
        read a copy of its contents instead (made on the device, in order); the copy, when
        the launch ``reads`` the array too (its adjoint reads the copy), else ``None``."""
        readers = self._read_by.pop(id(a), None) or []
        for r in readers:
            _check_versions(r, what, a)
        if not readers and not reads:
            return None
        copy = a._copy()
        for r in readers:
            r.values = [copy if v is a else v for v in r.values]
            r.versions = [(n, copy, copy._version) if v is a else (n, v, k) for n, v, k in r.versions]
        return copy if reads else None

    # ----- the backward pass

    def _adjoint_array(self, a):
        if a.requires_grad:
            return a.grad
        own = self._own.get(id(a))
        if own is None:
            own = self._own[id(a)] = (a, gpu.zeros(a.shape, a.elem))
        return own[1]

    def backward(self, loss=None, grads=None):
        """Runs the adjoints of the recorded launches, last first. ``loss``: a one-element
        float device array whose adjoint is seeded with 1; ``grads``: ``{array: seed}``
        (a NumPy array of the array's shape) for several outputs or other seeds."""
        if self._in:
            raise RuntimeError("tape.backward() inside `with tape:`; call it after the block")
        if active() is not None:
            raise RuntimeError("tape.backward() while another tape records on this thread")
        seeds = dict((id(a), (a, v)) for a, v in (grads or {}).items())
        if loss is not None:
            if not isinstance(loss, gpu.DeviceArray) or loss.elem not in (gpu.f32, gpu.f64) or math.prod(loss.shape) != 1:
                raise ValueError("tape.backward(loss): the loss is a device array of one f32 or f64 (got %r); pass grads={array: seed} for others" % (loss,))
            seeds[id(loss)] = (loss, _ones(loss))
        if not seeds:
            raise ValueError("tape.backward() needs the loss (or grads={array: seed})")
        touched = {}
        for r in self.records:
            for p, value in zip(r.kernel.params, r.args):
                if p.kind == "array" and p.name in r.adjoint.info.adjoints:
                    touched[id(value)] = value
        for key, (a, _) in seeds.items():
            if key not in touched:
                raise ValueError("tape.backward(): %r was not an argument of any launch on this tape" % (a,))
        if not any(v.requires_grad for v in touched.values()):
            raise ValueError("tape.backward(): no array the recorded launches took was made with requires_grad=True, "
                             "so no gradient would be kept; make the inputs to differentiate with "
                             "spirthon.array(a, requires_grad=True) or spirthon.zeros(shape, requires_grad=True)")
        # What can refuse, before any adjoint runs: a pass is whole or nothing. A write
        # outside the tape to an array a recorded launch read or wrote: found at a later
        # recorded launch, or since the last one.
        if self._outside:
            raise RuntimeError(self._outside[0])
        for a, version, took in self._seen.values():
            if a._version != version:
                raise RuntimeError(_outside_write("tape.backward()", took, a._writer))
        for r in reversed(self.records):
            _check_versions(r, "tape.backward()")
        for r in self.records:
            gpu.prepare(r.adjoint, r.checked)
        # What the pass adds to: kept, and put back if the pass stops part way (a checked
        # launch's error, Ctrl-C), so that `.grad` never holds half a pass.
        kept = [(v.grad, v.grad._copy()) for v in touched.values() if v.requires_grad]
        try:
            self._clear_own()  # the tape's own adjoints start from zero at each pass
            for key, (a, seed) in seeds.items():
                self._adjoint_array(a).update(seed)
            for r in reversed(self.records):
                info = r.adjoint.info
                extra, merge, seen = [], [], set()
                for p, value in zip(r.kernel.params, r.args):
                    if p.kind == "array" and p.name in info.adjoints:
                        g = _flat(self._adjoint_array(value), info.flat.get(p.name))
                        if id(value) in seen:
                            # One array passed for two parameters: the second's adjoint is
                            # an array of its own, added to the first's after the launch
                            # (an array the adjoint writes may not be passed twice).
                            own = _flat(gpu.zeros(value.shape, value.elem), info.flat.get(p.name))
                            merge.append((g, own))
                            g = own
                        seen.add(id(value))
                        extra.append(g)
                # A launch checked forward is checked backward too.
                (r.adjoint.launch_checked if r.checked else r.adjoint.launch)(r.threads, *(r.values + extra))
                for g, own in merge:
                    g.update(g.numpy() + own.numpy())
        except BaseException:
            for grad, old in kept:
                grad.update(old.numpy())
            raise

    def zero(self):
        """Clears the ``.grad`` of every ``requires_grad`` array the recorded launches took
        (and the tape's own adjoints)."""
        seen = set()
        for r in self.records:
            for p, value in zip(r.kernel.params, r.args):
                if p.kind == "array" and value.requires_grad and id(value) not in seen:
                    seen.add(id(value))
                    value.grad.update(_zeros_like(value.grad))
        self._clear_own()

    def _clear_own(self):
        for _, own in self._own.values():
            own.update(_zeros_like(own))

    def reset(self):
        """Forgets the recorded launches (the arrays' ``.grad`` stay); launches take the
        one-pass path again once no tape holds any."""
        self.records = []
        self._read_by = {}
        self._own = {}
        self._seen = {}
        self._outside = []
        if self._holding is not None:
            self._holding()


def _device_arrays(kernel, args, site):
    """A recorded launch's arrays by parameter name; each must be a device array."""
    arrays = {}
    for p, value in zip(kernel.params, args):
        if p.kind != "array":
            continue
        if not isinstance(value, gpu.DeviceArray):
            raise TypeError("kernel `%s` launched on a tape at %s: argument %r is a %s; a launch on a tape takes "
                            "device arrays (spirthon.array(a), spirthon.zeros(...)), whose writes the tape can see"
                            % (kernel.name, site, p.name, type(value).__name__))
        arrays[p.name] = value
    return arrays


def _as_now(p, v):
    """Argument ``v`` of parameter ``p`` (not an array) as a value of its own: a vector's,
    matrix's or struct's (or the NumPy array's, list's or dict's given for one) a new one of
    the parameter's type, a NumPy scalar array a copy; other values as they are (numbers)."""
    if p.kind == "vector":
        matrix = isinstance(p.elem, gpu.MatrixType)
        return p.elem(*(gpu._matrix(p, v) if matrix else gpu._vector(p, v)))
    if p.kind == "struct":
        return _structs.unpack(p.elem, _structs.pack(gpu._struct_arg(p.name, p.elem, v)))
    if isinstance(v, gpu._numpy_array_type()):
        return v.copy()
    return v


def _check_versions(r, what, only=None):
    """Refuses (``what``: who finds it) when an array recorded launch ``r`` read (or only
    ``only``) was written since by something the tape did not record."""
    for name, a, version in r.versions:
        if a._version != version and (only is None or a is only):
            raise RuntimeError(_outside_write(what, (name, r.kernel.name, r.site, "read"), a._writer))


def _roles(info):
    """What a launch of the kernel of ``info`` (its ``autodiff.Adjoint``) does with each array
    parameter that a write outside the tape would make its gradient wrong for: the arrays it
    reads and does not write (its adjoint reads the same array), and those it writes that
    have an adjoint (the gradient flows back through the values it wrote)."""
    roles = {}
    for name in info.reads:
        if name not in info.writes:  # else its adjoint reads the copy the tape made
            roles[name] = "read"
    for name in info.writes:
        if name in info.adjoints:
            roles[name] = "read and wrote" if name in info.reads else "wrote"
    return roles


def _outside_write(what, took, writer, when=None):
    """The refusal of a write outside the tape: ``what`` finds it; ``took`` is (parameter,
    kernel, site, what the launch did with the array), ``writer`` the array's last writer,
    ``when`` where it was found, if not where it is refused."""
    name, kernel, site, role = took
    why = ("the backward pass needs the values that launch saw" if role == "read" else
           "the backward pass would take the values there now for the ones that launch wrote, and pass "
           "their gradient back through it")
    return ("%s: `%s`, which the launch of `%s` at %s %s, was written afterwards (%s), outside the tape%s: %s; "
            "record that write on the tape or write the new values to another array"
            % (what, name, kernel, site, role, writer, ", " + when if when else "", why))


def _flat(a, entries):
    """The adjoint array ``a`` as the adjoint kernel takes it: itself, or for matrices, quats
    and structs (which have no atomics) the same memory as a flat ``f32`` array of their
    entries (``f64`` for an ``f64`` matrix; a struct's other fields' entries are never
    written)."""
    if entries is None:
        return a
    shape = (math.prod(a.shape) * entries,)
    elem = _flat_elem(a.elem)
    if a._host is not None:
        host = a._host.reshape(-1)
        if host.dtype.names is not None:
            host = host.view(gpu._numpy().float32)  # a struct's bytes, as its f32 entries
        return gpu.DeviceArray(a.device, elem, shape, host=host)
    return gpu.DeviceArray(a.device, elem, shape, buffer=a._buffer)


def _flat_elem(elem):
    """The entries' type of the flat adjoint of an array of ``elem`` (a matrix, a quat or a
    struct): ``f64`` for an ``f64`` matrix, else ``f32``."""
    return gpu.f64 if getattr(elem, "name", "").startswith("dmat") else gpu.f32


def _zeros_like(a):
    np = gpu._numpy()
    return np.zeros(a._np_shape(), dtype=a.dtype)


def _ones(a):
    np = gpu._numpy()
    return np.ones(a._np_shape(), dtype=a.dtype)


def _adjoint_of(kernel):
    """The adjoint kernel of ``kernel`` (kept on it): an ``AdjointKernel`` whose source is
    the kernel's file text with the adjoint's definition appended (``spirthon.autodiff``),
    run by every device as any kernel is; ``.info`` is the ``autodiff.Adjoint``."""
    import linecache
    from . import api
    from .arrays import _ArrayType
    from .autodiff.linear import _kernel_lines
    info = _adjoint(kernel)
    src = kernel.source
    # The file's lines with its kernels' definitions blank (the adjoint calls none of them
    # and compiles faster without them), then the adjoint.
    lines = src.text.splitlines(True)
    for first, last in _kernel_lines(kernel):
        lines[first - 1:last] = ["\n"] * (last - first + 1)
    text = "".join(lines)
    full = (text if text.endswith("\n") else text + "\n") + info.text
    path = "%s (adjoint of %s)" % (src.path, kernel.name)
    source = _source.Source(path, full)
    linecache.cache[path] = (len(full), None, source.lines, path)
    params = list(kernel.params)
    for a, g in info.adjoints.items():
        p = next(p for p in kernel.params if p.name == a)
        params.append(api._param(g, _ArrayType(_flat_elem(p.elem), 1) if a in info.flat else _ArrayType(p.elem, p.dims)))
    adj = api.AdjointKernel(kernel, info, source, params)
    kernel.__dict__["_adjoint"] = adj
    return adj


def _adjoint_function(adj):
    """The function of adjoint kernel ``adj`` (for the python device): its text compiled
    whole, as the GPU path checks a kernel's code against its text, without running the
    file's other statements again."""
    import types
    import spirthon
    kernel, info = adj.adjoint_of, adj.info
    whole = compile(adj.source.text, adj.source.path, "exec", dont_inherit=True)
    code = next(c for c in whole.co_consts if getattr(c, "co_name", None) == info.name)
    ns = dict(kernel.fn.__globals__)
    ns[info.prefix + "sp"] = spirthon
    ns[info.prefix + "math"] = math
    ns.update(info.tables)
    fn = types.FunctionType(code, ns, info.name)
    fn.__annotations__ = {name: eval(ann, ns) for name, ann in info.params}
    fn.__module__ = kernel.fn.__module__
    return fn

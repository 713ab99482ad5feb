"""``python3 -m spirthon run FILE.py --inputs IN.json [--kernel NAME] [--out OUT.json]``, and
``python3 -m spirthon adjoint FILE.py [--kernel NAME] [--types T=f32 ...]``, which prints a
kernel's adjoint (``spirthon.autodiff``) as the tape runs it.

Runs a kernel under CPython with the run JSON of docs/language.md and prints the arrays
after the run, as ``spirthon run`` prints them from the GPU. It is the same program as
``spirthon run``, on another device: the same file is refused with the same errors (the
compiler checks it first, through the native module; ``print`` is the one thing allowed
here only), the same inputs are read by the same rules (``spirthon.runjson``), the same
bad input or output path gives the same one-line error and exit status, and the output has
the same text. Without the native module the kernel is not checked against the compiler's
rules, and a note says so.

Exit status: 0 success, 1 the source has errors or a checked run failed, 2 usage, input or
I/O error.
"""

import argparse
import importlib.util
import os
import sys

from . import files, runjson
from .runjson import InputError
from .api import Kernel
from .errors import CheckError, DeadlockError
from .arrays import Array

#: The most bytes a kernel file may have (as the compiler reads it).
MAX_SOURCE = 64 << 20


class _Exit(Exception):
    """Stops the run with an exit status, after its message was printed."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _say(text):
    """A line on stderr; a closed stderr drops it (the run keeps its own status)."""
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _os_error(e):
    """An ``OSError`` in the words ``spirthon`` (Rust) prints: ``text (os error N)``."""
    if e.errno is not None and e.strerror:
        return "%s (os error %d)" % (e.strerror, e.errno)
    return str(e)


def _read(path, limit, what):
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, _os_error(e)))
    if len(data) > limit:
        raise InputError("%s is larger than %d MiB, more than %s can be" % (path, limit >> 20, what))
    return data


def read_inputs(path):
    """The run JSON of file ``path``, with ``spirthon run``'s messages."""
    data = _read(path, runjson.MAX_BYTES, "a run's inputs")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s is not UTF-8 text (byte 0x%02x at offset %d)" % (path, data[e.start], e.start))
    try:
        return runjson.loads(text)
    except InputError as e:
        raise InputError("%s is not valid JSON: %s" % (path, e))


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def wanted_types(inputs, kernel):
    """What a run JSON asks to compile besides every kernel, as ``spirthon run`` reads it:
    with ``"types"`` (a generic kernel's), the kernel it names (``--kernel``, else its
    ``"kernel"``) and those types, as ``(kernel or None, [(name, type text)])``; without,
    ``(None, None)``."""
    named = inputs.get("kernel") if isinstance(inputs, dict) else None
    kernel = kernel if kernel is not None else (named if isinstance(named, str) else None)
    types = inputs.get("types") if isinstance(inputs, dict) else None
    if types is None:
        return None, None
    if not isinstance(types, dict):
        raise InputError("\"types\" must be an object of a type per generic name, like {\"T\": \"f32\"}, found %s" % runjson.text(types))
    for k, v in types.items():
        if not isinstance(v, str):
            raise InputError("\"types\": the type of `%s` must be a string like \"f32\" or \"Array[f32]\", found %s" % (k, runjson.text(v)))
    return kernel, list(types.items())


def check_source(path, checked, program=False, kernel=None, types=None):
    """Reads and compiles ``path`` as ``spirthon run`` does, for its errors: printed as the
    compiler prints them, with its exit status. ``program``: the file is a program, its
    other imports the CPU side's (``--program``). Without the native module, the file is only
    read, and a note says that it is not checked."""
    try:
        from . import _native
    except ImportError as e:
        _read(path, MAX_SOURCE, "a kernel file")
        _say("note: the native module is not built (%s), so the kernel is not checked against the compiler's rules; `pip install .` in spirthon's repository builds it" % e)
        return
    status, text = _native.check(path, checked, program, kernel, types)
    if text:
        try:
            sys.stderr.write(text)
        except (OSError, ValueError):
            pass
    if status:
        raise _Exit(status)


def load_module(path):
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = "spirthon_kernel_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot import %s" % path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernels_of(module):
    return {k.name: k for k in vars(module).values() if isinstance(k, Kernel)}


def _signature(k):
    """A kernel's parameters as the run JSON takes them: scalars (and vectors), then arrays,
    each in declaration order."""
    scalars = [(p.name, p.elem) for p in k.params if p.kind != "array"]
    arrays = [(p.name, p.elem, p.dims) for p in k.params if p.kind == "array"]
    return scalars, arrays


def json_value(x):
    """A JSON value for an array element: non-finite floats as strings, f32 values as the
    shortest decimal that reads back as the same f32 and f64 values as the shortest that
    reads back as the same double (as `spirthon run` prints them)."""
    if isinstance(x, list):
        return [json_value(c) for c in x]
    if isinstance(x, dict):
        return {k: json_value(c) for k, c in x.items()}
    if isinstance(x, bool):
        return x
    if not isinstance(x, float):
        return int(x) if isinstance(x, int) else x
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    from .scalars import F16, F64
    if type(x) is F64:
        return float(x)  # Python's repr: the shortest digits that read back as the double
    if type(x) is F16:
        return float(repr(x))  # the shortest digits that read back as the half
    from .types import to_f32
    for digits in range(1, 10):
        short = float("%.*g" % (digits, x))
        if to_f32(short) == x:
            return short
    return float(x)


def run(path, inputs, kernel_name=None, checked=False):
    """Runs the kernel an inputs object names; returns the output object. In checked mode
    a failed check raises ``CheckError``."""
    try:
        module = load_module(path)
    except Exception as e:  # the file's own top-level code, which the compiler never runs
        raise InputError("importing %s raised %s: %s" % (path, type(e).__name__, e))
    kernels = kernels_of(module)
    name = runjson.entry_point(list(kernels), inputs, kernel_name)
    k = kernels[name]
    if k.generic:
        types = wanted_types(inputs, kernel_name)[1]
        if types is None:
            raise InputError("kernel `%s` is generic: give its types as \"types\": {\"name\": \"type\"}" % k.name)
        try:
            k = k.specialize(types)
        except TypeError as e:
            raise InputError(str(e))
    scalars, arrays = _signature(k)
    threads, values, planned = runjson.plan(k.name, scalars, arrays, inputs)
    for name_, data, shape in planned:
        p = next(p for p in k.params if p.name == name_)
        values[name_] = Array(p.elem, data, name=name_, shape=shape)
    for p in k.params:
        if p.kind == "vector":
            values[p.name] = p.elem(*values[p.name])
    k.reference_launch(threads, (), values, checked)
    out = {p.name: json_value(values[p.name].tolist()) for p in k.params if p.kind == "array"}
    return {"kernel": k.name, "args": out}


def write_output(path, text):
    """Writes the output as ``spirthon run`` does: a file, or stdout when ``path`` is None;
    a reader that went away (``| head``) ends the run quietly."""
    if path is None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            # Nothing more can go to stdout: stop Python from complaining at exit.
            try:
                sys.stdout = open(os.devnull, "w")
            except OSError:
                pass
        except OSError as e:
            raise InputError("cannot write to stdout: %s" % _os_error(e))
        return
    try:
        files.write_whole(path, text.encode("utf-8"))
    except OSError as e:
        raise InputError("cannot write %s: %s" % (path, _os_error(e)))


def adjoint(path, kernel_name, types):
    """The adjoint's definition of the kernel ``kernel_name`` of the file (its only kernel
    when ``None``), specialized by ``types`` (``T=f32`` texts) when it is generic."""
    from .autodiff import AdjointError
    try:
        module = load_module(path)
    except Exception as e:
        raise InputError("importing %s raised %s: %s" % (path, type(e).__name__, e))
    kernels = kernels_of(module)
    if kernel_name is None:
        if len(kernels) != 1:
            raise InputError("%s has %d kernels (%s): name one with --kernel" % (path, len(kernels), ", ".join(sorted(kernels)) or "none"))
        kernel_name = next(iter(kernels))
    k = kernels.get(kernel_name)
    if k is None:
        raise InputError("%s has no kernel `%s` (it has %s)" % (path, kernel_name, ", ".join(sorted(kernels)) or "none"))
    if k.generic:
        if not types:
            raise InputError("kernel `%s` is generic: give its types with --types T=f32" % k.name)
        try:
            k = k.specialize([t.split("=", 1) for t in types])
        except (TypeError, ValueError) as e:
            raise InputError(str(e))
    try:
        return k.adjoint_source.lstrip("\n")
    except AdjointError as e:
        _say(str(e))
        raise _Exit(1)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m spirthon", description="Run spirthon kernels under CPython.")
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("adjoint", help="print a kernel's adjoint, the kernel a spirthon.Tape runs backwards")
    g.add_argument("file")
    g.add_argument("--kernel")
    g.add_argument("--types", nargs="*", default=[], help="a generic kernel's types, as T=f32")
    r = sub.add_parser("run", help="run a kernel with a run-JSON file")
    r.add_argument("file")
    r.add_argument("--inputs", required=True)
    r.add_argument("--kernel")
    r.add_argument("--out")
    r.add_argument("--checked", action="store_true", help="stop a kernel invocation at a failed bounds, division or assert check and report the first failure")
    r.add_argument("--program", action="store_true", help="the file is a program, not only a kernel file: its imports of other modules are the CPU side's")
    a = parser.parse_args(argv)
    if a.command == "adjoint":
        try:
            write_output(None, adjoint(a.file, a.kernel, a.types))
        except _Exit as e:
            return e.code
        except InputError as e:
            _say("error: %s" % e)
            return 2
        return 0
    try:
        for given in (a.file, a.inputs):
            if a.out is not None and a.out != "-" and _same_file(a.out, given):
                raise InputError("--out %s is an input of the run; nothing was written" % given)
        # The file's errors come before the inputs' (exit status 1, then 2), as for
        # `spirthon run`; a generic kernel's types come from the inputs.
        try:
            inputs = read_inputs(a.inputs)
            kernel, types = wanted_types(inputs, a.kernel)
            bad_inputs = None
        except InputError as e:
            kernel, types, bad_inputs = None, None, e
        check_source(a.file, a.checked, a.program, kernel, types)
        if bad_inputs is not None:
            raise bad_inputs
        out = run(a.file, inputs, a.kernel, a.checked)
        write_output(None if a.out in (None, "-") else a.out, runjson.text(out) + "\n")
    except _Exit as e:
        return e.code
    except CheckError as e:
        _say(e.report(a.file))
        return 1
    except DeadlockError as e:
        # A barrier some invocations never reach, or a subgroup operation under divergent
        # control flow: what would hang or be undefined on a GPU.
        _say("error: %s" % e)
        return 1
    except InputError as e:
        _say("error: %s" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python3 -m spirthon run FILE.py --inputs IN.json [--kernel NAME] [--out OUT.json]``.

Runs a kernel under CPython with the run-JSON of docs/language.md and prints the arrays
after the run, in the same shape as ``spirthon run`` prints them from the GPU.
"""

import argparse
import importlib.util
import json
import math
import os
import sys

from .runtime import CheckError, Kernel
from .types import Array, f32, i32, to_f32, u32
from .vectors import VectorType


class InputError(Exception):
    pass


def _number(value, name, elem):
    if isinstance(value, str):
        table = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
        if value in table and elem is f32:
            return table[value]
        raise InputError("argument %r: %r is not a number" % (name, value))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError("argument %r: expected a number, found %s" % (name, json.dumps(value)))
    if elem is not f32 and isinstance(value, float):
        if value != int(value):
            raise InputError("argument %r: %r is not an integer, but %r takes %r" % (name, value, name, elem))
        value = int(value)
    if elem is i32 and not -(2 ** 31) <= value < 2 ** 31:
        raise InputError("argument %r: %r does not fit in i32" % (name, value))
    if elem is u32 and not 0 <= value < 2 ** 32:
        raise InputError("argument %r: %r does not fit in u32" % (name, value))
    return value


def _value(value, name, elem):
    """A JSON value as a ``elem``: a number, or for a vector type a list of its components."""
    if not isinstance(elem, VectorType):
        return _number(value, name, elem)
    if not isinstance(value, list) or len(value) != elem.size:
        raise InputError("argument %r: a %s is a list of %d numbers, found %s" % (name, elem.name, elem.size, json.dumps(value)[:60]))
    scalar = f32 if elem.scalar is float else elem.scalar
    return [_number(c, "%s[%d]" % (name, k), scalar) for k, c in enumerate(value)]


def _shape(value, name, dims):
    if not (isinstance(value, list) and len(value) == dims and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2 ** 31 for n in value)):
        raise InputError("argument %r: the shape of an Array%dD is a list of %d non-negative integers, found %s" % (name, dims, dims, json.dumps(value)[:60]))
    return value


def _shaped(v, p):
    """A multi-dimensional array argument: nested lists, {"shape", "data"} or {"zeros": shape}."""
    kind = "an Array%dD" % p.dims
    if isinstance(v, dict) and set(v) == {"zeros"}:
        return Array(p.elem, name=p.name, shape=_shape(v["zeros"], p.name, p.dims))
    if isinstance(v, dict) and set(v) == {"shape", "data"}:
        shape = _shape(v["shape"], p.name, p.dims)
        data = v["data"]
        n = 1
        for s in shape:
            n *= s
        if not isinstance(data, list) or len(data) != n:
            raise InputError("argument %r: \"data\" must be a flat list of %d elements, the shape's product" % (p.name, n))
        items = [_value(x, "%s[%d]" % (p.name, i), p.elem) for i, x in enumerate(data)]
        return Array(p.elem, items, name=p.name, shape=shape)
    if isinstance(v, list):
        level, shape = [v], []
        for depth in range(p.dims):
            if level and not isinstance(level[0], list):
                raise InputError("argument %r: %s given as nested lists needs lists %d deep" % (p.name, kind, p.dims))
            n = len(level[0]) if level else 0
            if not all(isinstance(x, list) and len(x) == n for x in level):
                raise InputError("argument %r: the nested lists are not rectangular at depth %d" % (p.name, depth + 1))
            shape.append(n)
            level = [y for x in level for y in x]
        items = [_value(x, "%s[%d]" % (p.name, i), p.elem) for i, x in enumerate(level)]
        return Array(p.elem, items, name=p.name, shape=shape)
    raise InputError("argument %r: %s is nested lists, {\"shape\": [...], \"data\": [...]}, or {\"zeros\": [...]}" % (p.name, kind))


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


def pick_kernel(kernels, wanted, path):
    if wanted is None:
        if len(kernels) != 1:
            raise InputError("%s has %d kernels (%s): name one with \"kernel\" or --kernel" % (path, len(kernels), ", ".join(sorted(kernels))))
        return next(iter(kernels.values()))
    if wanted not in kernels:
        raise InputError("no kernel named %r in %s (it has %s)" % (wanted, path, ", ".join(sorted(kernels)) or "none"))
    return kernels[wanted]


def build_args(k, args):
    if not isinstance(args, dict):
        raise InputError("\"args\" must be an object with one entry per parameter")
    names = [p.name for p in k.params]
    for extra in args:
        if extra not in names:
            raise InputError("argument %r: %s has no such parameter (it takes %s)" % (extra, k.name, ", ".join(names)))
    values = {}
    for p in k.params:
        if p.name not in args:
            raise InputError("argument %r is missing" % p.name)
        v = args[p.name]
        if p.kind == "array" and p.dims > 1:
            values[p.name] = _shaped(v, p)
        elif p.kind == "array":
            if isinstance(v, dict) and set(v) == {"zeros"} and isinstance(v["zeros"], int) and v["zeros"] >= 0:
                values[p.name] = Array(p.elem, v["zeros"], name=p.name)
            elif isinstance(v, list):
                items = [_value(x, "%s[%d]" % (p.name, i), p.elem) for i, x in enumerate(v)]
                values[p.name] = Array(p.elem, items, name=p.name)
            else:
                raise InputError("argument %r: an array is a JSON list or {\"zeros\": N}" % p.name)
        elif p.elem is bool:
            if not isinstance(v, bool):
                raise InputError("argument %r: expected true or false" % p.name)
            values[p.name] = v
        elif p.kind == "vector":
            values[p.name] = p.elem(*_value(v, p.name, p.elem))
        else:
            values[p.name] = _number(v, p.name, p.elem)
    return values


def threads_of(spec):
    if not isinstance(spec, list) or not 1 <= len(spec) <= 3 or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in spec):
        raise InputError("\"threads\" must be a list of one to three non-negative integers, like [1024] or [64, 48]")
    for i, t in enumerate(spec):
        if t > 0xFFFFFFFF:
            raise InputError("\"threads\"[%d] is %d, more than a launch can have (at most %d per axis)" % (i, t, 0xFFFFFFFF))
    return spec


def json_value(x):
    """A JSON value for an array element: non-finite floats as strings, and f32 values as
    the shortest decimal that reads back as the same f32 (as `spirthon run` prints them)."""
    if isinstance(x, list):
        return [json_value(c) for c in x]
    if not isinstance(x, float):
        return x
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    for digits in range(1, 10):
        short = float("%.*g" % (digits, x))
        if to_f32(short) == x:
            return short
    return x


def run(path, inputs, kernel_name=None, checked=False):
    """Runs the kernel an inputs object names; returns the output object. In checked mode
    a failed check raises ``CheckError``."""
    if not isinstance(inputs, dict):
        raise InputError("the inputs must be a JSON object")
    module = load_module(path)
    named = inputs.get("kernel")
    if named is not None and not isinstance(named, str):
        raise InputError("\"kernel\" must be a kernel's name, found %s" % json.dumps(named))
    k = pick_kernel(kernels_of(module), kernel_name or named, path)
    threads = threads_of(inputs.get("threads"))
    values = build_args(k, inputs.get("args"))
    k.reference_launch(threads, (), values, checked)
    arrays = {p.name: [json_value(x) for x in values[p.name].tolist()] for p in k.params if p.kind == "array"}
    return {"kernel": k.name, "args": arrays}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m spirthon", description="Run spirthon kernels under CPython.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a kernel with a run-JSON file")
    r.add_argument("file")
    r.add_argument("--inputs", required=True)
    r.add_argument("--kernel")
    r.add_argument("--out")
    r.add_argument("--checked", action="store_true", help="stop a kernel invocation at a failed bounds, division or assert check and report the first failure")
    a = parser.parse_args(argv)
    try:
        with open(a.inputs) as fh:
            try:
                inputs = json.load(fh)
            except json.JSONDecodeError as e:
                raise InputError("%s is not valid JSON: %s" % (a.inputs, e))
        out = run(a.file, inputs, a.kernel, a.checked)
    except CheckError as e:
        print(e.report(a.file), file=sys.stderr)
        return 1
    except InputError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    text = json.dumps(out) + "\n"
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Gradients of kernels (``spirthon.Tape``, ``spirthon.autodiff``): every differentiable
built-in against central finite differences of the same function in float64 (NumPy), on
the GPU and on the python device (which agree); kernels with branches, loops, funcs and
atomics; and each rule that keeps a gradient right refused with its line."""

import importlib
import math
import os
import sys
import tempfile
import textwrap
import unittest
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (AdjointError, Array, Array2D, Tape, ivec2, dmat22, dmat33, dvec2, dvec3, f64, i32, struct, atomic_add, atomic_sub, barrier, cross, determinant, f32, func, global_id,  # noqa: E402
                      identity, inverse, kernel, length, local_array, local_id, local_index, mat22, mat33, mat44, normalize, outer,
                      quat, quat_from_axis_angle, quat_inverse, quat_rotate, quat_rotate_inv, quat_to_matrix,
                      shared_array, subgroup_add, subgroup_broadcast, subgroup_broadcast_first, subgroup_elect,
                      subgroup_exclusive_add, subgroup_inclusive_add, subgroup_max, subgroup_min, subgroup_shuffle_down, subgroup_shuffle_up,
                      subgroup_shuffle_xor, transpose, u32, vec2, vec3, vec4, dot)
from test_gpu import np, on_both, setUpModule  # noqa: E402,F401


def shader(name):
    """The kernel file ``shaders/NAME.py`` of the project's corpus, imported once."""
    import importlib.util
    mod = sys.modules.get("shader_" + name)
    if mod is None:
        path = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shaders", name + ".py")
        spec = importlib.util.spec_from_file_location("shader_" + name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return mod


def central(f, x, h=1e-6):
    """The gradient of ``f`` (float64 in, a float out) at ``x`` by central differences."""
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[k] += h
        b[k] -= h
        g[k] = (f(a) - f(b)) / (2 * h)
    return g


# (kernel expression over `a` (and `b`), its NumPy float64 twin, operand range). The kernel
# writes `y[i] = expr` and the loss is sum(w * y).
SCALAR = [
    ("math.sqrt(a)", np.sqrt, (0.2, 2.0)),
    ("math.sin(a)", np.sin, (-2, 2)),
    ("math.cos(a)", np.cos, (-2, 2)),
    ("math.tan(a)", np.tan, (-1, 1)),
    ("math.asin(a)", np.arcsin, (-0.9, 0.9)),
    ("math.acos(a)", np.arccos, (-0.9, 0.9)),
    ("math.atan(a)", np.arctan, (-3, 3)),
    ("math.sinh(a)", np.sinh, (-2, 2)),
    ("math.cosh(a)", np.cosh, (-2, 2)),
    ("math.tanh(a)", np.tanh, (-2, 2)),
    ("math.exp(a)", np.exp, (-2, 2)),
    ("math.exp2(a)", np.exp2, (-2, 2)),
    ("math.expm1(a)", np.expm1, (-2, 2)),
    ("math.log(a)", np.log, (0.2, 3)),
    ("math.log2(a)", np.log2, (0.2, 3)),
    ("math.log10(a)", np.log10, (0.2, 3)),
    ("math.log1p(a)", np.log1p, (-0.5, 2)),
    ("math.cbrt(a)", np.cbrt, (0.2, 3)),
    ("math.erf(a)", lambda a: np.vectorize(math.erf)(a), (-2, 2)),
    ("math.erfc(a)", lambda a: np.vectorize(math.erfc)(a), (-2, 2)),
    ("math.fabs(a)", np.abs, (-2, 2)),
    ("abs(a)", np.abs, (-2, 2)),
    ("-a + 1.5", lambda a: -a + 1.5, (-2, 2)),
    ("a * a * 3.0 - a / 7.0", lambda a: a * a * 3 - a / 7, (-2, 2)),
    ("1.0 / a", lambda a: 1 / a, (0.5, 2)),
    ("a ** 3", lambda a: a ** 3, (-2, 2)),
    ("a ** 2.5", lambda a: a ** 2.5, (0.2, 2)),
    ("min(a, 0.3)", lambda a: np.minimum(a, 0.3), (-2, 2)),
    ("max(a, 0.3, -a)", lambda a: np.maximum(np.maximum(a, 0.3), -a), (-2, 2)),
    ("clamp(a, -0.4, 0.6)", lambda a: np.clip(a, -0.4, 0.6), (-2, 2)),
    ("smoothstep(-0.5, 0.7, a)", lambda a: (lambda u: u * u * (3 - 2 * u))(np.clip((a + 0.5) / 1.2, 0, 1)), (-1, 1)),
    ("mix(a, 2.0, 0.3)", lambda a: a * 0.7 + 2 * 0.3, (-2, 2)),
    ("a % 0.7", lambda a: np.mod(a, 0.7), (-2, 2)),
    ("float(math.floor(a)) + a // 0.3", lambda a: np.floor(a) + np.floor_divide(a, 0.3), (-2, 2)),
    ("a * 2.0 if a > 0.1 else a * a", lambda a: np.where(a > 0.1, a * 2, a * a), (-1, 1)),
]
BINARY = [
    ("a + b * 2.0", lambda a, b: a + b * 2, (-2, 2), (-2, 2)),
    ("a - b", lambda a, b: a - b, (-2, 2), (-2, 2)),
    ("a * b", lambda a, b: a * b, (-2, 2), (-2, 2)),
    ("a / b", lambda a, b: a / b, (-2, 2), (0.5, 2)),
    ("a ** b", lambda a, b: a ** b, (0.2, 2), (-2, 2)),
    ("math.pow(a, b)", lambda a, b: a ** b, (0.2, 2), (-2, 2)),
    ("math.atan2(a, b)", np.arctan2, (-2, 2), (-2, 2)),
    ("math.hypot(a, b)", np.hypot, (-2, 2), (-2, 2)),
    ("math.copysign(a, b)", np.copysign, (-2, 2), (-2, 2)),
    ("math.fmod(a, b)", np.fmod, (-3, 3), (0.4, 1)),
    ("math.log(a, b)", lambda a, b: np.log(a) / np.log(b), (0.2, 3), (1.5, 3)),
    ("min(a, b)", np.minimum, (-2, 2), (-2, 2)),
    ("max(a, b)", np.maximum, (-2, 2), (-2, 2)),
    ("clamp(0.3, a, b)", lambda a, b: np.minimum(np.maximum(0.3, a), b), (-1, 1), (-1, 1)),
    ("mix(a, b, a)", lambda a, b: a * (1 - a) + b * a, (-2, 2), (-2, 2)),
]
VECTOR = [
    ("p + q * 2.0", lambda p, q: p + q * 2, "vec3"),
    ("p * q - p / (q * q + 1.0)", lambda p, q: p * q - p / (q * q + 1), "vec3"),
    ("cross(p, q)", lambda p, q: np.cross(p, q), "vec3"),
    ("normalize(p)", lambda p, q: p / np.linalg.norm(p, axis=-1, keepdims=True), "vec3"),
    ("mix(p, q, 0.25)", lambda p, q: p * 0.75 + q * 0.25, "vec3"),
    ("clamp(p, -0.5, 0.5)", lambda p, q: np.clip(p, -0.5, 0.5), "vec3"),
    ("min(p, q) + max(p, q * 0.5)", lambda p, q: np.minimum(p, q) + np.maximum(p, q * 0.5), "vec3"),
    ("abs(p) - p", lambda p, q: np.abs(p) - p, "vec3"),
    ("vec3(p.x * q.y, p.z, 1.0) + p.zyx", lambda p, q: np.stack([p[:, 0] * q[:, 1] + p[:, 2], p[:, 2] + p[:, 1], 1 + p[:, 0]], -1), "vec3"),
    ("length(p) * dot(p, q)", lambda p, q: np.linalg.norm(p, axis=-1) * np.sum(p * q, -1), "f32"),
    ("distance(p, q) + p[1]", lambda p, q: np.linalg.norm(p - q, axis=-1) + p[:, 1], "f32"),
    ("vec3(p.x) * q + vec3(q.y * p.z)", lambda p, q: p[:, :1] * q + (q[:, 1] * p[:, 2])[:, None], "vec3"),
    ("vec3(vec2(p.z, q.x), p.y) + vec3(q.x, vec2(p.x, q.z)).zxy",
     lambda p, q: np.stack([p[:, 2] + q[:, 2], q[:, 0] + q[:, 0], p[:, 1] + p[:, 0]], -1), "vec3"),
    ("vec4(p, q.y).wzyx.xyz * vec4(q.z).w", lambda p, q: np.stack([q[:, 1], p[:, 2], p[:, 1]], -1) * q[:, 2:3], "vec3"),
]


def _kernels_file():
    """A kernel file with one kernel per entry of the tables, imported as a module."""
    lines = ["import math",
             "from spirthon import *", ""]
    for k, (expr, _, _) in enumerate(SCALAR):
        lines += ["@kernel", "def s%d(x: Array[f32], y: Array[f32]):" % k, "    i = global_id().x", "    a = x[i]",
                  "    y[i] = %s" % expr, ""]
    for k, (expr, _, _, _) in enumerate(BINARY):
        lines += ["@kernel", "def b%d(x: Array[f32], z: Array[f32], y: Array[f32]):" % k, "    i = global_id().x",
                  "    a = x[i]", "    b = z[i]", "    y[i] = %s" % expr, ""]
    for k, (expr, _, out) in enumerate(VECTOR):
        lines += ["@kernel", "def v%d(x: Array[vec3], z: Array[vec3], y: Array[%s]):" % (k, out), "    i = global_id().x",
                  "    p = x[i]", "    q = z[i]", "    y[i] = %s" % expr, ""]
    folder = tempfile.mkdtemp(prefix="spirthon-grad-")
    with open(os.path.join(folder, "grad_builtins.py"), "w") as f:
        f.write("\n".join(lines))
    sys.path.insert(0, folder)
    try:
        return importlib.import_module("grad_builtins")
    finally:
        sys.path.remove(folder)


def tape_gradients(k, inputs, out_shape, out_dtype, seed):
    """The gradients of sum(seed * y) with respect to each input, by a tape."""
    xs = [spirthon.array(v, f32 if v.ndim == 1 else vec3, requires_grad=True) for v in inputs]
    y = spirthon.zeros(out_shape, out_dtype)
    with Tape() as tape:
        k.launch(len(inputs[0]), *xs, y)
    tape.backward(grads={y: seed})
    return [x.grad.numpy() for x in xs], y.numpy()


class Builtins(unittest.TestCase):
    """Each differentiable operation's adjoint against central differences in float64."""

    @classmethod
    def setUpClass(cls):
        cls.mod = _kernels_file()
        cls.rng = np.random.default_rng(11)

    def check(self, name, kernel_, inputs, f, out_shape, out_dtype):
        n = len(inputs[0])
        seed = self.rng.uniform(-1, 1, (n,) + out_shape).astype(np.float32)
        gpu, cpu = on_both(lambda: tape_gradients(kernel_, inputs, (n,), out_dtype, seed))
        for k, x in enumerate(inputs):
            def loss(v, k=k):
                args = [w.astype(np.float64) for w in inputs]
                args[k] = v
                return float(np.sum(seed.astype(np.float64) * f(*args)))
            want = central(loss, x)
            scale = np.maximum(np.abs(want), 1.0)
            for got, where in ((gpu[0][k], "gpu"), (cpu[0][k], "python")):
                err = np.max(np.abs(got - want) / scale)
                self.assertLess(err, 2e-4, "%s (%s, input %d): %s against %s" % (name, where, k, got, want))
            # The GPU and the python device compute the same adjoint (within the math's ULPs).
            np.testing.assert_allclose(gpu[0][k], cpu[0][k], rtol=1e-5, atol=1e-6, err_msg=name)

    def test_scalar_functions(self):
        for k, (expr, f, (lo, hi)) in enumerate(SCALAR):
            with self.subTest(expr):
                x = self.rng.uniform(lo, hi, 24).astype(np.float32)
                self.check(expr, getattr(self.mod, "s%d" % k), [x], f, (), f32)

    def test_binary_operations(self):
        for k, (expr, f, ra, rb) in enumerate(BINARY):
            with self.subTest(expr):
                x = self.rng.uniform(*ra, 24).astype(np.float32)
                z = self.rng.uniform(*rb, 24).astype(np.float32)
                self.check(expr, getattr(self.mod, "b%d" % k), [x, z], f, (), f32)

    def test_vector_operations(self):
        for k, (expr, f, out) in enumerate(VECTOR):
            with self.subTest(expr):
                p = self.rng.uniform(-1, 1, (16, 3)).astype(np.float32)
                q = self.rng.uniform(-1, 1, (16, 3)).astype(np.float32)
                shape = (3,) if out == "vec3" else ()
                self.check(expr, getattr(self.mod, "v%d" % k), [p, q], f, shape, vec3 if out == "vec3" else f32)


def elementwise_against_f64(kern, f, x0):
    """``kern(x, y)``, y[i] a function ``f`` of x[i] alone: its values and its tape
    gradient on both devices against ``f`` in float64 and its central differences."""
    def run():
        x = spirthon.array(x0, requires_grad=True)
        y = spirthon.zeros(len(x0))
        with Tape() as tape:
            kern.launch(len(x0), x, y)
        tape.backward(grads={y: np.ones(len(x0), np.float32)})
        return y.numpy(), x.grad.numpy()

    want = [(f(float(a) + 1e-6) - f(float(a) - 1e-6)) / 2e-6 for a in x0]
    for y, grad in on_both(run):
        np.testing.assert_allclose(y, [f(float(a)) for a in x0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(grad, want, rtol=1e-4, atol=1e-4)


def random_expression(rng, depth):
    """A random float expression over `a` and `b`, valid in a kernel and in Python."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(["a", "b", "a", "b", "%.2f" % rng.uniform(-2, 2)])
    e = lambda: random_expression(rng, depth - 1)
    forms = [
        lambda: "(%s + %s)" % (e(), e()), lambda: "(%s - %s)" % (e(), e()), lambda: "(%s * %s)" % (e(), e()),
        lambda: (lambda d: "(%s / (%s * %s + 1.0))" % (e(), d, d))(e()), lambda: "(-%s)" % e(),
        lambda: "math.sin(%s)" % e(), lambda: "math.cos(%s)" % e(), lambda: "math.exp(clamp(%s, -3.0, 3.0))" % e(),
        lambda: "math.log((%s) ** 2 + 0.5)" % e(), lambda: "math.sqrt((%s) ** 2 + 0.25)" % e(),
        lambda: "math.tanh(%s)" % e(), lambda: "min(%s, %s)" % (e(), e()), lambda: "max(%s, %s)" % (e(), e()),
        lambda: "abs(%s)" % e(), lambda: "(%s if %s > %s else %s)" % (e(), e(), e(), e()),
        lambda: "math.atan2(%s, %s)" % (e(), e()), lambda: "(%s) ** 3" % e(),
        # Through vectors: constructors, splats, components.
        lambda: "dot(vec3(%s, %s, 0.5), vec3(%s))" % (e(), e(), e()),
        lambda: "(vec3(%s) * vec3(%s, 1.0, %s))[2]" % (e(), e(), e()),
        lambda: "length(vec2(%s, %s) + vec2(0.75))" % (e(), e()),
    ]
    return rng.choice(forms)()


def _vec(n):
    """vecN in float64 for the reference: scalars and vectors joined, one scalar splat."""
    def make(*args):
        parts = [float(v) for a in args for v in (a if isinstance(a, np.ndarray) else [a])]
        return np.array(parts * n if len(parts) == 1 else parts)
    return make


LOCALS = ["t0", "t1", "t2", "t3"]


def random_statements(rng, depth, indent, loops=True, memory=False):
    """Random statements over `a`, `b`, the locals `t0`..`t3` and `k` (an int bound before,
    every loop's variable, read after loops too): assignments, `if`/`else`, loops of a
    constant or run-time count (`len(x)` of 8 elements) that carry a local, `while` loops,
    `break`s; with ``memory`` (``{"read": False}``), writes to the local array `acc` of 4
    (`=`, `+=`, `-=`, at a constant index or `k % 4`), then, from the first, reads of it
    (none in a loop that writes it)."""
    def expr():
        e = random_expression(rng, 2)
        for _ in range(rng.randrange(3)):
            e = "(%s %s %s)" % (e, rng.choice("+-*"), rng.choice(LOCALS + ["float(k)"]))
        return e
    out, pad = [], "    " * indent
    for _ in range(rng.randrange(1, 4)):
        r = rng.random()
        at = rng.choice(["0", "1", "2", "3", "k % 4"])
        if memory and not memory["read"] and rng.random() < 0.5:
            out.append(pad + "acc[%s] %s math.tanh(%s)" % (at, rng.choice(["=", "+=", "+=", "-="]), expr()))
            memory["wrote"] = True
            if loops and rng.random() < 0.3:
                # Read at once (in a branch: its reverse replays the branch, the write too).
                memory["read"] = True
                out.append(pad + "%s = math.tanh(acc[%s] * %s)" % (rng.choice(LOCALS), at, expr()))
        elif memory and memory.get("wrote") and (loops or memory["read"]) and rng.random() < 0.3:
            memory["read"] = True
            out.append(pad + "%s = math.tanh(acc[%s] * %s)" % (rng.choice(LOCALS), at, expr()))
        elif r < 0.5 or depth == 0:
            out.append(pad + "%s = math.tanh(%s)" % (rng.choice(LOCALS), expr()))
        elif r < 0.75:
            out.append(pad + "if %s > %s:" % (expr(), expr()))
            out += random_statements(rng, depth - 1, indent + 1, loops, memory)
            if rng.random() < 0.6:
                out.append(pad + "else:")
                out += random_statements(rng, depth - 1, indent + 1, loops, memory)
        elif loops and rng.random() < 0.3:
            # A while loop (at most 3 times), sometimes leaving by a break.
            v, w = rng.choice(LOCALS), "w%d" % rng.randrange(1000)
            out.append(pad + "%s = 0" % w)
            out.append(pad + "while %s < 3 and %s > %s:" % (w, expr(), expr()))
            out.append(pad + "    %s = %s * 0.5 + math.sin(%s)" % (v, v, expr()))
            out.append(pad + "    %s += 1" % w)
            if rng.random() < 0.5:
                out.append(pad + "    if %s > %s:" % (expr(), expr()))
                out.append(pad + "        break")
            out += random_statements(rng, depth - 1, indent + 1, False, memory)
        elif loops:
            v = rng.choice(LOCALS)
            # A constant trip count (checkpoints) or one known at run time (recomputed).
            out.append(pad + "for k in range(%s):" % rng.choice(["1", "2", "3", "len(x) // 4", "len(x) // 3"]))
            out.append(pad + "    %s = %s * 0.5 + math.sin(%s) * float(k + 1)" % (v, v, expr()))
            out += random_statements(rng, depth - 1, indent + 1, False, memory)
            if rng.random() < 0.3:
                out.append(pad + "    if %s > %s:" % (expr(), expr()))
                out.append(pad + "        %s = %s + 0.5" % (v, v))
                out.append(pad + "        break")
            elif rng.random() < 0.3:
                # A leave inside a nested branch, then more of the body: taken as a flag.
                out.append(pad + "    if %s > %s:" % (expr(), expr()))
                out.append(pad + "        if %s > %s:" % (expr(), expr()))
                out.append(pad + "            %s" % rng.choice(["break", "continue"]))
                out.append(pad + "        %s = %s * 0.75" % (v, v))
                out.append(pad + "    %s = %s + 0.125" % (v, v))
        else:
            out.append(pad + "%s = %s + 0.25" % (rng.choice(LOCALS), rng.choice(LOCALS)))
    return out


class Vec3:
    """A float64 vec3 for the Python twins of random bodies over vector locals: components
    assigned in place (`v.y += g`, as the kernel's locals are), arithmetic per component
    with scalar broadcasting, the swizzles the bodies read."""
    __slots__ = ("c",)

    def __init__(self, *parts):
        c = [float(v) for p in parts for v in (p.c if isinstance(p, Vec3) else [p])]
        self.c = c * 3 if len(c) == 1 else c

    def _zip(self, o, f):
        return Vec3(*[f(p, q) for p, q in zip(self.c, o.c if isinstance(o, Vec3) else [o] * 3)])

    __add__ = __radd__ = lambda s, o: s._zip(o, lambda p, q: p + q)
    __sub__ = lambda s, o: s._zip(o, lambda p, q: p - q)
    __mul__ = __rmul__ = lambda s, o: s._zip(o, lambda p, q: p * q)
    __truediv__ = lambda s, o: s._zip(o, lambda p, q: p / q)
    __neg__ = lambda s: s * -1.0
    __getitem__ = lambda s, k: s.c[k]
    x = property(lambda s: s.c[0], lambda s, v: s.c.__setitem__(0, float(v)))
    y = property(lambda s: s.c[1], lambda s, v: s.c.__setitem__(1, float(v)))
    z = property(lambda s: s.c[2], lambda s, v: s.c.__setitem__(2, float(v)))
    zxy = property(lambda s: Vec3(s.c[2], s.c[0], s.c[1]))
    yzx = property(lambda s: Vec3(s.c[1], s.c[2], s.c[0]))


def _components(v):
    return v.c if isinstance(v, Vec3) else [float(c) for c in v]


VEC3_TWINS = {
    "vec3": Vec3, "dvec3": Vec3,
    "dot": lambda p, q: sum(a * b for a, b in zip(_components(p), _components(q))),
    "length": lambda p: math.sqrt(sum(a * a for a in _components(p))),
    "cross": lambda p, q: Vec3(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x),
    "normalize": lambda p: p * (1.0 / math.sqrt(sum(a * a for a in p.c))),
    "max": lambda p, q: p._zip(q, max) if isinstance(p, Vec3) else max(p, q),
}


def random_vector_statements(rng, depth, indent, loops=True, wide=False):
    """Random statements over the vec3 locals `v0`, `v1` (and `a`, `b`, `t0`..`t3`, `k`):
    vectors made, scaled, crossed, normalized and swizzled, components assigned and updated
    (`=`, `+=`, `-=`, `*=`), whole vectors updated, branches, and loops of a constant or
    run-time count that update a component and may break; ``wide``: dvec3 locals and f64
    values."""
    vec3, conv = ("dvec3", "f64") if wide else ("vec3", "float")

    def scalar():
        e, r = (random_f64_expression if wide else random_expression)(rng, 1), rng.random()
        if r < 0.3:
            e = "(%s * %s.%s)" % (e, rng.choice(["v0", "v1"]), rng.choice("xyz"))
        elif r < 0.45:
            e = "(%s + dot(v%d, v%d) * 0.25)" % (e, rng.randrange(2), rng.randrange(2))
        elif r < 0.55:
            e = "(%s - length(v%d) * 0.5)" % (e, rng.randrange(2))
        return "math.tanh(%s)" % e

    def vector():
        v, w = "v%d" % rng.randrange(2), "v%d" % rng.randrange(2)
        return rng.choice([
            lambda: "%s(%s, %s, %s)" % (vec3, scalar(), scalar(), scalar()), lambda: "%s * %s" % (v, scalar()),
            lambda: "%s + %s * 0.5" % (v, w), lambda: "cross(%s, %s) * 0.25 + %s" % (v, w, v),
            lambda: "normalize(%s + %s(1.5, -1.25, 2.0))" % (v, vec3), lambda: "%s.zxy - %s * 0.5" % (v, w),
            lambda: "%s(%s.yzx.x, %s, %s.z)" % (vec3, v, scalar(), w), lambda: "max(%s, %s * 0.5)" % (v, w)])()

    out, pad = [], "    " * indent
    for _ in range(rng.randrange(1, 5)):
        r, v = rng.random(), "v%d" % rng.randrange(2)
        if r < 0.25 or depth == 0 or (r >= 0.82 and not loops):
            out.append(pad + "%s = %s" % (v, vector()))
        elif r < 0.45:
            out.append(pad + "%s.%s %s %s" % (v, rng.choice("xyz"), rng.choice(["=", "+=", "-=", "*="]), scalar()))
        elif r < 0.55:
            out.append(pad + "%s %s %s" % (v, rng.choice(["+=", "-=", "*="]), scalar() if rng.random() < 0.5 else vector()))
        elif r < 0.65:
            out.append(pad + "%s = %s" % (rng.choice(LOCALS), scalar()))
        elif r < 0.82:
            out.append(pad + "if %s > %s:" % (scalar(), scalar()))
            out += random_vector_statements(rng, depth - 1, indent + 1, loops, wide)
            if rng.random() < 0.6:
                out.append(pad + "else:")
                out += random_vector_statements(rng, depth - 1, indent + 1, loops, wide)
        else:
            out.append(pad + "for k in range(%s):" % rng.choice(["2", "3", "len(x) // 4"]))
            out.append(pad + "    %s.%s = %s.%s * 0.5 + math.sin(%s) * %s(k + 1)" % (v, rng.choice("xyz"), v, rng.choice("xyz"), scalar(), conv))
            out += random_vector_statements(rng, depth - 1, indent + 1, False, wide)
            if rng.random() < 0.3:
                out.append(pad + "    if %s > %s:" % (scalar(), scalar()))
                out.append(pad + "        break")
    return out


def random_f64_expression(rng, depth):
    """A random f64 expression over `a` and `b` and the locals (scalars only: the language
    does not mix f64 with f32 values, so no vectors), with a round trip through f32."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(["a", "b", "a", "b", "%.2f" % rng.uniform(-2, 2), rng.choice(LOCALS)])
    e = lambda: random_f64_expression(rng, depth - 1)
    return rng.choice([
        lambda: "(%s + %s)" % (e(), e()), lambda: "(%s - %s)" % (e(), e()), lambda: "(%s * %s)" % (e(), e()),
        lambda: (lambda d: "(%s / (%s * %s + 1.0))" % (e(), d, d))(e()), lambda: "(-%s)" % e(),
        lambda: "math.sin(%s)" % e(), lambda: "math.cos(%s)" % e(), lambda: "math.exp(clamp(%s, -3.0, 3.0))" % e(),
        lambda: "math.log((%s) ** 2 + 0.5)" % e(), lambda: "math.sqrt((%s) ** 2 + 0.25)" % e(),
        lambda: "math.tanh(%s)" % e(), lambda: "min(%s, %s)" % (e(), e()), lambda: "max(%s, %s)" % (e(), e()),
        # (a side that reads `b`: a choice of two literals would be an f32)
        lambda: "abs(%s)" % e(), lambda: "(%s if %s > %s else b * %s)" % (e(), e(), e(), e()),
        lambda: "math.atan2(%s, %s)" % (e(), e()), lambda: "(%s) ** 3" % e(), lambda: "math.hypot(%s, %s)" % (e(), e()),
        lambda: "(%s) ** 1.5" % ("(%s) ** 2 + 0.5" % e()), lambda: "f64(f32(%s) * 0.5)" % e(),
        lambda: "smoothstep(-0.5, 0.75, b * %s)" % e(),
    ])()


def random_f64_statements(rng, depth, indent, loops=True):
    """Random statements over f64 locals `t0`..`t3` (and `k`, an int): assignments,
    `if`/`else`, loops of a constant or run-time count carrying a local, a `break`."""
    out, pad = [], "    " * indent
    for _ in range(rng.randrange(1, 4)):
        r = rng.random()
        if r < 0.5 or depth == 0:
            out.append(pad + "%s = math.tanh(%s)" % (rng.choice(LOCALS), random_f64_expression(rng, 2)))
        elif r < 0.75:
            out.append(pad + "if %s > %s:" % (random_f64_expression(rng, 1), random_f64_expression(rng, 1)))
            out += random_f64_statements(rng, depth - 1, indent + 1, loops)
            if rng.random() < 0.6:
                out.append(pad + "else:")
                out += random_f64_statements(rng, depth - 1, indent + 1, loops)
        elif loops:
            v = rng.choice(LOCALS)
            out.append(pad + "for k in range(%s):" % rng.choice(["2", "3", "len(x) // 4"]))
            out.append(pad + "    %s = %s * 0.5 + math.sin(%s) * f64(k + 1)" % (v, v, random_f64_expression(rng, 1)))
            out += random_f64_statements(rng, depth - 1, indent + 1, False)
            if rng.random() < 0.3:
                out.append(pad + "    if %s > %s:" % (random_f64_expression(rng, 1), random_f64_expression(rng, 1)))
                out.append(pad + "        break")
        else:
            out.append(pad + "%s = %s + 0.25" % (rng.choice(LOCALS), rng.choice(LOCALS)))
    return out


def differentiate_randomly(test, bodies, name, in_place=False, prelude=(), names=None, dtype="f32"):
    """Kernels of the bodies (over `a = x[i]`, `b = z[i]`, giving `out`, stored to `y[i]`,
    or ``in_place`` to `x[i]`): each one's tape gradient against central differences of
    the same body run by Python in float64, where the f32 forward took the same branches
    and the differences are stable (no kink within the step). ``prelude``: lines of the
    kernels' file before them, ``names``: what the Python twin has for them; ``dtype``
    "f64": the arrays and the kernels' values are f64, and the gradients must agree to
    1e-6 instead of 2e-3. Returns how many gradients were compared."""
    folder = tempfile.mkdtemp(prefix="spirthon-grad-random-")
    lines = ["import math", "from spirthon import *", ""] + list(prelude)
    params, store = ("x: Array[f32], z: Array[f32]", "x") if in_place else ("x: Array[f32], z: Array[f32], y: Array[f32]", "y")
    params = params.replace("f32", dtype)
    wide = dtype == "f64"
    npt = np.float64 if wide else np.float32
    for k, body in enumerate(bodies):
        lines += ["@kernel", "def r%d(%s):" % (k, params), "    i = global_id().x",
                  "    a = x[i]", "    b = z[i]"] + ["    " + l for l in body] + ["    %s[i] = out" % store, ""]
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write("\n".join(lines))
    sys.path.insert(0, folder)
    try:
        mod = importlib.import_module(name)
    finally:
        sys.path.remove(folder)
    nrng = np.random.default_rng(29)
    checked = 0
    for k, body in enumerate(bodies):
        ns = {"math": math, "clamp": lambda x, lo, hi: min(max(x, lo), hi), "vec2": _vec(2), "vec3": _vec(3),
              "dot": lambda p, q: float(np.dot(p, q)), "length": lambda p: float(np.linalg.norm(p)), "x": [0.0] * 8,
              "local_array": lambda t, n: [0.0] * n, "f32": float, "f64": float,
              "smoothstep": lambda e0, e1, v: (lambda u: u * u * (3.0 - 2.0 * u))(min(max((v - e0) / (e1 - e0), 0.0), 1.0))}
        ns.update(names or {})
        exec("def f(a, b):\n" + "\n".join("    " + l for l in body) + "\n    return out\n", ns)
        f = ns["f"]
        x0 = nrng.uniform(-1.5, 1.5, 8).astype(npt)
        z0 = nrng.uniform(-1.5, 1.5, 8).astype(npt)

        def run():
            x, z = spirthon.array(x0, requires_grad=True), spirthon.array(z0, requires_grad=True)
            y = x if in_place else spirthon.zeros(8, f64 if wide else f32)
            with Tape() as tape:
                getattr(mod, "r%d" % k).launch(8, *((x, z) if in_place else (x, z, y)))
            tape.backward(grads={y: np.ones(8, npt)})
            return x.grad.numpy(), z.grad.numpy(), y.numpy()

        for gx, gz, y in on_both(run):
            for i in range(8):
                a, b = float(x0[i]), float(z0[i])
                if abs(y[i] - f(a, b)) > 1e-4 * max(1.0, abs(f(a, b))):
                    continue  # the f32 forward took another branch
                for got, d in ((gx[i], (1, 0)), (gz[i], (0, 1))):
                    fd = [(f(a + s * d[0], b + s * d[1]) - f(a - s * d[0], b - s * d[1])) / (2 * s) for s in (1e-7, 3e-7)]
                    if abs(fd[0] - fd[1]) > 1e-3 * max(1.0, abs(fd[0])):
                        continue  # a kink within the step
                    test.assertLess(abs(got - fd[0]), (1e-6 if wide else 2e-3) * max(1.0, abs(fd[0])), "\n".join(body) + "\nat a=%r b=%r" % (a, b))
                    checked += 1
    return checked


@kernel
def edges(x: Array[f32], z: Array[f32], y: Array[f32]):
    i = global_id().x
    a = x[i]
    b = z[i]
    y[i] = math.sqrt(a * a) + math.hypot(a, b) + math.atan2(a, b)


class Edges(unittest.TestCase):
    def test_zero_adjoints_where_there_is_no_derivative(self):
        # sqrt at 0, hypot and atan2 at the origin: a zero adjoint on both devices (the
        # python device would raise dividing by zero; the GPU would give inf or nan).
        def run():
            x, z = spirthon.array(np.float32([0.0, 3.0]), requires_grad=True), spirthon.array(np.float32([0.0, 4.0]), requires_grad=True)
            y = spirthon.zeros(2)
            with Tape() as tape:
                edges.launch(2, x, z, y)
            tape.backward(grads={y: np.ones(2, np.float32)})
            return x.grad.numpy(), z.grad.numpy()

        for gx, gz in on_both(run):
            # at (3, 4): 1 + 3/5 + 4/25 and 4/5 - 3/25
            np.testing.assert_allclose(gx, [0.0, 1.0 + 0.6 + 0.16], rtol=1e-6)
            np.testing.assert_allclose(gz, [0.0, 0.8 - 0.12], rtol=1e-6)


class Long(unittest.TestCase):
    def test_long_chains_of_leaves(self):
        # 150 guards in a row at a kernel's top level, 150 nested continues in a loop, 40
        # early returns in a func: taken flat (as flags), not as 150 nested branches (which
        # no indentation allows); none of them is taken here, so each gradient is 1.0001**n.
        n = 150
        lines = ["from spirthon import *", "", "@func", "def capped(v: f32) -> f32:"]
        lines += ["    if v > %d.5:\n        return v\n    v = v * 1.0001" % (k + 100) for k in range(40)]
        lines += ["    return v", "", "@kernel", "def guards(x: Array[f32], y: Array[f32]):", "    i = global_id().x",
                  "    v = capped(x[i])"]
        lines += ["    if v > %d.5:\n        y[i] = v\n        return\n    v = v * 1.0001" % (k + 100) for k in range(n)]
        lines += ["    y[i] = v", "", "@kernel", "def skips(x: Array[f32], y: Array[f32]):", "    i = global_id().x",
                  "    v = x[i]", "    for j in range(2):"]
        lines += ["        if v > %d.5:\n            if v > 0.0:\n                continue\n        v = v * 1.0001" % (k + 100) for k in range(n)]
        lines += ["    y[i] = v", ""]
        folder = tempfile.mkdtemp(prefix="spirthon-grad-long-")
        with open(os.path.join(folder, "grad_long.py"), "w") as f:
            f.write("\n".join(lines))
        sys.path.insert(0, folder)
        try:
            mod = importlib.import_module("grad_long")
        finally:
            sys.path.remove(folder)
        for kern, power in ((mod.guards, 40 + n), (mod.skips, 2 * n)):
            def run():
                x = spirthon.array(np.float32([1.0, 2.0]), requires_grad=True)
                y = spirthon.zeros(2)
                with Tape() as tape:
                    kern.launch(2, x, y)
                tape.backward(grads={y: np.ones(2, np.float32)})
                return x.grad.numpy()

            for grad in on_both(run):
                np.testing.assert_allclose(grad, [1.0001 ** power] * 2, rtol=1e-4)


class Threads(unittest.TestCase):
    def test_tapes_on_four_threads_at_once(self):
        # Four threads differentiate kernels of a file no adjoint was taken of yet (its
        # parse slowed, so that the others ask for it meanwhile), each through a tape of
        # its own that copies an array it overwrites: the serial gradients, every time.
        import threading
        import time
        from spirthon.autodiff import linear
        folder = tempfile.mkdtemp(prefix="spirthon-grad-threads-")
        text = "from spirthon import *\n\n" + "".join(
            "@kernel\ndef p%d(x: Array[f32], y: Array[f32]):\n    i = global_id().x\n    y[i] = x[i] ** %d\n\n\n" % (k, k + 2)
            for k in range(4))
        with open(os.path.join(folder, "grad_threads.py"), "w") as f:
            f.write(text)
        sys.path.insert(0, folder)
        try:
            mod = importlib.import_module("grad_threads")
        finally:
            sys.path.remove(folder)
        x0 = np.float32([0.5, 1.5, -1.25])
        grads, errors = {}, []

        def body(k):
            try:
                x = spirthon.array(x0, requires_grad=True)
                y = spirthon.zeros(3)
                with Tape() as tape:
                    getattr(mod, "p%d" % k).launch(3, x, y)
                    getattr(mod, "p%d" % k).launch(3, y, x)  # x overwritten: kept for the first
                tape.backward(grads={x: np.ones(3, np.float32)})
                grads[k] = x.grad.numpy()
            except BaseException as e:  # noqa: B902 (reported below)
                errors.append(e)

        real = linear.ast.parse
        linear.ast.parse = lambda *a, **kw: (time.sleep(0.05), real(*a, **kw))[1]
        try:
            ts = [threading.Thread(target=body, args=(k,)) for k in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        finally:
            linear.ast.parse = real
        self.assertEqual(errors, [])
        for k in range(4):
            n = k + 2  # x -> x ** n -> x ** (n * n)
            np.testing.assert_allclose(grads[k], n * n * x0.astype(np.float64) ** (n * n - 1), rtol=1e-5)


class Random(unittest.TestCase):
    """Random expressions (seeded): the tape's gradient against central differences of the
    same expression evaluated by Python in float64, where the f32 forward took the same
    branches and the differences are stable (no kink within the step)."""

    def test_random_expressions(self):
        import random
        rng = random.Random(29)
        bodies = [["out = %s" % random_expression(rng, 4)] for _ in range(24)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_expressions"), 300)

    def test_random_statements(self):
        # Branches, constant-count loops carrying locals, reassignments.
        import random
        rng = random.Random(31)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1"] + random_statements(rng, 2, 0)
                  + ["out = t0 + t1 * 0.5 + t2 * t3"] for _ in range(16)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_statements"), 200)

    def test_random_statements_over_vector_locals(self):
        # Vector locals whose components are assigned and updated in place (the class of
        # gradients other differentiators get wrong), through branches and loops, crossed,
        # normalized and swizzled.
        import random
        rng = random.Random(53)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1", "v0 = vec3(a, b, 0.5)", "v1 = vec3(b * 0.5, 0.25, a)"]
                  + random_vector_statements(rng, 2, 0)
                  + ["out = t0 + t1 * 0.5 + t2 * t3 + dot(v0, vec3(0.3, -0.2, 0.5)) + v1.x * v1.y - v1.z"] for _ in range(12)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_vectors", names=VEC3_TWINS), 300)

    def test_random_f64_statements(self):
        # The same kind of bodies in f64 (branches, loops carrying locals, min/max/abs,
        # a round trip through f32), agreeing with float64 central differences to 1e-6.
        import random
        rng = random.Random(59)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3: f64 = 0.5", "k = 1"] + random_f64_statements(rng, 2, 0)
                  + ["out = t0 + t1 * 0.5 + t2 * t3"] for _ in range(16)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_f64", dtype="f64"), 200)

    def test_random_statements_over_dvec_locals(self):
        # The same over dvec3 locals and f64 values, to 1e-6.
        import random
        rng = random.Random(61)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3: f64 = 0.5", "k = 1", "v0 = dvec3(a, b, 0.5)", "v1 = dvec3(b * 0.5, 0.25, a)"]
                  + random_vector_statements(rng, 2, 0, wide=True)
                  + ["out = t0 + t1 * 0.5 + t2 * t3 + dot(v0, dvec3(0.3, -0.2, 0.5)) + v1.x * v1.y - v1.z"] for _ in range(12)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_dvecs", names=VEC3_TWINS, dtype="f64"), 300)

    def test_random_statements_with_a_local_array(self):
        # The same kind of bodies, also accumulating into a local array (`+=` and `-=` in
        # branches and loops, the replays inside the reverse reading what the first left).
        import random
        rng = random.Random(41)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1", "acc = local_array(f32, 4)"]
                  + random_statements(rng, 2, 0, memory={"read": False})
                  + ["out = t0 + t1 * 0.5 + t2 * t3 + acc[0] * acc[1] + math.sin(acc[2]) - acc[3] * acc[k % 4]"]
                  for _ in range(24)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_local_array"), 300)

    def test_random_statements_over_a_struct_local(self):
        # The same kind of bodies with three of the locals fields of a struct local
        # (`s.a`, `s.b`, `s.c`: assigned, updated in place, carried by loops, merged by
        # branches), the struct sometimes passed through a func that copies it and assigns
        # its fields, an int field counting the calls.
        import random
        import re
        import types
        rng = random.Random(43)
        prelude = ["@struct", "class Trio:", "    a: f32", "    b: f32", "    c: f32", "    n: i32", "",
                   "@func", "def bump(p: Trio) -> Trio:", "    q = p", "    q.b = q.b * 0.5 + math.sin(q.a)",
                   "    q.n += 1", "    return q", ""]

        def bump(p):
            return types.SimpleNamespace(a=p.a, b=p.b * 0.5 + math.sin(p.a), c=p.c, n=p.n + 1)

        names = {"Trio": lambda a, b, c, n: types.SimpleNamespace(a=a, b=b, c=c, n=n), "bump": bump}
        bodies = []
        for _ in range(16):
            body = ["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1"] + random_statements(rng, 2, 0) \
                + ["out = t0 + t1 * 0.5 + t2 * t3"]
            body = [re.sub(r"\bt([012])\b", lambda m: "s." + "abc"[int(m.group(1))], line) for line in body]
            for _ in range(2):
                at = rng.randrange(3, len(body))
                if not body[at].startswith((" ", "else")):
                    body.insert(at, "s = bump(s)")
            bodies.append(["s = Trio(0.0, 0.0, 0.0, 0)"] + body + ["out = out + float(s.n) * 0.125"])
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_struct", prelude=prelude, names=names), 200)

    def test_random_linear_updates_of_a_local_array(self):
        # A local array read before it is written again (`acc[a] += acc[b] * c`, in loops
        # and branches, as a tree reduction does): allowed where no value read from it is
        # needed, each value only added into it and the result a sum of its elements.
        import random
        rng = random.Random(47)
        bodies = []
        for _ in range(16):
            body = ["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1", "acc = local_array(f32, 4)",
                    "acc[0] = t0", "acc[1] = t1 * t1", "acc[2] = math.sin(t2)", "acc[3] = 0.25"]
            body += random_statements(rng, 1, 0)
            for _ in range(rng.randrange(2, 6)):
                a, b = rng.randrange(4), rng.randrange(4)
                update = "acc[%d] %s acc[%d] * %s" % (a, rng.choice(["+=", "-="]), b, rng.choice(["0.5", "-0.25", "1.5"]))
                r = rng.random()
                if r < 0.3:
                    body += ["for k in range(%d):" % rng.randrange(1, 4), "    " + update.replace("acc[%d] *" % b, "acc[(k + %d) %% 4] *" % b)]
                elif r < 0.5:
                    body += ["if t0 > t1:", "    " + update, "else:", "    acc[%d] += t2" % a]
                else:
                    body.append(update)
            body.append("out = t0 + t1 * 0.5 + t2 * t3 + acc[0] - acc[1] * 0.5 + acc[2] + acc[3] * 2.0")
            bodies.append(body)
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_linear_local"), 200)

    def test_random_statements_in_place(self):
        # The same kind of bodies, storing the result over the element they read: the tape
        # keeps the array as the launch found it.
        import random
        rng = random.Random(37)
        bodies = [["t0 = a", "t1 = b", "t2 = a * b", "t3 = 0.5", "k = 1"] + random_statements(rng, 2, 0)
                  + ["out = t0 + t1 * 0.5 + t2 * t3"] for _ in range(12)]
        self.assertGreater(differentiate_randomly(self, bodies, "grad_random_in_place", in_place=True), 150)


# ----- kernels with control flow, loops, funcs and atomics

STEPS = 6


@func
def spring_force(a: vec3, b: vec3, rest: f32) -> vec3:
    d = b - a
    n = length(d)
    return d * ((n - rest) / n)


@kernel
def flow(x: Array[f32], y: Array[f32], n: int, gain: f32):
    i = global_id().x
    if i >= n:
        return
    v = x[i]
    w = math.sin(v) * gain + v * v
    if v > 0.25:
        w = w * 2.0
    elif v < -0.5:
        w = -w
    else:
        w = w / (1.0 + v * v)
    acc = 0.0
    for k in range(STEPS):
        acc = acc * v + math.exp(-acc) + float(k)
    total = 0.0
    for j in range(n):  # a trip count known at run time: an accumulator only
        total += x[j] * float(j - i)
    y[i] = w + acc + 0.01 * total


def flow_f64(x, gain):
    n = len(x)
    out = np.zeros(n)
    for i, v in enumerate(x):
        w = math.sin(v) * gain + v * v
        w = w * 2 if v > 0.25 else -w if v < -0.5 else w / (1 + v * v)
        acc = 0.0
        for k in range(STEPS):
            acc = acc * v + math.exp(-acc) + k
        total = sum(x[j] * (j - i) for j in range(n))
        out[i] = w + acc + 0.01 * total
    return out


@kernel
def chain(p: Array[vec3], force: Array[vec3], n: int):
    i = global_id().x
    if i < n - 1:
        a = p[i]
        f = spring_force(a, p[i + 1], 0.5)
        f.y += 0.25 * a.x  # a reassigned component
        atomic_add(force, i, f)
        atomic_add(force, i + 1, -f)


def chain_f64(p):
    f = np.zeros_like(p)
    for i in range(len(p) - 1):
        d = p[i + 1] - p[i]
        g = d * ((np.linalg.norm(d) - 0.5) / np.linalg.norm(d))
        g[1] += 0.25 * p[i][0]
        f[i] += g
        f[i + 1] -= g
    return f


@kernel
def integrate(x: Array[vec3], v: Array[vec3], f: Array[vec3], x_out: Array[vec3], v_out: Array[vec3], dt: f32):
    i = global_id().x
    vn = v[i] + f[i] * dt + vec3(0.0, -9.8, 0.0) * dt
    v_out[i] = vn
    x_out[i] = x[i] + vn * dt


@kernel
def energy(x: Array[vec3], target: vec3, loss: Array[f32]):
    i = global_id().x
    d = x[i] - target
    atomic_add(loss, 0, dot(d, d))


@kernel(workgroup_size=64)
def mirrored(x: Array[f32], y: Array[f32]):
    # A workgroup's values through shared memory: written, a barrier, read by others.
    tile = shared_array(f32, 64)
    l = local_index()
    g = global_id().x
    tile[l] = math.sin(x[g])
    barrier()
    y[g] = tile[63 - l] * tile[l] + tile[(l + 1) % 64]


def mirrored_f64(x):
    t = np.sin(x).reshape(-1, 64)
    return (t[:, ::-1] * t + np.roll(t, -1, axis=1)).reshape(-1)


@kernel
def table(x: Array[f32], y: Array[f32]):
    # A per-invocation table: filled in one loop, read in another.
    i = global_id().x
    buf = local_array(f32, 8)
    for k in range(8):
        buf[k] = x[i] * float(k) + 1.0
    s = 0.0
    for k in range(8):
        s = s + buf[7 - k] * buf[k]
    y[i] = s


def table_f64(x):
    buf = x[:, None] * np.arange(8)[None, :] + 1.0
    return np.sum(buf[:, ::-1] * buf, axis=1)


# Taichi's diffmpm (2-D MLS-MPM: particles to grid, the grid's velocities, grid to
# particles), ported as its users write it: quadratic weights in a local array of vec2s,
# mat22 deformation gradients and affine momenta, vec2 atomics onto the grid.

MPM_GRID = 32
MPM_DX = 1.0 / 32.0
MPM_INV_DX = 32.0
MPM_DT = 4e-3
MPM_VOL = 1.0
MPM_MASS = 1.0
MPM_E = 10.0
MPM_BOUND = 3


@func
def mpm_weights(fx: vec2, w: Array[vec2]):
    # The quadratic B-spline weights of the 3 x 3 cells around a particle.
    w[0] = vec2(0.5) * (vec2(1.5) - fx) * (vec2(1.5) - fx)
    w[1] = vec2(0.75) - (fx - vec2(1.0)) * (fx - vec2(1.0))
    w[2] = vec2(0.5) * (fx - vec2(0.5)) * (fx - vec2(0.5))


@kernel
def mpm_p2g(x: Array[vec2], v: Array[vec2], C: Array[mat22], F: Array[mat22], F_out: Array[mat22],
        grid_v: Array[vec2], grid_m: Array[f32]):
    p = global_id().x
    xp = x[p] * MPM_INV_DX
    bx = int(xp.x - 0.5)
    by = int(xp.y - 0.5)
    fx = xp - vec2(float(bx), float(by))
    w = local_array(vec2, 3)
    mpm_weights(fx, w)
    new_F = (identity(2) + MPM_DT * C[p]) @ F[p]
    F_out[p] = new_F
    cauchy = MPM_E * (new_F @ transpose(new_F)) - identity(2) * MPM_E
    stress = -(MPM_DT * MPM_VOL * 4.0 * MPM_INV_DX * MPM_INV_DX) * cauchy
    affine = stress + MPM_MASS * C[p]
    for i in range(3):
        for j in range(3):
            dpos = (vec2(float(i), float(j)) - fx) * MPM_DX
            weight = w[i].x * w[j].y
            cell = (bx + i) * MPM_GRID + by + j
            atomic_add(grid_v, cell, weight * (MPM_MASS * v[p] + affine @ dpos))
            atomic_add(grid_m, cell, weight * MPM_MASS)


@kernel
def mpm_grid(grid_v: Array[vec2], grid_m: Array[f32], grid_out: Array[vec2]):
    k = global_id().x
    i = k // MPM_GRID
    j = k % MPM_GRID
    inv_m = 1.0 / (grid_m[k] + 1e-10)
    vel = inv_m * grid_v[k] + MPM_DT * vec2(0.0, -9.8)
    if i < MPM_BOUND and vel.x < 0.0:
        vel.x = 0.0
    if i > MPM_GRID - MPM_BOUND and vel.x > 0.0:
        vel.x = 0.0
    if j < MPM_BOUND and vel.y < 0.0:
        vel.y = 0.0
    if j > MPM_GRID - MPM_BOUND and vel.y > 0.0:
        vel.y = 0.0
    grid_out[k] = vel


@kernel
def mpm_g2p(x: Array[vec2], grid_v: Array[vec2], x_out: Array[vec2], v_out: Array[vec2], C_out: Array[mat22]):
    p = global_id().x
    xp = x[p] * MPM_INV_DX
    bx = int(xp.x - 0.5)
    by = int(xp.y - 0.5)
    fx = xp - vec2(float(bx), float(by))
    w = local_array(vec2, 3)
    mpm_weights(fx, w)
    new_v = vec2(0.0)
    new_C = mat22(0.0, 0.0, 0.0, 0.0)
    for i in range(3):
        for j in range(3):
            dpos = vec2(float(i), float(j)) - fx
            gv = grid_v[(bx + i) * MPM_GRID + by + j]
            weight = w[i].x * w[j].y
            new_v = new_v + weight * gv
            new_C = new_C + 4.0 * weight * outer(gv, dpos) * MPM_INV_DX
    v_out[p] = new_v
    C_out[p] = new_C
    x_out[p] = x[p] + MPM_DT * new_v


@kernel
def mpm_loss(x: Array[vec2], loss: Array[f32]):
    p = global_id().x
    d = x[p] - vec2(0.45, 0.42)
    atomic_add(loss, 0, dot(d, d) / float(len(x)))


HIDDEN = 4


@func
def dense(x: Array[f32], w: Array[f32], i: i32) -> f32:
    # A small dense layer per invocation: a local array accumulated with `+=` in a loop
    # nest, then read; an int counter updated in place beside it.
    h = local_array(f32, HIDDEN)
    big = local_array(i32, 1)
    for j in range(HIDDEN):
        for k in range(3):
            h[j] += w[j * 3 + k] * x[i * 3 + k]
        h[j] -= 0.25
    s = 0.0
    for j in range(HIDDEN):
        s += math.tanh(h[j])
    for j in range(HIDDEN):
        if h[j] > 0.0:
            big[0] += 1
    return s * float(big[0] + 1)


@kernel
def layer(x: Array[f32], w: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = dense(x, w, i)


@kernel
def guarded_layer(x: Array[f32], w: Array[f32], y: Array[f32]):
    # The same layer behind a guard: the rest of the kernel is the guard's other branch,
    # which fills its local arrays, and which the adjoint replays once (in its reverse).
    i = global_id().x
    if i >= len(y):
        return
    y[i] = dense(x, w, i)


def layer_f64(x, w):
    h = x.reshape(-1, 3) @ w.reshape(HIDDEN, 3).T - 0.25
    return np.sum(np.tanh(h), axis=1) * (np.sum(h > 0.0, axis=1) + 1)


@kernel
def scratch(x: Array[f32], y: Array[f32]):
    # A local array made in a loop's body, written and read there: new each iteration.
    i = global_id().x
    s = 0.0
    for t in range(3):
        tmp = local_array(f32, 2)
        tmp[0] = x[i] * float(t + 1)
        tmp[1] += x[i] * x[i]
        tmp[1] -= 0.5
        s += tmp[0] * tmp[1]
    y[i] = s


def scratch_f64(x):
    return sum(x * (t + 1) * (x * x - 0.5) for t in range(3))


@kernel(workgroup_size=64)
def pooled(x: Array[f32], y: Array[f32]):
    # A shared array accumulated in a branch, then read by others after a barrier.
    tile = shared_array(f32, 64)
    l = local_index()
    g = global_id().x
    tile[l] = x[g]
    if x[g] > 0.0:
        tile[l] += x[g] * x[g]
        y[g] = tile[l] * x[g]
    barrier()
    y[g] += tile[63 - l] * 0.5


@kernel(workgroup_size=64)
def group_sums(x: Array[f32], y: Array[f32]):
    # Sums by atomics into a shared array (floats, and an int count beside them), read by
    # every invocation after a barrier.
    total = shared_array(f32, 2)
    count = shared_array(i32, 1)
    l = local_index()
    g = global_id().x
    if l < 2:
        total[l] = 0.0
        count[0] = 0
    barrier()
    atomic_add(total, l % 2, x[g] * x[g])
    atomic_sub(total, 1, x[g] * 0.5)
    atomic_add(count, 0, 1)
    barrier()
    y[g] = total[l % 2] * x[g] / float(count[0])


def group_sums_f64(x):
    t = x.reshape(-1, 64)
    even, odd = np.sum(t[:, ::2] ** 2, axis=1), np.sum(t[:, 1::2] ** 2, axis=1) - 0.5 * np.sum(t, axis=1)
    return (np.where(np.arange(64) % 2 == 0, even[:, None], odd[:, None]) * t / 64.0).reshape(-1)


def pooled_f64(x):
    t = np.where(x > 0.0, x + x * x, x).reshape(-1, 64)
    return (np.where(x.reshape(-1, 64) > 0.0, t * x.reshape(-1, 64), 0.0) + t[:, ::-1] * 0.5).reshape(-1)


@func
def clipped_sqrt_grad(x: f32, k: f32, g: f32) -> tuple[f32, f32]:
    # The adjoint the func gives itself: finite at 0, where the square root's is not.
    return g * k * 0.5 / math.sqrt(max(x, 1e-4)), g * math.sqrt(max(x, 0.0))


@func(grad=clipped_sqrt_grad)
def clipped_sqrt(x: f32, k: f32) -> f32:
    return math.sqrt(max(x, 0.0)) * k


@func
def squared_grad(v: vec3, g: f32) -> vec3:
    return v * (2.0 * g)


@func(grad=squared_grad)
def squared(v: vec3) -> f32:
    return dot(v, v)


@kernel
def own_adjoints(x: Array[f32], p: Array[vec3], k: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = clipped_sqrt(x[i], k[i]) + squared(p[i]) * 0.5


@kernel
def neighbours(x: Array[f32], y: Array[f32], n: int):
    # A loop over a run-time count with `continue`s: its sums are accumulators, int or float.
    i = global_id().x
    if i >= n:
        return
    s = 0.0
    count = 0
    for j in range(n):
        if j == i:
            continue
        d = x[j] - x[i]
        if abs(d) > 0.8:
            continue
        s = s + d * d * math.exp(-d)
        count += 1
    y[i] = s / float(max(count, 1))


def neighbours_f64(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        d = np.delete(x, i) - x[i]
        d = d[np.abs(d) <= 0.8]
        out[i] = np.sum(d * d * np.exp(-d)) / max(len(d), 1)
    return out


@kernel
def matrices(p: Array[vec3], q: Array[vec3], out: Array[vec3], s: Array[f32]):
    i = global_id().x
    a = p[i]
    b = q[i]
    m = mat33(a, b, cross(a, b) + vec3(0.5, 0.0, 1.0))
    n = outer(a, b) * 0.5 + identity(3) * 2.0
    r = (m @ n) @ a + b @ transpose(m) - inverse(n) @ b
    out[i] = r * determinant(m) + vec3(m[1, 2], m[0][1], m[2, -3]) / 3.0
    k = mat22(a.x, a.y, b.z, 1.5)
    s[i] = determinant(k) + (k @ vec2(b.x, b.y)).y / 2.0


def matrices_f64(p, q, w, ws):
    total = 0.0
    for i in range(len(p)):
        a, b = p[i], q[i]
        m = np.stack([a, b, np.cross(a, b) + [0.5, 0, 1]])
        n = np.outer(a, b) * 0.5 + np.eye(3) * 2
        r = (m @ n) @ a + b @ m.T - np.linalg.inv(n) @ b
        o = r * np.linalg.det(m) + np.array([m[1, 2], m[0, 1], m[2, 0]]) / 3
        k = np.array([[a[0], a[1]], [b[2], 1.5]])
        total += np.sum(w[i] * o) + ws[i] * (np.linalg.det(k) + (k @ b[:2])[1] / 2)
    return total


@kernel
def rotations(q: Array[quat], v: Array[vec3], angle: Array[f32], frames: Array[mat33], out: Array[vec3], m: Array[f32]):
    i = global_id().x
    a = normalize(q[i])
    r = quat_from_axis_angle(normalize(v[i]), angle[i])
    c = a * r * 1.5 + quat_inverse(r) - quat(v[i], 0.5)
    w = quat_rotate(c, v[i]) + quat_rotate_inv(a, vec3(c.x, 1.0, c.w))
    out[i] = quat_to_matrix(c) @ w + w * length(c) + c.xyz * dot(a, r) + frames[i] @ v[i]
    m[i] = quat_to_matrix(a)[1, 2] * frames[i][0, 1]


def _hamilton(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + bw * ax + ay * bz - by * az, aw * by + bw * ay + az * bx - bz * ax,
                     aw * bz + bw * az + ax * by - bx * ay, aw * bw - ax * bx - ay * by - az * bz])


def _rotate(q, x, sign=1):
    u, w = q[:3], q[3]
    return x * (2 * w * w - 1) + sign * np.cross(u, x) * w * 2 + u * np.dot(u, x) * 2


def rotations_f64(q, v, angle, frames, w, wm):
    to_matrix = lambda c: np.stack([_rotate(c, e) for e in np.eye(3)], axis=1)
    total = 0.0
    for i in range(len(q)):
        a = q[i] / np.linalg.norm(q[i])
        h = angle[i] * 0.5
        r = np.concatenate([v[i] / np.linalg.norm(v[i]) * np.sin(h), [np.cos(h)]])
        c = _hamilton(a, r) * 1.5 + r * [-1, -1, -1, 1] - np.concatenate([v[i], [0.5]])
        x = _rotate(c, v[i]) + _rotate(a, np.array([c[0], 1.0, c[3]]), -1)
        o = to_matrix(c) @ x + x * np.linalg.norm(c) + c[:3] * np.dot(a, r) + frames[i] @ v[i]
        total += np.sum(w[i] * o) + wm[i] * to_matrix(a)[1, 2] * frames[i][0, 1]
    return total


@kernel(workgroup_size=32)
def lanes(x: Array[f32], pre: Array[f32], loss: Array[f32]):
    # Subgroup sums, scans and broadcasts: their adjoints are subgroup sums.
    i = global_id().x
    v = math.sin(x[i]) * x[i]
    s = subgroup_add(v * v)
    c = subgroup_inclusive_add(v) + 0.5 * subgroup_exclusive_add(v * 2.0)
    b = subgroup_broadcast(v, 3) + subgroup_broadcast_first(v * 3.0)
    pre[i] = c * b
    if subgroup_elect():
        atomic_add(loss, 0, s)


def lanes_f64(x, w, size):
    v = np.sin(x) * x
    total = 0.0
    for g in range(0, len(x), size):
        u = v[g:g + size]
        c = np.cumsum(u) + 0.5 * (np.cumsum(u * 2) - u * 2)
        total += np.sum(u * u) + np.sum(w[g:g + size] * c * (u[3] + u[0] * 3))
    return total


@kernel(workgroup_size=32)
def lane_extremes(x: Array[f32], y: Array[f32]):
    # A softmax over the subgroup (its maximum subtracted), a minimum of vectors, a
    # butterfly of shuffles, shifts: each lane's adjoint from subgroup operations.
    i = global_id().x
    v = x[i]
    e = math.exp(v - subgroup_max(v))
    lo = subgroup_min(vec2(v, v * v))
    u = v * v
    for k in range(3):
        u = u + subgroup_shuffle_xor(u, 1 << k) * 0.5
    d = subgroup_shuffle_down(v, 1) * subgroup_shuffle_up(v * v, 2)
    y[i] = e / subgroup_add(e) + lo.x * v + lo.y + u * v + d


def lane_extremes_f64(x, size):
    out = np.zeros_like(x)
    for g in range(0, len(x), size):
        v = x[g:g + size]
        e = np.exp(v - np.max(v))
        u = v * v
        for n in (1, 2, 4):
            u = u + 0.5 * u[[l ^ n if l ^ n < size else l for l in range(size)]]
        down = v[[l + 1 if l + 1 < size else l for l in range(size)]]
        up = (v * v)[[l - 2 if l >= 2 else l for l in range(size)]]
        out[g:g + size] = e / np.sum(e) + np.min(v) * v + np.min(v * v) + u * v + down * up
    return out


class Programs(unittest.TestCase):
    rng = np.random.default_rng(3)

    def on_both_lanes(self, run):
        """``run()`` on both devices, the executor's subgroups of the device's size: (the
        size, the results)."""
        size = spirthon.gpu._current().native.subgroup_size()
        if size is None or size < 4:
            self.skipTest("the device's subgroup size varies by kernel (or is under 4)")
        spirthon.set_subgroup_size(size)
        try:
            return size, on_both(run)
        finally:
            spirthon.set_subgroup_size(None)

    def test_subgroup_extremes_and_shuffles(self):
        x0 = self.rng.uniform(-1, 1, 64).astype(np.float32)
        w = self.rng.uniform(-1, 1, 64).astype(np.float32)

        def run():
            x, y = spirthon.array(x0, requires_grad=True), spirthon.zeros(64)
            with Tape() as tape:
                lane_extremes.launch(64, x, y)
            tape.backward(grads={y: w})
            return y.numpy(), x.grad.numpy()

        size, got = self.on_both_lanes(run)
        want = central(lambda v: float(np.sum(w * lane_extremes_f64(v, size))), x0)
        for y, g in got:
            np.testing.assert_allclose(y, lane_extremes_f64(x0.astype(np.float64), size), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)))

    def test_subgroup_sums_scans_and_broadcasts(self):
        x0 = self.rng.uniform(-1, 1, 64).astype(np.float32)
        w = self.rng.uniform(-1, 1, 64).astype(np.float32)

        def run():
            x = spirthon.array(x0, requires_grad=True)
            pre, loss = spirthon.zeros(64), spirthon.zeros(1)
            with Tape() as tape:
                lanes.launch(64, x, pre, loss)
            tape.backward(grads={loss: np.ones(1, np.float32), pre: w})
            return x.grad.numpy()

        size, got = self.on_both_lanes(run)
        want = central(lambda v: lanes_f64(v, w, size), x0)
        for g in got:
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)))

    def test_quaternions_and_arrays_of_matrices(self):
        n = 5
        args = [self.rng.uniform(-1, 1, (n, 4)), self.rng.uniform(-1, 1, (n, 3)), self.rng.uniform(-2, 2, n),
                self.rng.uniform(-1, 1, (n, 3, 3))]
        args = [a.astype(np.float32) for a in args]
        w = self.rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        wm = self.rng.uniform(-1, 1, n).astype(np.float32)

        def run():
            ins = [spirthon.array(a, t, requires_grad=True) for a, t in zip(args, (quat, vec3, f32, mat33))]
            out, m = spirthon.zeros(n, vec3), spirthon.zeros(n)
            with Tape() as tape:
                rotations.launch(n, *ins, out, m)
            tape.backward(grads={out: w, m: wm})
            return [a.grad.numpy() for a in ins]

        for grads in on_both(run):
            for k, got in enumerate(grads):
                def f(x, k=k):
                    vals = [a.astype(np.float64) for a in args]
                    vals[k] = x
                    return rotations_f64(*vals, w, wm)
                want = central(f, args[k])
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)), err_msg=str(k))

    def test_two_dimensional_arrays_of_matrices_and_quats(self):
        # Their adjoints are flat f32 arrays (no atomics on matrices and quats), the
        # element at (r, c) at r * shape[1] + c.
        m0 = self.rng.uniform(-1, 1, (2, 3, 2, 2)).astype(np.float32)
        q0 = self.rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
        w = self.rng.uniform(-1, 1, 6).astype(np.float32)
        wo = self.rng.uniform(-1, 1, (2, 3, 2, 2)).astype(np.float32)

        def f64(m, q):
            out = []
            for r in range(2):
                for c in range(3):
                    v = m[r, c] @ np.array([1.0, 2.0])
                    out.append(v[0] * v[1] + _rotate(q[r, c], np.array([1.0, 0.0, 0.0]))[1])
            return float(np.dot(w, out)) + float(np.sum(wo * 3.0 * np.swapaxes(m, -1, -2)))

        def run():
            m = spirthon.array(m0, mat22, requires_grad=True)
            q = spirthon.array(q0, quat, requires_grad=True)
            y, o = spirthon.zeros(6), spirthon.zeros((2, 3), mat22)
            with Tape() as tape:
                grids.launch(6, m, q, y, o)
            tape.backward(grads={y: w, o: wo})
            return m.grad.numpy(), q.grad.numpy()

        want_m = central(lambda x: f64(x, q0.astype(np.float64)), m0)
        want_q = central(lambda x: f64(m0.astype(np.float64), x), q0)
        for gm, gq in on_both(run):
            np.testing.assert_allclose(gm, want_m, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gq, want_q, rtol=1e-4, atol=1e-4)

    def test_determinant_of_a_mat44(self):
        # Its adjoint is the cofactor matrix: det(m) * inverse(m) transposed, here.
        m0 = self.rng.uniform(-1, 1, (5, 4, 4)).astype(np.float32)

        def run():
            m = spirthon.array(m0, mat44, requires_grad=True)
            y = spirthon.zeros(5)
            with Tape() as tape:
                det44.launch(5, m, y)
            tape.backward(grads={y: np.ones(5, np.float32)})
            return y.numpy(), m.grad.numpy()

        m64 = m0.astype(np.float64)
        want = np.linalg.det(m64)[:, None, None] * np.swapaxes(np.linalg.inv(m64), -1, -2)
        for y, grad in on_both(run):
            np.testing.assert_allclose(y, np.linalg.det(m64), rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(grad, want, rtol=1e-4, atol=1e-5)

    def test_matrices(self):
        p0 = self.rng.uniform(-1, 1, (6, 3)).astype(np.float32)
        q0 = self.rng.uniform(-1, 1, (6, 3)).astype(np.float32)
        w = self.rng.uniform(-1, 1, (6, 3)).astype(np.float32)
        ws = self.rng.uniform(-1, 1, 6).astype(np.float32)

        def run():
            p = spirthon.array(p0, vec3, requires_grad=True)
            q = spirthon.array(q0, vec3, requires_grad=True)
            out, s = spirthon.zeros(6, vec3), spirthon.zeros(6)
            with Tape() as tape:
                matrices.launch(6, p, q, out, s)
            tape.backward(grads={out: w, s: ws})
            return p.grad.numpy(), q.grad.numpy()

        want_p = central(lambda v: matrices_f64(v, q0.astype(np.float64), w, ws), p0)
        want_q = central(lambda v: matrices_f64(p0.astype(np.float64), v, w, ws), q0)
        for gp, gq in on_both(run):
            np.testing.assert_allclose(gp, want_p, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gq, want_q, rtol=1e-4, atol=1e-4)

    def test_f64_matrices(self):
        # The same products, inverse, determinants, transposes and entries in dvec3/dmat33/
        # dmat22, with an Array[dmat33] that requires a gradient, to 1e-7.
        p0, q0 = self.rng.uniform(-1, 1, (6, 3)), self.rng.uniform(-1, 1, (6, 3))
        ms0 = self.rng.uniform(-1, 1, (6, 3, 3))
        w, ws = self.rng.uniform(-1, 1, (6, 3)), self.rng.uniform(-1, 1, 6)

        def run():
            p, q = spirthon.array(p0, dvec3, requires_grad=True), spirthon.array(q0, dvec3, requires_grad=True)
            ms = spirthon.array(ms0, dmat33, requires_grad=True)
            out, s = spirthon.zeros(6, dvec3), spirthon.zeros(6, f64)
            with Tape() as tape:
                dmatrices.launch(6, p, q, ms, out, s)
            tape.backward(grads={out: w, s: ws})
            return p.grad.numpy(), q.grad.numpy(), ms.grad.numpy()

        want = [central(lambda v: dmatrices_f64(v, q0, ms0, w, ws), p0), central(lambda v: dmatrices_f64(p0, v, ms0, w, ws), q0),
                central(lambda v: dmatrices_f64(p0, q0, v, w, ws), ms0)]
        for grads in on_both(run):
            for got, exp in zip(grads, want):
                self.assertEqual(got.dtype, np.float64)
                np.testing.assert_allclose(got, exp, rtol=1e-7, atol=1e-7)

    def test_run_time_loops_with_continue(self):
        x0 = self.rng.uniform(-1, 1, 20).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 20).astype(np.float32)

        def run():
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(20)
            with Tape() as tape:
                neighbours.launch(20, x, y, 20)
            tape.backward(grads={y: seed})
            return x.grad.numpy()

        want = central(lambda v: float(np.sum(seed * neighbours_f64(v))), x0)
        for got in on_both(run):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

    def test_loops_whose_carried_values_are_recomputed(self):
        # A run-time trip count reassigning what it carries, an accumulation reading
        # itself, an int it cannot keep (a u32 hash): the reverse restores each iteration's
        # values by replaying the loop from its entry.
        x0 = self.rng.uniform(-1, 1, 6).astype(np.float32)

        def f64s(x):
            v = x.copy()
            for _ in range(5):
                v = v * v * 0.5 + 0.25
            s = x.copy()
            for k in range(5):
                s = s + s * x[k] * 0.25
            h, w = 12345, x.copy()
            for k in range(6):
                h = h * 1103 % 2 ** 32
                w = w * 0.5 + float(h % 7)
            return v, s, w

        def run():
            x = spirthon.array(x0, requires_grad=True)
            outs = [spirthon.zeros(6) for _ in range(3)]
            with Tape() as tape:
                recomputed.launch(6, x, outs[0], outs[1], outs[2], 5, u32(12345))
            tape.backward(grads={o: np.ones(6, np.float32) for o in outs})
            return x.grad.numpy(), [o.numpy() for o in outs]

        want = central(lambda v: float(sum(np.sum(o) for o in f64s(v))), x0)
        for grad, outs in on_both(run):
            for got, w in zip(outs, f64s(x0.astype(np.float64))):
                np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(grad, want, rtol=1e-4, atol=1e-5)
        self.assertIn("for %s" % recomputed.adjoint.info.prefix, recomputed.adjoint_source)

    def test_while_loops_and_break(self):
        # A while loop that may also break, and a for loop that breaks (its variable read
        # after it): against central differences of the same code in float64.
        def grows(v):
            n = 0
            while v < 10.0:
                v = v * 1.5 + 0.25
                n += 1
                if n > 50:
                    break
            return v * n

        def first_over(s):
            k = 0
            for k in range(10):
                s = s * 1.2
                if s > 3.0:
                    s = s - 0.5
                    break
                s = s + 0.1
            return s * k

        x0 = np.float32([0.7, 1.3, 2.9, 5.5, 0.3, 0.05])
        for kern, f in ((grows_kernel, grows), (first_over_kernel, first_over)):
            elementwise_against_f64(kern, f, x0)

    def test_leaves_anywhere(self):
        # A return inside a loop inside a branch, a continue after it; nested loops leaving
        # from nested branches: taken as flags.
        def march(p):
            t = 0.0
            for k in range(20):
                d = p * p - 1.0 + t
                if d > 0.0:
                    if t > 0.5:
                        return p * t
                    t = t + 0.1
                    continue
                t = t + d * d
            return -p

        def nested(s):
            for a in range(4):
                for b in range(4):
                    if s > 2.0:
                        if b > 1:
                            break
                        s = s * 0.9
                        continue
                    s = s * 1.3 + 0.1
                if s > 5.0:
                    break
            return s

        x0 = np.float32([0.3, 0.9, 1.2, 1.7, 2.5, -0.4])
        for kern, f in ((march_kernel, march), (nested_kernel, nested)):
            elementwise_against_f64(kern, f, x0)

    def test_tuples_unpacked(self):
        # A func's tuple unpacked at the call, an array's shape unpacked.
        x0 = np.float32([[0.3, 0.4], [1.2, -0.9], [-0.5, 0.1], [2.0, 1.5]])

        def run():
            x, y = spirthon.array(x0, requires_grad=True), spirthon.zeros(4)
            with Tape() as tape:
                unpacked.launch(4, x, y)
            tape.backward(grads={y: np.ones(4, np.float32)})
            return y.numpy(), x.grad.numpy()

        want = central(lambda v: float(np.sum(unpacked_f64(v))), x0)
        for y, grad in on_both(run):
            np.testing.assert_allclose(y, unpacked_f64(x0.astype(np.float64)), rtol=1e-5)
            np.testing.assert_allclose(grad, want, rtol=1e-4, atol=1e-5)

    def test_float_and_or(self):
        # Where an operand is zero the other is taken, with its adjoint; elsewhere the
        # gradient is that of the operand taken (against central differences in float64).
        x0 = np.float32([0.5, 0.0, -1.5, 0.0, 2.0])
        z0 = np.float32([1.5, 2.0, 0.0, 0.0, -0.5])
        f = lambda a, b: (a or 2.0) * (b and a * 3.0) + (a * b or b or 0.5)

        def run():
            x, z, y = spirthon.array(x0, requires_grad=True), spirthon.array(z0, requires_grad=True), spirthon.zeros(5)
            with Tape() as tape:
                either.launch(5, x, z, y)
            tape.backward(grads={y: np.ones(5, np.float32)})
            return y.numpy(), x.grad.numpy(), z.grad.numpy()

        for y, gx, gz in on_both(run):
            np.testing.assert_allclose(y, [f(float(a), float(b)) for a, b in zip(x0, z0)], rtol=1e-6)
            # by hand where an operand is 0: at (0, 2): 2 * (0 * 3) + (0 or 2) -> dx = 2 * 3, dz = 1;
            # at (-1.5, 0): -1.5 * 0 + (0 or 0 or 0.5) -> dx = 0 (z is 0), dz = -1.5 * ... (z's own
            # `and` takes z: d/dz = -1.5) + (a * b is 0 and b is 0: the 0.5, nothing);
            # at (0, 0): 2 * 0 + 0.5 -> dx = 0, dz = 2.
            np.testing.assert_allclose(gx[[1, 2, 3]], [6.0, 0.0, 0.0])
            np.testing.assert_allclose(gz[[1, 2, 3]], [1.0, -1.5, 2.0])
            for k in (0, 4):
                a, b = float(x0[k]), float(z0[k])
                h = 1e-6
                np.testing.assert_allclose([gx[k], gz[k]], [(f(a + h, b) - f(a - h, b)) / (2 * h), (f(a, b + h) - f(a, b - h)) / (2 * h)], rtol=1e-5)

    def test_loops_over_constant_tuples(self):
        x0 = np.float32([0.3, -1.2, 0.8, 2.0, -0.4])

        def run():
            x, y = spirthon.array(x0, requires_grad=True), spirthon.zeros(5)
            with Tape() as tape:
                blurred.launch(5, x, y)
            tape.backward(grads={y: np.float32([1.0, -0.5, 2.0, 0.25, 1.5])})
            return y.numpy(), x.grad.numpy()

        want = central(lambda v: float(np.sum(np.float32([1.0, -0.5, 2.0, 0.25, 1.5]) * blurred_f64(v))), x0)
        for y, grad in on_both(run):
            np.testing.assert_allclose(y, blurred_f64(x0.astype(np.float64)), rtol=1e-5)
            np.testing.assert_allclose(grad, want, rtol=1e-4, atol=1e-5)

    def test_math_constants(self):
        # `math.pi`, `math.tau`, `math.e` read as the constants they are (SPH's kernels).
        elementwise_against_f64(math_constants, lambda v: 315.0 / (64.0 * math.pi) * v ** 3 + math.tau * v + math.e,
                                np.float32([0.5, -1.25, 2.0]))

    def test_funcs_that_return_early(self):
        # A guard's return, and a return inside a loop (taken as flags, the value kept in
        # a zero of the annotated return type), in funcs inlined into the kernel.
        plain = lambda f: f.__wrapped__  # the func itself, in float64
        f = lambda v: plain(safe_div)(v, v - 1.0) + plain(first_big)(v)
        elementwise_against_f64(func_leaves, f, np.float32([0.5, 2.0, 3.0, -0.7]))

        def at_the_guard():  # x = 1: safe_div's guard returns 0.0, first_big(x) = 1.5**4 x - 1
            x, y = spirthon.array(np.float32([1.0]), requires_grad=True), spirthon.zeros(1)
            with Tape() as tape:
                func_leaves.launch(1, x, y)
            tape.backward(grads={y: np.ones(1, np.float32)})
            return y.numpy(), x.grad.numpy()

        for y, grad in on_both(at_the_guard):
            self.assertEqual((float(y[0]), float(grad[0])), (4.0625, 5.0625))

    def test_a_struct_parameter_and_an_array_of_structs(self):
        # A struct parameter (a uniform: no gradient, as a scalar parameter's) and an array
        # of springs whose int fields index the positions: the gradients by the positions
        # and by each spring's float fields, against central differences in float64.
        xs = np.float32([[0, 0, 0], [1, 0.2, 0], [0.5, 1, 0.3]])
        sps = [Spring(0, 1, 0.8, 10.0), Spring(1, 2, 0.9, 5.0), Spring(2, 0, 1.1, 7.0)]
        wv = np.float32([[0.3, -1.0, 0.2], [0.1, 0.5, -0.4], [1.0, 0.0, 0.2]])

        def run():
            x = spirthon.array(xs, vec3, requires_grad=True)
            sp = spirthon.array(sps, Spring, requires_grad=True)
            f = spirthon.zeros(3, vec3)
            with Tape() as tape:
                spring_structs.launch(3, x, sp, World(vec3(0.0, -9.8, 0.0), 0.1), f)
            tape.backward(grads={f: wv})
            return x.grad.numpy(), sp.grad.numpy()

        def f64(x, rest=np.float64([sp.rest for sp in sps]), ke=np.float64([sp.ke for sp in sps])):
            f = np.zeros((3, 3))
            for k, sp in enumerate(sps):
                d = x[sp.j] - x[sp.i]
                n = np.linalg.norm(d)
                g = d / n * (ke[k] * (n - rest[k])) + np.array([0, -9.8, 0]) * 0.1
                f[sp.i] += g
                f[sp.j] -= g
            return float(np.sum(f * wv))

        rest, ke = np.float32([sp.rest for sp in sps]), np.float32([sp.ke for sp in sps])
        want_x = central(f64, xs)
        want_rest = central(lambda r: f64(xs.astype(np.float64), rest=r), rest)
        want_ke = central(lambda k: f64(xs.astype(np.float64), ke=k), ke)
        for gx, gs in on_both(run):
            np.testing.assert_allclose(gx, want_x, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gs["rest"], want_rest, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gs["ke"], want_ke, rtol=1e-4, atol=1e-4)
            self.assertEqual(gs["i"].tolist() + gs["j"].tolist(), [0] * 6)

    def test_arrays_of_structs(self):
        # Particles as structs: a step writes each as `Particle(...)` (positions and
        # keywords), the energy reads them whole and through a func; gradients by every
        # float field, the int field's stays zero, against central differences in float64.
        n = 6
        pos = self.rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        vel = self.rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        mass = self.rng.uniform(1, 2, n).astype(np.float32)
        alive = np.array([1, 1, 0, 1, 1, 1], np.int32)
        data = np.zeros(n, Particle.numpy_dtype)
        data["pos"], data["vel"], data["mass"], data["alive"] = pos, vel, mass, alive

        def run():
            ps = spirthon.array(data, Particle, requires_grad=True)
            mid = spirthon.zeros(n, Particle, requires_grad=True)
            loss = spirthon.zeros(1, requires_grad=True)
            with Tape() as tape:
                particle_step.launch(n, ps, mid, 0.1)
                particle_energy.launch(n, mid, loss)
            tape.backward(loss)
            return ps.grad.numpy(), mid.grad.numpy()

        for grad, mid in on_both(run):
            self.assertEqual(grad.dtype, Particle.numpy_dtype)
            for field, k, x in (("pos", 0, pos), ("vel", 1, vel), ("mass", 2, mass)):
                def f(v, k=k):
                    args = [pos.astype(np.float64), vel.astype(np.float64), mass.astype(np.float64)]
                    args[k] = v
                    return particles_f64(*args, alive, 0.1)
                np.testing.assert_allclose(grad[field], central(f, x), rtol=1e-4, atol=1e-4, err_msg=field)
            self.assertEqual(grad["alive"].tolist(), [0] * n)
            self.assertEqual(mid["alive"].tolist(), [0] * n)

    def test_nested_structs_and_two_dimensional_arrays_of_structs(self):
        # A struct of a quat, a mat22, a nested struct and a vec3: read whole and through a
        # func, copied whole, made again with a nested struct made in place; a 2-D array of
        # them read through an annotated name. Each float field's gradient against central
        # differences; the int field's stays zero.
        n = 4
        data = np.zeros(n, Body.numpy_dtype)
        data["q"] = self.rng.uniform(-1, 1, (n, 4))
        data["m"] = self.rng.uniform(-1, 1, (n, 2, 2))
        data["frame"]["w"] = self.rng.uniform(-1, 1, n)
        data["frame"]["k"] = [1, 2, 3, 4]
        data["frame"]["uv"] = self.rng.uniform(-1, 1, (n, 2))
        data["pos"] = self.rng.uniform(-1, 1, (n, 3))
        seeds = {name: np.zeros(n, Body.numpy_dtype) for name in ("copied", "scaled")}
        for v in seeds.values():
            for field in ("q", "m", "pos"):
                v[field] = self.rng.uniform(-1, 1, v[field].shape)
            v["frame"]["w"] = self.rng.uniform(-1, 1, n)
            v["frame"]["uv"] = self.rng.uniform(-1, 1, (n, 2))
        w = self.rng.uniform(-1, 1, n).astype(np.float32)
        s = 1.5

        def leaves(d):
            return [d["q"], d["m"], d["frame"]["w"], d["frame"]["uv"], d["pos"]]

        def loss_f64(vals):
            q, m, fw, uv, p = vals
            k = data["frame"]["k"].astype(np.float64)
            total = np.sum(w * (np.array([_rotate(q[j], p[j])[0] for j in range(n)]) + (fw * m[:, 0, 1] + uv[:, 1]) * 2.0 + uv[:, 0] * k))
            c, sc = seeds["copied"], seeds["scaled"]
            total += sum(np.sum(a * b) for a, b in zip(vals, leaves(c)))
            total += np.sum(q * sc["q"]) + np.sum(m * s * sc["m"]) + np.sum(fw * s * sc["frame"]["w"])
            total += np.sum(uv * sc["frame"]["uv"]) + np.sum(uv[:, 1:2] * p * sc["pos"])
            return float(total)

        def run():
            bs = spirthon.array(data, Body, requires_grad=True)
            outs = {name: spirthon.zeros(n, Body) for name in seeds}
            out = spirthon.zeros(n)
            with Tape() as tape:
                bodies.launch(n, bs, outs["copied"], outs["scaled"], out, s)
            tape.backward(grads={out: w, outs["copied"]: seeds["copied"], outs["scaled"]: seeds["scaled"]})
            return bs.grad.numpy()

        for grad in on_both(run):
            for k, (got, x) in enumerate(zip(leaves(grad), leaves(data))):
                def f(v, k=k):
                    vals = [a.astype(np.float64) for a in leaves(data)]
                    vals[k] = v
                    return loss_f64(vals)
                want = central(f, x)
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=str(k))
            self.assertEqual(grad["frame"]["k"].tolist(), [0] * n)

        grid = np.zeros((3, 2), Body.numpy_dtype)
        grid["frame"]["w"] = self.rng.uniform(-1, 1, (3, 2))
        grid["pos"] = self.rng.uniform(-1, 1, (3, 2, 3))
        grid["m"] = self.rng.uniform(-1, 1, (3, 2, 2, 2))
        wg = self.rng.uniform(-1, 1, (3, 2)).astype(np.float32)

        def run_grid():
            bs = spirthon.array(grid, Body, requires_grad=True)
            out = spirthon.zeros((3, 2))
            with Tape() as tape:
                body_grid.launch((3, 2), bs, out)
            tape.backward(grads={out: wg})
            return bs.grad.numpy()

        for grad in on_both(run_grid):
            np.testing.assert_allclose(grad["frame"]["w"], wg * grid["pos"][..., 2], rtol=1e-6)
            np.testing.assert_allclose(grad["pos"][..., 2], wg * grid["frame"]["w"], rtol=1e-6)
            np.testing.assert_allclose(grad["m"][..., 1, 0], wg, rtol=1e-6)
            self.assertEqual(float(np.abs(grad["q"]).sum() + np.abs(grad["m"][..., 0, :]).sum()), 0.0)

    def test_generic_funcs_given_struct_fields_and_floats(self):
        # out = 2 x fw + 2 pos.y + uv.x + x**2 (fw, uv: the frame's w and uv), through funcs
        # of `Any` and fields of the structs funcs return.
        n = 4
        data = np.zeros(n, Body.numpy_dtype)
        data["frame"]["w"] = self.rng.uniform(-1, 1, n)
        data["frame"]["uv"] = self.rng.uniform(-1, 1, (n, 2))
        data["pos"] = self.rng.uniform(-1, 1, (n, 3))
        x0 = self.rng.uniform(-1, 1, n).astype(np.float32)
        w = self.rng.uniform(-1, 1, n).astype(np.float32)

        def run():
            bs = spirthon.array(data, Body, requires_grad=True)
            x = spirthon.array(x0, requires_grad=True)
            out = spirthon.zeros(n)
            with Tape() as tape:
                generic_funcs.launch(n, bs, x, out)
            tape.backward(grads={out: w})
            return out.numpy(), x.grad.numpy(), bs.grad.numpy()

        fw, uv, pos = data["frame"]["w"], data["frame"]["uv"], data["pos"]
        for out, xg, bg in on_both(run):
            np.testing.assert_allclose(out, 2 * x0 * fw + 2 * pos[:, 1] + uv[:, 0] + x0 * x0, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(xg, w * (2 * fw + 2 * x0), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(bg["frame"]["w"], w * 2 * x0, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(bg["pos"], np.stack([0 * w, 2 * w, 0 * w], -1), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(bg["frame"]["uv"], np.stack([w, 0 * w], -1), rtol=1e-5, atol=1e-6)
            self.assertEqual(float(np.abs(bg["q"]).sum() + np.abs(bg["m"]).sum()), 0.0)

    def test_struct_locals_field_by_field(self):
        # Warp's particles: an element read into a local, passed through a func that copies
        # it and assigns its fields and their components (`q.vel += ...`, `q.pos.y = ...`, an
        # int field counted), carried through a constant loop, written back in place. Each
        # float field's gradient against central differences in float64.
        n = 5
        pos = self.rng.uniform(0.2, 1.0, (n, 3)).astype(np.float32)
        vel = self.rng.uniform(-2, 0.5, (n, 3)).astype(np.float32)
        inv_mass = self.rng.uniform(0.5, 2.0, n).astype(np.float32)
        data = np.zeros(n, Drop.numpy_dtype)
        data["pos"], data["vel"], data["inv_mass"] = pos, vel, inv_mass
        air = (np.float64([0.0, -9.8, 0.0]), 0.3, 0.7)
        h = 0.05

        def run():
            ps = spirthon.array(data, Drop, requires_grad=True)
            loss = spirthon.zeros(1, requires_grad=True)
            with Tape() as tape:
                drops.launch(n, ps, Air(vec3(0.0, -9.8, 0.0), 0.3, 0.7), h, loss)
            tape.backward(loss)
            return ps.grad.numpy(), ps.numpy()

        args = [pos.astype(np.float64), vel.astype(np.float64), inv_mass.astype(np.float64)]
        for grad, after in on_both(run):
            self.assertGreater(int(after["bounces"].sum()), 0)  # the floor was reached
            for k, field in enumerate(("pos", "vel", "inv_mass")):
                def f(v, k=k):
                    vals = list(args)
                    vals[k] = v
                    return drops_f64(*vals, *air, h)
                np.testing.assert_allclose(grad[field], central(f, args[k]), rtol=1e-3, atol=1e-3, err_msg=field)

        # Struct locals merged in a branch, made by a func and of values with adjoints, a
        # field assigned in place, fields carried by a loop.
        m = 4
        pd = np.zeros(m, Pair.numpy_dtype)
        pd["a"], pd["b"] = self.rng.uniform(-1, 1, m), self.rng.uniform(-1, 1, m)
        x0 = self.rng.uniform(-1, 1, m).astype(np.float32)
        w = np.arange(1, m + 1, dtype=np.float32)

        def run_pairs():
            ps = spirthon.array(pd, Pair, requires_grad=True)
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(m)
            with Tape() as tape:
                pairs.launch(m, ps, x, y, 2)
            tape.backward(grads={y: w})
            return ps.grad.numpy(), x.grad.numpy()

        a, b = pd["a"].astype(np.float64), pd["b"].astype(np.float64)
        for gp, gx in on_both(run_pairs):
            np.testing.assert_allclose(gx, central(lambda v: pairs_f64(a, b, v, 2), x0), rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gp["a"], central(lambda v: pairs_f64(v, b, x0.astype(np.float64), 2), pd["a"]), rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gp["b"], central(lambda v: pairs_f64(a, v, x0.astype(np.float64), 2), pd["b"]), rtol=1e-4, atol=1e-4)

    def test_unpacking_into_components_fields_and_elements(self):
        # `a, b = c, d` into a vector's components, a struct local's fields and local and
        # parameter arrays' elements: every value taken first, then each part assigned.
        m = 5
        x0 = self.rng.uniform(-1, 1, m).astype(np.float32)
        v0 = self.rng.uniform(-1, 1, (m, 3)).astype(np.float32)
        pd = np.zeros(m, Pair.numpy_dtype)
        pd["a"], pd["b"] = self.rng.uniform(-1, 1, m), self.rng.uniform(-1, 1, m)
        sy, so = self.rng.uniform(-1, 1, m).astype(np.float32), self.rng.uniform(-1, 1, (m, 3)).astype(np.float32)

        def run():
            x, v = spirthon.array(x0, requires_grad=True), spirthon.array(v0, vec3, requires_grad=True)
            ps = spirthon.array(pd, Pair, requires_grad=True)
            y, out = spirthon.zeros(m), spirthon.zeros(m, vec3)
            with Tape() as tape:
                unpacked_parts.launch(m, x, v, ps, y, out)
            tape.backward(grads={y: sy, out: so})
            return x.grad.numpy(), v.grad.numpy(), ps.grad.numpy()

        args = [x0, v0, pd["a"], pd["b"]]
        loss = lambda *a: unpacked_parts_f64(*a, sy, so)
        for gx, gv, gp in on_both(run):
            for j, got in enumerate((gx, gv, gp["a"], gp["b"])):
                want = central(lambda u: loss(*[u if k == j else w.astype(np.float64) for k, w in enumerate(args)]), args[j])
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg="input %d" % j)

    def test_f64_values(self):
        # A kernel computing in f64 from an f64 and an f32 array: its gradients on both
        # devices agree with float64 central differences to 1e-7 (the f32 input's to an
        # f32's precision: its adjoint is an f32 array).
        n = 16
        x0 = self.rng.uniform(-1.5, 1.5, n)
        y0 = self.rng.uniform(-1, 1, n).astype(np.float32)
        seed = self.rng.uniform(-1, 1, n)

        def loss(x, y):
            return sum(sd * o + 0.3 * e for sd, (o, e) in zip(seed, energy64_f64(x, y)))

        def run():
            x, y = spirthon.array(x0, requires_grad=True), spirthon.array(y0, requires_grad=True)
            out, e = spirthon.zeros(n, f64), spirthon.zeros(1, f64)
            with Tape() as tape:
                energy64.launch(n, x, y, out, e)
            tape.backward(grads={out: seed, e: np.array([0.3])})
            return x.grad.numpy(), y.grad.numpy(), out.numpy()

        want_x = central(lambda v: loss(v, y0.astype(np.float64)), x0)
        want_y = central(lambda v: loss(x0, v), y0)
        for gx, gy, out in on_both(run):
            self.assertEqual(gx.dtype, np.float64)
            np.testing.assert_allclose(out, [o for o, _ in energy64_f64(x0, y0.astype(np.float64))], rtol=1e-13)
            np.testing.assert_allclose(gx, want_x, rtol=1e-7, atol=1e-8)
            np.testing.assert_allclose(gy, want_y, rtol=1e-5, atol=1e-6)

    def test_dvec_values(self):
        # An Array[dvec3] with requires_grad: its gradient (a dvec3 array, summed by f64
        # atomics per component) against float64 central differences to 1e-7.
        n = 9
        p0 = self.rng.uniform(-1, 1, (n, 3))
        seed = self.rng.uniform(-1, 1, (n, 3))

        def run():
            p = spirthon.array(p0, dvec3, requires_grad=True)
            e, f = spirthon.zeros(1, f64), spirthon.zeros(n, dvec3)
            with Tape() as tape:
                springs64.launch(n, p, 0.5, e, f)
            tape.backward(grads={e: np.ones(1), f: seed})
            return p.grad.numpy()

        want = central(lambda v: springs64_f64(v, 0.5, seed), p0)
        for grad in on_both(run):
            self.assertEqual(grad.dtype, np.float64)
            np.testing.assert_allclose(grad, want, rtol=1e-7, atol=1e-8)

    def test_int_vector_components_assigned(self):
        # An int vector's components assigned and updated in place (no adjoint of their
        # own), the float values read at the cell it names differentiated.
        p0 = self.rng.uniform(0.05, 0.95, (16, 2)).astype(np.float32)
        f0 = self.rng.uniform(-1, 1, (4, 4)).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 16).astype(np.float32)

        def run():
            p, f = spirthon.array(p0, vec2, requires_grad=True), spirthon.array(f0, requires_grad=True)
            y = spirthon.zeros(16)
            with Tape() as tape:
                binned.launch(16, p, f, y)
            tape.backward(grads={y: seed})
            return p.grad.numpy(), f.grad.numpy()

        for gp, gf in on_both(run):
            # (a step of 1e-6 keeps each point in its cell)
            np.testing.assert_allclose(gp, central(lambda v: binned_f64(v, f0.astype(np.float64), seed), p0), rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(gf, central(lambda v: binned_f64(p0.astype(np.float64), v, seed), f0), rtol=1e-4, atol=1e-4)

    def test_loops_over_a_table_of_rows(self):
        # shaders/lbm_d2q9.py, a D2Q9 lattice-Boltzmann step as LBM codes write it: `for q,
        # (cx, cy) in enumerate(C)` over a module's list of velocity pairs, weights from a
        # list, the populations pulled (periodic) into a local array; the gradient by every
        # population against central differences in float64.
        f0 = (1.0 / 9.0 + self.rng.uniform(-0.02, 0.02, (9, 4, 4))).astype(np.float32)
        seed = self.rng.uniform(-1, 1, (9, 4, 4)).astype(np.float32)

        def run():
            f = spirthon.array(f0, requires_grad=True)
            out = spirthon.zeros((9, 4, 4))
            with Tape() as tape:
                shader("lbm_d2q9").lbm_d2q9.launch((4, 4), f, out)
            tape.backward(grads={out: seed})
            return f.grad.numpy(), out.numpy()

        want = central(lambda v: lbm_f64(v, seed), f0)
        for got, out in on_both(run):
            self.assertAlmostEqual(float(np.sum(out * seed)), lbm_f64(f0.astype(np.float64), seed), places=3)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)

    def test_funcs_whose_loops_leave(self):
        # A func whose loop breaks, returning after it; one whose loop continues and that
        # writes an array.
        def run():
            x = spirthon.array(np.float32([0.5, 1.0, 2.5, 4.0]), requires_grad=True)
            y, z = spirthon.zeros(4), spirthon.zeros(4)
            with Tape() as tape:
                func_loops.launch(4, x, y, z)
            tape.backward(grads={y: np.ones(4, np.float32), z: np.ones(4, np.float32)})
            return y.numpy(), z.numpy(), x.grad.numpy()

        for y, z, grad in on_both(run):
            np.testing.assert_allclose(y, [0.5 * 1.5 ** 5, 1.5 ** 3, 3.75, 4.0], rtol=1e-6)
            np.testing.assert_allclose(z, [4.0, 4.0, 2.5, 4.0])
            np.testing.assert_allclose(grad, [1.5 ** 5 + 8, 1.5 ** 3 + 4, 1.5 + 1, 2.0], rtol=1e-6)

    def test_loop_variables_after_their_loops(self):
        # After a loop its variable is its value at the end of the last iteration (an
        # inner loop's over the same name rebinds it), or what it was when the loop did not
        # run (n = 0 here): y = (x + 3) * (2 + 7 + 3).
        def run():
            x = spirthon.array(np.float32([1.0, -2.0]), requires_grad=True)
            y = spirthon.zeros(2)
            with Tape() as tape:
                after_loops.launch(2, x, y, 0)
            tape.backward(grads={y: np.ones(2, np.float32)})
            return y.numpy(), x.grad.numpy()

        for y, grad in on_both(run):
            np.testing.assert_allclose(y, [48.0, 12.0])
            np.testing.assert_allclose(grad, [12.0, 12.0])

    def test_a_constant_loop_too_long_to_keep(self):
        # 1,030 iterations carrying a vec4 would keep 16,480 bytes, more than a local
        # array's 16 KiB: recomputed instead (on the GPU: 530,000 replayed iterations).
        x0 = np.float32([0.5, -0.25, 1.0, 2.0])
        x = spirthon.array(x0, requires_grad=True)
        y = spirthon.zeros(4)
        with Tape() as tape:
            long_loop.launch(4, x, y)
        tape.backward(grads={y: np.ones(4, np.float32)})
        self.assertNotIn("local_array", long_loop.adjoint_source)
        # v = 0.999 v + 0.001 x from v = x: dv/dx = 0.999**n + (1 - 0.999**n) = 1 in all four
        # components; y = v.x + 2 v.y + 3 v.z + 4 v.w.
        np.testing.assert_allclose(y.numpy(), 10 * x0, rtol=1e-4)
        np.testing.assert_allclose(x.grad.numpy(), [10.0] * 4, rtol=1e-3)

    def test_funcs_with_their_own_adjoint(self):
        def run():
            x = spirthon.array(np.float32([0.0, 0.25, 4.0]), requires_grad=True)
            p = spirthon.array(np.float32([[1, 2, 3], [0, 0, 1], [1, -1, 1]]), vec3, requires_grad=True)
            k = spirthon.array(np.float32([3.0, 2.0, 1.0]), requires_grad=True)
            y = spirthon.zeros(3)
            with Tape() as tape:
                own_adjoints.launch(3, x, p, k, y)
            tape.backward(grads={y: np.ones(3, np.float32)})
            return y.numpy(), x.grad.numpy(), p.grad.numpy(), k.grad.numpy()

        for y, xg, pg, kg in on_both(run):
            np.testing.assert_allclose(y, [7.0, 1.0 + 0.5, 2.0 + 1.5])
            np.testing.assert_allclose(xg, [150.0, 2.0, 0.25], rtol=1e-6)  # the func's adjoint at 0, not inf
            np.testing.assert_allclose(pg, [[1, 2, 3], [0, 0, 1], [1, -1, 1]])
            np.testing.assert_allclose(kg, [0.0, 0.5, 2.0])

    def test_shared_and_local_arrays(self):
        # The adjoint of a barrier-synchronised kernel is barrier-synchronised: the
        # replay writes the shared array again, the reverse adds into its adjoint (a shared
        # array zeroed first) before a barrier and reads it after.
        x0 = self.rng.uniform(-1, 1, 128).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 128).astype(np.float32)
        for k, f in ((mirrored, mirrored_f64), (table, table_f64)):
            def run():
                x = spirthon.array(x0, requires_grad=True)
                y = spirthon.zeros(128)
                with Tape() as tape:
                    k.launch(128, x, y)
                tape.backward(grads={y: seed})
                return x.grad.numpy()

            gpu, cpu = on_both(run)
            want = central(lambda v: float(np.sum(seed * f(v))), x0)
            for got in (gpu, cpu):
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)), err_msg=k.name)

    def test_accumulating_into_local_and_shared_arrays(self):
        # `+=` and `-=` on elements of local and shared arrays, atomics on shared arrays: the
        # replay accumulates once, and the replays inside the reverse (of a branch, of a
        # loop's iteration) read what it left (a read after a write in one branch sees the
        # element once added to).
        x0 = self.rng.uniform(-1, 1, 128).astype(np.float32)
        w0 = self.rng.uniform(-1, 1, 3 * HIDDEN).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 128).astype(np.float32)
        self.assertEqual(guarded_layer.adjoint_source.count("= local_array(f32, HIDDEN)"), 1)
        for k, f, args in ((layer, layer_f64, (x0[:96], w0)), (guarded_layer, layer_f64, (x0[:96], w0)),
                           (scratch, scratch_f64, (x0,)), (pooled, pooled_f64, (x0,)),
                           (group_sums, group_sums_f64, (x0,))):
            n = len(f(*[a.astype(np.float64) for a in args]))

            def run():
                arrays = [spirthon.array(a, requires_grad=True) for a in args]
                y = spirthon.zeros(n)
                with Tape() as tape:
                    k.launch(n + 7 if k is guarded_layer else n, *arrays, y)
                tape.backward(grads={y: seed[:n]})
                return y.numpy(), [a.grad.numpy() for a in arrays]

            for y, grads in on_both(run):
                np.testing.assert_allclose(y, f(*[a.astype(np.float64) for a in args]), rtol=1e-5, atol=1e-5, err_msg=k.name)
                for j, got in enumerate(grads):
                    want = central(lambda v: float(np.sum(seed[:n] * f(*[v if m == j else a.astype(np.float64) for m, a in enumerate(args)]))), args[j])
                    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)), err_msg=k.name)

    def test_mls_mpm_through_steps(self):
        # Taichi's diffmpm, three steps of 16 particles on a 32 x 32 grid: the gradient of
        # the particles' distance to a target with respect to their initial velocities
        # and deformation gradients; the GPU and the python device agree, and the
        # velocities' against central differences of the forward.
        n, cells = 16, MPM_GRID * MPM_GRID
        x0 = self.rng.uniform(0.3, 0.5, (n, 2)).astype(np.float32)
        v0 = np.tile(np.float32([1.0, 0.5]), (n, 1))
        f0 = np.tile(np.eye(2, dtype=np.float32), (n, 1, 1))

        def simulate(v_start, tape):
            x, v = spirthon.array(x0, vec2), spirthon.array(v_start, vec2, requires_grad=True)
            c, f = spirthon.zeros(n, mat22), spirthon.array(f0, mat22, requires_grad=True)
            first, loss = (v, f), spirthon.zeros(1)
            with tape:
                for _ in range(3):
                    gv, gm, go = spirthon.zeros(cells, vec2), spirthon.zeros(cells), spirthon.zeros(cells, vec2)
                    fo, xn, vn, cn = spirthon.zeros(n, mat22), spirthon.zeros(n, vec2), spirthon.zeros(n, vec2), spirthon.zeros(n, mat22)
                    mpm_p2g.launch(n, x, v, c, f, fo, gv, gm)
                    mpm_grid.launch(cells, gv, gm, go)
                    mpm_g2p.launch(n, x, go, xn, vn, cn)
                    x, v, c, f = xn, vn, cn, fo
                mpm_loss.launch(n, x, loss)
            return loss, first

        def run():
            tape = Tape()
            loss, (v, f) = simulate(v0, tape)
            tape.backward(loss)
            return v.grad.numpy(), f.grad.numpy()

        (gv, gf), (cv, cf) = on_both(run)
        np.testing.assert_allclose(cv, gv, rtol=1e-4, atol=1e-5 * np.max(np.abs(gv)))
        np.testing.assert_allclose(cf, gf, rtol=1e-4, atol=1e-5 * np.max(np.abs(gf)))
        self.assertGreater(np.max(np.abs(gf)), 1e-4)  # the deformation reaches the loss
        for axis in range(2):
            step = np.zeros(2, np.float32)
            step[axis] = 0.05
            ends = [float(simulate(v0 + sign * step, Tape())[0].numpy()[0]) for sign in (1, -1)]
            self.assertAlmostEqual(float(np.sum(gv[:, axis])), (ends[0] - ends[1]) / 0.1, delta=1e-3 * abs(np.sum(gv[:, axis])) + 1e-7)

    def test_branches_loops_and_accumulators(self):
        x0 = self.rng.uniform(-1, 1, 21).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 21).astype(np.float32)

        def run():
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(21)
            with Tape() as tape:
                flow.launch(21, x, y, 21, 0.7)
            tape.backward(grads={y: seed})
            return x.grad.numpy(), y.numpy()

        gpu, cpu = on_both(run)
        np.testing.assert_allclose(gpu[1], flow_f64(x0.astype(np.float64), 0.7), rtol=1e-5, atol=1e-5)
        want = central(lambda v: float(np.sum(seed * flow_f64(v, 0.7))), x0)
        for got in (gpu[0], cpu[0]):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(gpu[0], cpu[0], rtol=1e-5, atol=1e-6)

    def test_funcs_components_and_atomics(self):
        p0 = self.rng.uniform(-1, 1, (12, 3)).astype(np.float32)
        seed = self.rng.uniform(-1, 1, (12, 3)).astype(np.float32)

        def run():
            p = spirthon.array(p0, vec3, requires_grad=True)
            force = spirthon.zeros(12, vec3)
            with Tape() as tape:
                chain.launch(12, p, force, 12)
            tape.backward(grads={force: seed})
            return p.grad.numpy()

        gpu, cpu = on_both(run)
        want = central(lambda v: float(np.sum(seed * chain_f64(v))), p0)
        for got in (gpu, cpu):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)

    def test_many_launches_through_intermediate_arrays(self):
        # Time steps as launches, each writing new arrays: the gradient of the final
        # distance to a target with respect to the initial velocity flows through every
        # intermediate array without any of them asking for it.
        x0 = self.rng.uniform(-1, 1, (5, 3)).astype(np.float32)
        v0 = self.rng.uniform(-1, 1, (5, 3)).astype(np.float32)
        target = vec3(0.5, 1.0, -0.25)
        dt, steps = 0.05, 8

        def simulate(v_init):
            x = spirthon.array(x0, vec3)
            v = spirthon.array(v_init, vec3, requires_grad=True)
            loss = spirthon.zeros(1, requires_grad=True)
            start = v
            with Tape() as tape:
                for _ in range(steps):
                    f = spirthon.zeros(5, vec3)
                    chain.launch(5, x, f, 5)
                    xn, vn = spirthon.zeros(5, vec3), spirthon.zeros(5, vec3)
                    integrate.launch(5, x, v, f, xn, vn, dt)
                    x, v = xn, vn
                energy.launch(5, x, target, loss)
            tape.backward(loss)
            return start.grad.numpy(), float(loss.numpy()[0])

        def f64(v_init):
            x, v = x0.astype(np.float64), v_init.reshape(5, 3).copy()
            for _ in range(steps):
                f = chain_f64(x)
                v = v + f * dt + np.array([0, -9.8, 0]) * dt
                x = x + v * dt
            return float(np.sum((x - np.array([0.5, 1.0, -0.25])) ** 2))

        gpu, cpu = on_both(lambda: simulate(v0))
        self.assertAlmostEqual(gpu[1], f64(v0.astype(np.float64)), delta=1e-3 * abs(gpu[1]))
        want = central(f64, v0.astype(np.float64))
        for got in (gpu[0], cpu[0]):
            np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)

        def reused(v_init):
            # The same steps in two pairs of arrays, each step writing back into the
            # arrays an earlier step read, and one force array cleared by a launch: the
            # tape copies what a launch is about to overwrite.
            x = spirthon.array(x0, vec3)
            v = spirthon.array(v_init, vec3, requires_grad=True)
            xn, vn, f = spirthon.zeros(5, vec3), spirthon.zeros(5, vec3), spirthon.zeros(5, vec3)
            loss = spirthon.zeros(1, requires_grad=True)
            start = v
            with Tape() as tape:
                for _ in range(steps):
                    clear3.launch(5, f)
                    chain.launch(5, x, f, 5)
                    integrate.launch(5, x, v, f, xn, vn, dt)
                    x, v, xn, vn = xn, vn, x, v
                energy.launch(5, x, target, loss)
            tape.backward(loss)
            return start.grad.numpy(), float(loss.numpy()[0])

        for got, fresh in zip(on_both(lambda: reused(v0)), (gpu, cpu)):
            self.assertEqual(got[1], fresh[1])
            np.testing.assert_allclose(got[0], fresh[0], rtol=1e-6, atol=1e-6)

    def test_barriers_in_loops_around_tiles(self):
        # shaders/matmul_tiled.py: the tiles of A and B written whole at each step between
        # barriers; the adjoint replays each step's tiles before reversing it, barrier for
        # barrier.
        m, n, k = 6, 7, 10
        a0 = self.rng.uniform(-1, 1, m * k).astype(np.float32)
        b0 = self.rng.uniform(-1, 1, k * n).astype(np.float32)
        seed = self.rng.uniform(-1, 1, m * n).astype(np.float32)

        def run():
            a, b = spirthon.array(a0, requires_grad=True), spirthon.array(b0, requires_grad=True)
            c = spirthon.zeros(m * n)
            with Tape() as tape:
                shader("matmul_tiled").matmul_tiled.launch((8, 8), m, n, k, a, b, c)
            tape.backward(grads={c: seed})
            return c.numpy(), a.grad.numpy(), b.grad.numpy()

        A, B, S = (v.astype(np.float64) for v in (a0.reshape(m, k), b0.reshape(k, n), seed.reshape(m, n)))
        for c, ga, gb in on_both(run):
            np.testing.assert_allclose(c.reshape(m, n), A @ B, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(ga.reshape(m, k), S @ B.T, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(gb.reshape(k, n), A.T @ S, rtol=1e-5, atol=1e-5)

        # A 1-D tile at `local_index()`, a loop carrying a value that is not an accumulator
        # (checkpointed at a constant count, recomputed at a run-time one).
        x0 = self.rng.uniform(-1, 1, 3 * 16).astype(np.float32)
        w = self.rng.uniform(-1, 1, 16).astype(np.float32)

        def sums():
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(16)
            with Tape() as tape:
                tiled_sums.launch(16, x, y, 3)
            tape.backward(grads={y: w})
            return y.numpy(), x.grad.numpy()

        want = central(lambda v: float(np.sum(w * tiled_sums_f64(v, 16, 3))), x0)
        for y, g in on_both(sums):
            np.testing.assert_allclose(y, tiled_sums_f64(x0.astype(np.float64), 16, 3), rtol=1e-5)
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4)

    def test_a_tree_reduction(self):
        # shaders/reduce.py: shared memory read before it is written again, in a `while`
        # loop with barriers; no value read from it is needed (each is only added into it,
        # then stored), so the adjoint adds each element's adjoint down the tree, step by
        # step in reverse. The elements past the array's end read nothing.
        x0 = self.rng.uniform(-1, 1, 600).astype(np.float32)
        w = np.float32([0.5, -2.0, 1.5])

        def run():
            x = spirthon.array(x0, requires_grad=True)
            partial = spirthon.zeros(3)
            with Tape() as tape:
                shader("reduce").reduce.launch(768, x, partial)
            tape.backward(grads={partial: w})
            return partial.numpy(), x.grad.numpy()

        groups = np.arange(600) // 256
        for partial, g in on_both(run):
            np.testing.assert_allclose(partial, [np.sum(x0[groups == k].astype(np.float64)) for k in range(3)], rtol=1e-4, atol=1e-5)
            np.testing.assert_array_equal(g, w[groups])

    def test_a_launch_with_nothing_to_differentiate(self):
        # A kernel of ints alone (a prefix sum in shared memory) on a tape runs as recorded
        # and has no adjoint; a later launch of it overwriting what a recorded launch read
        # leaves that launch a copy, so its gradient is the one of the indices it used; the
        # ints overwritten again outside the tape then reach no gradient, and are no refusal.
        counts = np.array([1, 0, 2, 1] * 4, np.int32)

        def run():
            idx = spirthon.zeros(16, i32)
            x = spirthon.array(np.arange(16, dtype=np.float32), requires_grad=True)
            y = spirthon.zeros(16)
            with Tape() as tape:
                int_scan.launch(16, spirthon.array(counts), idx)
                gather_scaled.launch(16, x, idx, y)
                int_scan.launch(16, spirthon.array(counts[::-1].copy()), idx)
            scanned = idx.numpy()
            idx.update(np.zeros(16, np.int32))
            tape.backward(grads={y: np.ones(16, np.float32)})
            return x.grad.numpy(), scanned

        want = np.zeros(16)
        np.add.at(want, np.cumsum(counts) % 16, 2.0)
        for grad, idx in on_both(run):
            np.testing.assert_array_equal(grad, want)
            np.testing.assert_array_equal(idx, np.cumsum(counts[::-1]))

    def test_one_array_passed_for_two_parameters(self):
        # A launch may read one array through two parameters (pairs of particles); its
        # adjoint writes an adjoint for each, which may not be one array twice: the second
        # gets its own, added to the first's after the launch.
        x0 = self.rng.uniform(-1, 1, 5).astype(np.float32)
        seed = self.rng.uniform(-1, 1, 5).astype(np.float32)

        def twice():
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(5)
            with Tape() as tape:
                both.launch(5, x, x, y)
            tape.backward(grads={y: seed})
            return x.grad.numpy()

        def f64_twice(x):
            n = len(x)
            return float(np.sum(seed * np.array([x[i] * x[(i + 1) % n] * 3.0 for i in range(n)])))

        want = central(f64_twice, x0)
        for got in on_both(twice):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

    def test_grads_accumulate_until_zeroed(self):
        def run():
            x = spirthon.array(np.arange(4, dtype=np.float32), requires_grad=True)
            y = spirthon.zeros(4)
            loss = spirthon.zeros(1)
            with Tape() as tape:
                flow.launch(4, x, y, 4, 0.5)
                energy_1d.launch(4, y, loss)
            tape.backward(loss)
            once = x.grad.numpy()
            tape.backward(loss)
            twice = x.grad.numpy()
            tape.zero()
            return once, twice, x.grad.numpy()

        for once, twice, zeroed in on_both(run):
            np.testing.assert_allclose(twice, 2 * once, rtol=1e-6)
            self.assertEqual(np.count_nonzero(zeroed), 0)


@kernel
def energy_1d(y: Array[f32], loss: Array[f32]):
    atomic_add(loss, 0, y[global_id().x] ** 2)


@kernel
def square_into(x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = x[i] * x[i]


@kernel
def recomputed(x: Array[f32], v_out: Array[f32], s_out: Array[f32], w_out: Array[f32], n: int, seed: u32):
    i = global_id().x
    v = x[i]
    for k in range(n):
        v = v * v * 0.5 + 0.25
    v_out[i] = v
    s = x[i]
    for k in range(n):
        s += s * x[k] * 0.25
    s_out[i] = s
    h = seed
    w = x[i]
    for k in range(6):
        h = h * u32(1103)
        w = w * 0.5 + float(h % u32(7))
    w_out[i] = w


@kernel
def grows_kernel(x: Array[f32], y: Array[f32]):
    i = global_id().x
    v = x[i]
    n = 0
    while v < 10.0:
        v = v * 1.5 + 0.25
        n += 1
        if n > 50:
            break
    y[i] = v * float(n)


@kernel
def first_over_kernel(x: Array[f32], y: Array[f32]):
    i = global_id().x
    s = x[i]
    k = 0
    for k in range(10):
        s = s * 1.2
        if s > 3.0:
            s = s - 0.5
            break
        s = s + 0.1
    y[i] = s * float(k)


@kernel
def grids(m: Array2D[mat22], q: Array2D[quat], y: Array[f32], o: Array2D[mat22]):
    i = global_id().x
    r = i // 3
    c = i % 3
    v = m[r, c] @ vec2(1.0, 2.0)
    y[i] = v.x * v.y + quat_rotate(q[r, c], vec3(1.0, 0.0, 0.0)).y
    o[r, c] = transpose(m[r, c]) * 3.0


@kernel
def det44(m: Array[mat44], y: Array[f32]):
    i = global_id().x
    y[i] = determinant(m[i])


@struct
class Spring:
    i: i32
    j: i32
    rest: f32
    ke: f32


@struct
class World:
    gravity: vec3
    damping: f32


@kernel
def weighted_by(x: Array[vec3], d: vec3, m: mat22, w: World, loss: Array[f32]):
    i = global_id().x
    atomic_add(loss, 0, dot(x[i] * x[i], d) * m[0, 1] * w.damping)


@func
def pull(a: vec3, b: vec3, s: Spring) -> vec3:
    d = b - a
    n = length(d)
    return d / n * (s.ke * (n - s.rest))


@kernel
def spring_structs(x: Array[vec3], sp: Array[Spring], w: World, f: Array[vec3]):
    k = global_id().x
    if k >= len(sp):
        return
    s = sp[k]
    g = pull(x[s.i], x[s.j], s) + w.gravity * w.damping
    atomic_add(f, s.i, g)
    atomic_add(f, s.j, -g)


@struct
class Edge:
    a: i32
    b: i32


@struct
class Particle:
    pos: vec3
    vel: vec3
    mass: f32
    alive: i32


@kernel
def particle_step(ps: Array[Particle], out: Array[Particle], dt: f32):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    a = vec3(0.0, -9.8, 0.0) / p.mass
    out[i] = Particle(p.pos + (p.vel + a * dt) * dt, vel=p.vel + a * dt, mass=p.mass, alive=p.alive)


@func
def kinetic(p: Particle) -> f32:
    return 0.5 * p.mass * dot(p.vel, p.vel)


@kernel
def particle_energy(ps: Array[Particle], loss: Array[f32]):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    if p.alive != 0:
        atomic_add(loss, 0, kinetic(p) + ps[i].mass * 9.8 * p.pos.y)


def particles_f64(pos, vel, mass, alive, dt):
    a = np.array([0.0, -9.8, 0.0]) / mass[:, None]
    v = vel + a * dt
    x = pos + v * dt
    e = 0.5 * mass * np.sum(v * v, -1) + mass * 9.8 * x[:, 1]
    return float(np.sum(e * (alive != 0)))


@struct
class Frame:
    w: f32
    k: i32
    uv: vec2


@struct
class Body:
    q: quat
    m: mat22
    frame: Frame
    pos: vec3


@func
def frame_weight(b: Body) -> f32:
    return b.frame.w * b.m[0, 1] + b.frame.uv.y


@kernel
def bodies(bs: Array[Body], copied: Array[Body], scaled: Array[Body], out: Array[f32], s: f32):
    i = global_id().x
    b = bs[i]
    copied[i] = bs[i]
    scaled[i] = Body(b.q, b.m * s, Frame(b.frame.w * s, b.frame.k, b.frame.uv), b.frame.uv.y * b.pos)
    r = quat_rotate(b.q, b.pos)
    out[i] = r.x + frame_weight(b) * 2.0 + bs[i].frame.uv.x * f32(b.frame.k)


@func
def ignored(a: Any):
    pass


@func
def doubled(a: Any):
    return a * 2.0


@func
def same_frame(f: Frame) -> Frame:
    return f


@func
def frame_of(w: f32, uv: vec2) -> Frame:
    return Frame(w, 3, uv)


@kernel
def generic_funcs(bs: Array[Body], x: Array[f32], out: Array[f32]):
    # Warp's test_func: a generic func that returns nothing, given a struct in a struct and
    # a float; one that returns its argument's type; fields of the structs funcs return.
    i = global_id().x
    b = bs[i]
    ignored(b.frame)
    ignored(bs[i].frame)
    ignored(x[i])
    out[i] = doubled(x[i]) * b.frame.w + doubled(b.pos).y + same_frame(b.frame).uv.x + frame_of(x[i] * x[i], b.frame.uv).w


@kernel
def body_grid(bs: Array2D[Body], out: Array2D[f32]):
    i = global_id().x
    j = global_id().y
    b: Body = bs[i, j]
    out[i, j] = bs[i, j].frame.w * b.pos.z + b.m[1, 0]


@struct
class Drop:
    pos: vec3
    vel: vec3
    inv_mass: f32
    bounces: i32


@struct
class Air:
    gravity: vec3
    drag: f32
    restitution: f32


@func
def drop_substep(p: Drop, w: Air, h: f32) -> Drop:
    q = p
    q.vel += (w.gravity - q.vel * w.drag) * (q.inv_mass * h)
    q.pos += q.vel * h
    if q.pos.y < 0.0:
        q.pos.y = -q.pos.y * w.restitution
        q.vel.y = -q.vel.y * w.restitution
        q.bounces += 1
    return q


@kernel
def drops(ps: Array[Drop], w: Air, h: f32, loss: Array[f32]):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    for _ in range(6):
        p = drop_substep(p, w, h)
    ps[i] = p
    atomic_add(loss, 0, p.pos.y + dot(p.vel, p.vel) * 0.1 + f32(p.bounces))


def drops_f64(pos, vel, inv_mass, gravity, drag, restitution, h):
    total = 0.0
    for x, v, m in zip(pos, vel, inv_mass):
        x, v, bounces = x.copy(), v.copy(), 0
        for _ in range(6):
            v = v + (gravity - v * drag) * (m * h)
            x = x + v * h
            if x[1] < 0.0:
                x[1] = -x[1] * restitution
                v[1] = -v[1] * restitution
                bounces += 1
        total += x[1] + np.dot(v, v) * 0.1 + bounces
    return total


@struct
class Pair:
    a: f32
    b: f32
    n: i32


@func
def pair_of(v: f32) -> Pair:
    return Pair(v * 2.0, b=v + 1.0, n=3)


@kernel
def pairs(ps: Array[Pair], x: Array[f32], y: Array[f32], c: i32):
    i = global_id().x
    p = ps[i]
    if c > i:
        p = ps[0]                   # one element or another: each field merged
    q = pair_of(x[i])               # made by a func
    r = Pair(x[i], 1.0, 0)          # made of a value with an adjoint
    r.a *= r.a                      # a field assigned in place
    r.b = q.a * p.b
    for k in range(3):              # carried field by field
        r.a = r.a * 0.5 + p.a
        r.n += k
    y[i] = r.a + r.b * q.b + f32(r.n)


def pairs_f64(a, b, x, c):
    out = 0.0
    for i in range(len(x)):
        pa, pb = (a[0], b[0]) if c > i else (a[i], b[i])
        qa, qb = x[i] * 2.0, x[i] + 1.0
        ra = x[i] * x[i]
        rb = qa * pb
        for k in range(3):
            ra = ra * 0.5 + pa
        out += (ra + rb * qb + 3.0) * (i + 1)
    return out


@kernel
def unpacked_parts(x: Array[f32], v: Array[vec3], ps: Array[Pair], y: Array[f32], out: Array[vec3]):
    i = global_id().x
    w = v[i]
    w.x, w.y = w.y * x[i], w.x           # components, each value taken first
    p = ps[i]
    p.a, p.b = p.b, p.a * x[i]           # a struct local's fields
    tmp = local_array(f32, 2)
    tmp[0], tmp[1] = x[i] * 2.0, math.sin(x[i])
    y[i], out[i] = tmp[0] * tmp[1] + p.a * p.b, w * p.b


def unpacked_parts_f64(x, v, a, b, sy, so):
    w = v.copy()
    w[:, 0], w[:, 1] = v[:, 1] * x, v[:, 0]
    a, b = b, a * x
    y = x * 2.0 * np.sin(x) + a * b
    return float(np.sum(sy * y) + np.sum(so * w * b[:, None]))


@func
def soft64(x: f64, k: f64) -> f64:
    return math.log(1.0 + math.exp(k * x)) / k


@kernel
def energy64(x: Array[f64], y: Array[f32], out: Array[f64], e: Array[f64]):
    # f64 through a func, a loop of a constant count (its carried value kept in an f64
    # local array), min/max/abs/atan2/hypot/**, a choice, an f32 input converted to f64
    # (its adjoint converted back) and an f64 loss summed by atomic_add.
    i = global_id().x
    if i >= len(x):
        return
    v = x[i]
    w = f64(y[i])
    acc: f64 = 0.0
    for k in range(4):
        acc = acc * 0.5 + math.sin(v * f64(k + 1)) * w
        if acc > 0.75:
            acc = math.sqrt(acc)
    s = soft64(v, 3.0) + max(v, w * 0.5) + abs(v - 0.25) + min(v * v, 1.0) ** 1.5 + math.atan2(v, w + 2.0)
    out[i] = acc + s + math.hypot(v, w) + (v if v > w else w * w)
    atomic_add(e, 0, s * s)


def energy64_f64(x, y):
    """``energy64``'s (out[i], s * s) per element, in float64."""
    for v, w in zip(x, y):
        acc = 0.0
        for k in range(4):
            acc = acc * 0.5 + math.sin(v * (k + 1)) * w
            if acc > 0.75:
                acc = math.sqrt(acc)
        s = math.log(1.0 + math.exp(3.0 * v)) / 3.0 + max(v, w * 0.5) + abs(v - 0.25) + min(v * v, 1.0) ** 1.5 + math.atan2(v, w + 2.0)
        yield acc + s + math.hypot(v, w) + (v if v > w else w * w), s * s


@kernel
def springs64(p: Array[dvec3], rest: f64, e: Array[f64], f: Array[dvec3]):
    # Springs between neighbours in dvec3: an f64 energy (atomics on f64) and a force per
    # point (an Array[dvec3] written), each differentiated.
    i = global_id().x
    if i + 1 >= len(p):
        return
    d = p[i + 1] - p[i]
    n = length(d)
    u = normalize(d)
    atomic_add(e, 0, (n - rest) * (n - rest) + dot(cross(u, dvec3(0.0, 0.0, 1.0)), d) * 0.1)
    f[i] = u * (n - rest) + dvec3(d.y, -d.x, 0.0) * 0.25


def springs64_f64(p, rest, seed):
    d = p[1:] - p[:-1]
    n = np.linalg.norm(d, axis=1)
    u = d / n[:, None]
    e = np.sum((n - rest) ** 2 + np.sum(np.cross(u, [0.0, 0.0, 1.0]) * d, axis=1) * 0.1)
    f = u * (n - rest)[:, None] + np.stack([d[:, 1], -d[:, 0], np.zeros(len(d))], axis=1) * 0.25
    return e + float(np.sum(seed[:-1] * f))


@kernel
def dmatrices(p: Array[dvec3], q: Array[dvec3], ms: Array[dmat33], out: Array[dvec3], s: Array[f64]):
    # `matrices` in f64, with an Array[dmat33] read too (its adjoint a flat f64 array).
    i = global_id().x
    a = p[i]
    b = q[i]
    m = dmat33(a, b, cross(a, b) + dvec3(0.5, 0.0, 1.0)) + ms[i] * 0.25
    n = outer(a, b) * 0.5 + dmat33(2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0)
    r = (m @ n) @ a + b @ transpose(m) - inverse(n) @ b
    out[i] = r * determinant(m) + dvec3(m[1, 2], m[0][1], m[2, -3]) / 3.0
    k = dmat22(a.x, a.y, b.z, 1.5)
    s[i] = determinant(k) + (k @ dvec2(b.x, b.y)).y / 2.0


def dmatrices_f64(p, q, ms, w, ws):
    total = 0.0
    for i in range(len(p)):
        a, b = p[i], q[i]
        m = np.stack([a, b, np.cross(a, b) + [0.5, 0, 1]]) + ms[i] * 0.25
        n = np.outer(a, b) * 0.5 + np.eye(3) * 2
        r = (m @ n) @ a + b @ m.T - np.linalg.inv(n) @ b
        o = r * np.linalg.det(m) + np.array([m[1, 2], m[0, 1], m[2, 0]]) / 3
        k = np.array([[a[0], a[1]], [b[2], 1.5]])
        total += np.sum(w[i] * o) + ws[i] * (np.linalg.det(k) + (k @ b[:2])[1] / 2)
    return total


@kernel
def binned(p: Array[vec2], field: Array2D[f32], y: Array[f32]):
    # A grid lookup as hash-grid codes write it: the cell an ivec2 whose components are
    # clamped in place (in a branch too), the value read at it times the position.
    i = global_id().x
    q = p[i]
    cell = ivec2(int(q.x * 4.0), int(q.y * 4.0))
    cell.x = min(max(cell.x, 0), 3)
    cell[1] = min(max(cell[1], 0), 3)
    if q.x > q.y:
        cell.y += 0 if cell.y == 3 else 1
    y[i] = field[cell.y, cell.x] * q.x * q.x + q.y * f32(cell.x)


def binned_f64(p, field, seed):
    total = 0.0
    for (x, z), w in zip(p, seed):
        cx, cy = min(max(int(np.float32(x) * 4.0), 0), 3), min(max(int(np.float32(z) * 4.0), 0), 3)
        if x > z and cy != 3:
            cy += 1
        total += w * (field[cy, cx] * x * x + z * cx)
    return total


def lbm_f64(f, seed):
    """``shaders/lbm_d2q9.py``'s step in float64."""
    lbm = shader("lbm_d2q9")
    pulled = np.stack([np.roll(f[q], (cy, cx), (0, 1)) for q, (cx, cy) in enumerate(lbm.C)])
    rho = pulled.sum(0)
    ux = sum(pulled[q] * cx for q, (cx, cy) in enumerate(lbm.C)) / rho
    uy = sum(pulled[q] * cy for q, (cx, cy) in enumerate(lbm.C)) / rho
    usq = 1.5 * (ux * ux + uy * uy)
    out = np.zeros_like(f)
    for q, (cx, cy) in enumerate(lbm.C):
        cu = 3.0 * (cx * ux + cy * uy)
        feq = lbm.W[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq)
        out[q] = pulled[q] + lbm.OMEGA * (feq - pulled[q])
    return float(np.sum(out * seed))


@kernel(workgroup_size=8)
def tiled_sums(x: Array[f32], y: Array[f32], chunks: i32):
    # A 1-D tile at local_index(), each step's sum of squares weighted by the position.
    tile = shared_array(f32, 8)
    i = global_id().x
    s = 0.0
    for c in range(chunks):
        v = x[c * len(y) + i]
        tile[local_index()] = v * v
        barrier()
        for j in range(8):
            s = s * 0.5 + tile[j] * float(j + 1)
        barrier()
    y[i] = s


def tiled_sums_f64(x, n, chunks):
    y = np.zeros(n)
    for i in range(n):
        s, g = 0.0, i // 8 * 8
        for c in range(chunks):
            for j in range(8):
                s = s * 0.5 + x[c * n + g + j] ** 2 * (j + 1)
        y[i] = s
    return y


@kernel(workgroup_size=16)
def int_scan(x: Array[i32], out: Array[i32]):
    # An inclusive prefix sum of ints in shared memory: nothing to differentiate.
    a = shared_array(i32, 16)
    lid = local_id().x
    i = global_id().x
    a[lid] = x[i]
    barrier()
    offset = 1
    while offset < 16:
        t = a[lid - offset] if lid >= offset else 0
        barrier()
        a[lid] += t
        barrier()
        offset *= 2
    out[i] = a[lid]


@kernel
def gather_scaled(x: Array[f32], idx: Array[i32], y: Array[f32]):
    i = global_id().x
    y[i] = x[idx[i] % len(x)] * 2.0


@kernel
def both(a: Array[f32], b: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a[i] * b[(i + 1) % len(b)] * 3.0


@func
def safe_div(a: f32, b: f32) -> f32:
    if b == 0.0:
        return 0.0
    return a / b


@func
def first_big(v: f32) -> f32:
    s = v
    for k in range(5):
        s = s * 1.5
        if s > 4.0:
            return s - 1.0
    return s


@func
def grow(v: f32) -> f32:
    for k in range(6):
        if v > 3.0:
            break
        v = v * 1.5
    return v


@func
def bump(y: Array[f32], i: int, v: f32):
    for k in range(3):
        if v > 2.0:
            continue
        v = v * 2.0
    y[i] = v


@kernel
def func_loops(x: Array[f32], y: Array[f32], z: Array[f32]):
    i = global_id().x
    y[i] = grow(x[i])
    bump(z, i, x[i])


@kernel
def func_leaves(x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = safe_div(x[i], x[i] - 1.0) + first_big(x[i])


@kernel
def march_kernel(x: Array[f32], y: Array[f32]):
    i = global_id().x
    if i >= len(x):
        return
    p = x[i]
    t = 0.0
    for k in range(20):
        d = p * p - 1.0 + t
        if d > 0.0:
            if t > 0.5:
                y[i] = p * t
                return
            t = t + 0.1
            continue
        t = t + d * d
    y[i] = -p


@kernel
def nested_kernel(x: Array[f32], y: Array[f32]):
    i = global_id().x
    s = x[i]
    for a in range(4):
        for b in range(4):
            if s > 2.0:
                if b > 1:
                    break
                s = s * 0.9
                continue
            s = s * 1.3 + 0.1
        if s > 5.0:
            break
    y[i] = s


@func
def polar(p: vec2) -> tuple[f32, f32]:
    # A tuple returned from either branch: each part merged on its own.
    r = length(p)
    if r > 1.0:
        return r, math.atan2(p.y, p.x)
    return r * r, p.x


@kernel
def unpacked(x: Array2D[f32], y: Array[f32]):
    i = global_id().x
    h, w = x.shape
    r, a = polar(vec2(x[i, 0], x[i, 1]))
    y[i] = r * a + float(w) - float(h)


def unpacked_f64(x):
    r = np.hypot(x[:, 0], x[:, 1])
    out = np.where(r > 1.0, r * np.arctan2(x[:, 1], x[:, 0]), r * r * x[:, 0])
    return out + x.shape[1] - x.shape[0]


@kernel
def either(x: Array[f32], z: Array[f32], y: Array[f32]):
    # Python's values of `or` and `and` on floats: one of the operands.
    i = global_id().x
    y[i] = (x[i] or 2.0) * (z[i] and x[i] * 3.0) + (x[i] * z[i] or z[i] or 0.5)


TAPS = (0.25, 0.5, 0.25)


@kernel
def blurred(x: Array[f32], y: Array[f32]):
    # Loops over a module's constant tuple, plain and enumerated.
    i = global_id().x
    acc = 0.0
    for k, w in enumerate(TAPS):
        acc += w * x[min(i + k, len(x) - 1)] ** 2
    for w in TAPS:
        acc = acc * w + x[i]
    # Loops over literal tuples, nested as a stencil's offsets, and over literal rows.
    for dj in (-1, 0, 1):
        for dk in (0, 2):
            acc += x[(i + dj + dk + len(x)) % len(x)] * 0.125
    for (a, b) in ((0.5, 1.0), (-0.25, 2.0)):
        acc = acc * a + b * x[i]
    y[i] = acc


def blurred_f64(x):
    n = len(x)
    acc = sum(w * x[np.minimum(np.arange(n) + k, n - 1)] ** 2 for k, w in enumerate(TAPS))
    for w in TAPS:
        acc = acc * w + x
    for dj in (-1, 0, 1):
        for dk in (0, 2):
            acc = acc + x[(np.arange(n) + dj + dk + n) % n] * 0.125
    for a, b in ((0.5, 1.0), (-0.25, 2.0)):
        acc = acc * a + b * x
    return acc


@kernel
def math_constants(x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = 315.0 / (64.0 * math.pi) * x[i] ** 3 + math.tau * x[i] + math.e


@kernel
def after_loops(x: Array[f32], y: Array[f32], n: int):
    i = global_id().x
    j = 5
    s = x[i]
    for j in range(3):
        s = s + 1.0
    m = 7
    for m in range(n):
        s = s + 0.5
    q = 0
    for q in range(2, 9, 3):
        s = s * 1.0
        for q in range(4):
            s = s + 0.0
    y[i] = s * float(j) + s * float(m) + s * float(q)


LONG = 1030


@kernel
def long_loop(x: Array[f32], y: Array[f32]):
    i = global_id().x
    v = vec4(x[i])
    for k in range(LONG):
        v = v * 0.999 + vec4(0.001) * x[i]
    y[i] = dot(v, vec4(1.0, 2.0, 3.0, 4.0))


@kernel
def square_in_place(x: Array[f32]):
    i = global_id().x
    x[i] *= x[i]


@kernel
def step_in_place(x: Array[vec3], v: Array[vec3], dt: f32):
    i = global_id().x
    p = x[i]
    u = v[i]
    u.y -= 9.8 * dt
    if p.y < 0.0:
        u.y += -p.y * 200.0 * dt
    v[i] = u
    x[i] = p + u * dt


@kernel
def clear3(a: Array[vec3]):
    a[global_id().x] = vec3(0.0)


@kernel
def scale_into(x: Array[f32], y: Array[f32], s: f32):
    i = global_id().x
    y[i] = x[i] * s


@kernel
def shifted_into(x: Array[f32], y: Array[f32], k: i32):
    i = global_id().x
    y[i] = x[i + k] * 2.0


@kernel
def normalized(p: Array[vec3], out: Array[vec3]):
    i = global_id().x
    out[i] = normalize(p[i])


class Example(unittest.TestCase):
    """examples/python/bounce.py, small: the descent converges, and the python device
    computes the GPU's loss and gradient."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "python"))

    def test_bounce_converges(self):
        import bounce
        out = tempfile.mkdtemp(prefix="spirthon-bounce-")
        losses, _ = bounce.optimize(30, 3, out=out, verbose=False)
        self.assertLess(losses[-1], losses[0] / 100, losses)
        self.assertTrue(os.path.exists(os.path.join(out, "bounce_029.png")))
        self.assertTrue(os.path.exists(os.path.join(out, "bounce.png")))

    def test_bounce_gradient_on_both_devices(self):
        import bounce

        def run():
            start = np.float32([[0.1, 0.5], [0.1, 1.0]])
            throw = bounce.Throw(start, np.float32([[2.0, 0.5], [2.5, 0.3]]), 60, 1.0 / 60)
            v0 = spirthon.array(np.float32([[2.0, 2.5], [2.5, 1.0]]), vec2, requires_grad=True)
            loss, tape = throw.run(v0)
            tape.backward(throw.loss)
            return loss, v0.grad.numpy()

        gpu, cpu = on_both(run)
        self.assertAlmostEqual(gpu[0], cpu[0], delta=1e-5 * gpu[0])
        np.testing.assert_allclose(gpu[1], cpu[1], rtol=1e-4, atol=1e-5)


# ----- what would make a gradient wrong, refused with its line

BAD = {
    "read_after_write": ("""
        @kernel
        def read_after_write(x: Array[f32], y: Array[f32]):
            i = global_id().x
            x[i] = y[i] * 2.0
            y[i] = x[i] + 1.0
        """, "5:12", "`x` is read here after it was written at line 5"),
    "times_equal_in_a_loop": ("""
        @kernel
        def times_equal_in_a_loop(x: Array[f32], y: Array[f32]):
            i = global_id().x
            for k in range(3):
                y[i] *= x[i]
        """, "5:9", "`y` is written and read in this loop"),
    "while_else": ("""
        @kernel
        def while_else(x: Array[f32], y: Array[f32]):
            i = global_id().x
            v = x[i]
            while v > 1.0:
                v = v * 0.5
            else:
                v = v + 1.0
            y[i] = v
        """, "5:5", "a `while ... else`"),
    "unannotated_early_return": ("""
        @func
        def first_over(v):
            for k in range(5):
                if v > 4.0:
                    return v
                v = v * 1.5
            return v

        @kernel
        def unannotated_early_return(x: Array[f32], y: Array[f32]):
            i = global_id().x
            y[i] = first_over(x[i])
        """, "5:13", "returns before its end and its return type is not annotated"),
    "table_row_held_whole": ("""
        PAIRS = [(1.0, 2.0), (3.0, 4.0)]

        @kernel
        def table_row_held_whole(x: Array[f32], y: Array[f32]):
            i = global_id().x
            s = 0.0
            for row in PAIRS:
                s += x[i]
            y[i] = s
        """, "7:9", "a row of `PAIRS` held whole; unpack it"),
    "tile_written_in_part": ("""
        @kernel(workgroup_size=4)
        def tile_written_in_part(x: Array[f32], y: Array[f32]):
            tile = shared_array(f32, 4)
            i = global_id().x
            s = 0.0
            for c in range(3):
                if local_index() < 2:
                    tile[local_index()] = x[c * 4 + i]
                barrier()
                s += tile[3 - local_index()] * s
                barrier()
            y[i] = s
        """, "8:13", "`tile` is written and read in this loop"),
    "barrier_in_a_branch": ("""
        @kernel(workgroup_size=4)
        def barrier_in_a_branch(x: Array[f32], y: Array[f32]):
            tile = shared_array(f32, 4)
            i = global_id().x
            tile[local_index()] = x[i]
            s = 0.0
            if len(x) > 4:
                barrier()
                s = tile[3 - local_index()]
            y[i] = s
        """, "8:9", "a `barrier()` inside a branch or a func"),
    "struct_element_used_whole": ("""
        @struct
        class Pair:
            a: f32
            n: i32

        @kernel
        def struct_element_used_whole(ps: Array[Pair], y: Array[f32]):
            i = global_id().x
            p = ps[i]
            q = p if i > 0 else ps[0]
            y[i] = q.a
        """, "10:9", "`p` is used whole here, where the adjoints of its float fields would be lost"),
    "atomic_result": ("""
        @kernel
        def atomic_result(x: Array[f32], y: Array[f32], count: Array[i32]):
            i = global_id().x
            slot = atomic_add(count, 0, 1)
            y[slot] = x[i]
        """, "4:12", "the result of `atomic_add` is used"),
    "f16_values": ("""
        @kernel
        def f16_values(x: Array[f16], y: Array[f16]):
            i = global_id().x
            y[i] = x[i] * f16(2.0)
        """, "4:5", "arrays of f16, of its vectors or of its matrices"),
    "barrier_in_branch": ("""
        @kernel(workgroup_size=64)
        def barrier_in_branch(x: Array[f32], y: Array[f32]):
            tile = shared_array(f32, 64)
            tile[local_index()] = x[global_id().x]
            if x[0] > 0.0:
                barrier()
            y[global_id().x] = tile[63 - local_index()]
        """, "6:9", "a `barrier()` inside a branch"),
    "shared_rewritten": ("""
        @kernel(workgroup_size=64)
        def shared_rewritten(x: Array[f32], y: Array[f32]):
            tile = shared_array(f32, 64)
            tile[local_index()] = x[global_id().x]
            barrier()
            v = tile[63 - local_index()]
            barrier()
            tile[local_index()] = v * v
            barrier()
            y[global_id().x] = tile[local_index() ^ 1]
        """, "8:5", "`tile` is written here after it was read at line 7"),
    "local_prefix_sum": ("""
        @kernel
        def local_prefix_sum(x: Array[f32], y: Array[f32]):
            i = global_id().x
            run = local_array(f32, 8)
            run[0] = x[i]
            for k in range(1, 8):
                run[k] = run[k - 1] * x[i]
            y[i] = run[7]
        """, "7:9", "`run` is written here after it was read at line 8"),
    "unpacked_one": ("""
        @func
        def twice(v: f32) -> f32:
            return v * 2.0

        @kernel
        def unpacked_one(x: Array[f32], y: Array[f32]):
            i = global_id().x
            a, b = twice(x[i])
            y[i] = a * b
        """, "8:5", "unpacking `twice(x[i])` into 2 names: it returns one value"),
    "tuple_held": ("""
        @func
        def reset(x: Array[f32], i: i32) -> tuple[f32, f32]:
            x[i] = 0.0
            return 1.0, 2.0

        @kernel
        def tuple_held(x: Array[f32], y: Array[f32]):
            i = global_id().x
            t = reset(x, i)
            y[i] = 1.0
        """, "9:9", "`reset(x, i)` returns a tuple: unpack it"),
    "local_multiplied": ("""
        @kernel
        def local_multiplied(x: Array[f32], y: Array[f32]):
            i = global_id().x
            h = local_array(f32, 2)
            h[0] = x[i]
            h[0] *= x[i]
            y[i] = h[0]
        """, "6:5", "`*=` on an element of `h`: its adjoint needs the value it overwrites"),
    "local_in_one_loop": ("""
        @kernel
        def local_in_one_loop(x: Array[f32], y: Array[f32]):
            i = global_id().x
            buf = local_array(f32, 8)
            s = 0.0
            for k in range(8):
                buf[k] = x[i] * float(k)
                s = s + buf[(k + 3) % 8] * buf[k]
            y[i] = s
        """, "7:9", "`buf` is written and read in this loop"),
}


class Rules(unittest.TestCase):
    """Each rule violation is an ``AdjointError`` (a ``CompileError``) located at its line,
    raised when the kernel is launched on a tape, before it runs."""

    @classmethod
    def setUpClass(cls):
        folder = tempfile.mkdtemp(prefix="spirthon-grad-bad-")
        cls.mods = {}
        sys.path.insert(0, folder)
        try:
            for name, (text, _, _) in BAD.items():
                with open(os.path.join(folder, "bad_%s.py" % name), "w") as f:
                    f.write("from spirthon import *\n" + textwrap.dedent(text).lstrip("\n"))
                cls.mods[name] = importlib.import_module("bad_%s" % name)
        finally:
            sys.path.remove(folder)

    def test_compile_time_rules(self):
        for name, (text, where, words) in BAD.items():
            with self.subTest(name):
                k = [v for v in vars(self.mods[name]).values() if isinstance(v, spirthon.Kernel)][0]
                line, col = where.split(":")
                with self.assertRaises(AdjointError) as e:
                    k.adjoint
                msg = str(e.exception)
                self.assertIn("bad_%s.py:%d:%s: error: cannot differentiate kernel" % (name, int(line) + 1, col), msg)
                self.assertIn(words, msg)

    def test_refused_on_a_tape_before_it_runs(self):
        x, y = spirthon.array(np.ones(4, np.float32)), spirthon.array(np.ones(4, np.float32))
        with Tape():
            with self.assertRaises(AdjointError) as e:
                self.mods["read_after_write"].read_after_write.launch(4, x, y)
        self.assertIn("launched on a tape at %s:" % __file__, str(e.exception))
        self.assertEqual(list(x.numpy()), [1.0] * 4)  # it did not run

    def test_a_file_that_does_not_compile_says_so_first(self):
        # Its compile error, not what the differentiator makes of the broken code.
        folder = tempfile.mkdtemp(prefix="spirthon-grad-broken-")
        with open(os.path.join(folder, "grad_broken.py"), "w") as f:
            f.write("from typing import Any\nfrom spirthon import *\n\n\n@func\ndef sq(v: Any) -> Any:\n    return v * v\n\n\n"
                    "@kernel\ndef uses(x: Array[vec3], y: Array[f32]):\n    i = global_id().x\n    y[i] = dot(sq(x[i]), vec3(1.0))\n")
        sys.path.insert(0, folder)
        try:
            mod = importlib.import_module("grad_broken")
        finally:
            sys.path.remove(folder)

        def run():
            x = spirthon.array(np.ones((2, 3), np.float32), vec3, requires_grad=True)
            with Tape():
                with self.assertRaises(spirthon.CompileError) as e:
                    mod.uses.launch(2, x, spirthon.zeros(2))
            self.assertNotIsInstance(e.exception, AdjointError)
            self.assertIn("grad_broken.py:6:19", str(e.exception))

        on_both(run)

    def test_numpy_arrays_are_refused(self):
        with Tape():
            with self.assertRaisesRegex(TypeError, "a launch on a tape takes device arrays"):
                scale_into.launch(4, np.ones(4, np.float32), np.zeros(4, np.float32), 2.0)

    def test_a_later_launch_that_writes_what_an_earlier_read(self):
        # y = x*x, then x = y*y over x itself: the first launch's adjoint needs the x it
        # read (2 x0), which the second overwrote; the tape copied it before.
        x0 = np.array([1.0, 1.1, 0.9, 1.2], np.float32)

        def run():
            x = spirthon.array(x0, requires_grad=True)
            y = spirthon.zeros(4)
            loss = spirthon.zeros(1)
            with Tape() as tape:
                square_into.launch(4, x, y)
                square_into.launch(4, y, x)
                energy_1d.launch(4, x, loss)
            tape.backward(loss)
            return x.grad.numpy(), x.numpy()

        for grad, x in on_both(run):
            np.testing.assert_allclose(x, x0.astype(np.float64) ** 4, rtol=1e-6)
            np.testing.assert_allclose(grad, 8 * x0.astype(np.float64) ** 7, rtol=1e-5)

    def test_kernels_that_update_arrays_in_place(self):
        # x[i] *= x[i] twice: x0**4 in place, the adjoint reading the copy the tape kept
        # before each launch (2 x0, then 2 x0**2).
        x0 = np.array([1.0, 1.1, 0.9, 1.2], np.float32)

        def run():
            x = spirthon.array(x0, requires_grad=True)
            loss = spirthon.zeros(1)
            with Tape() as tape:
                square_in_place.launch(4, x)
                square_in_place.launch(4, x)
                energy_1d.launch(4, x, loss)
            tape.backward(loss)
            return x.grad.numpy(), float(loss.numpy()[0])

        for grad, loss in on_both(run):
            self.assertAlmostEqual(loss, float(np.sum(x0.astype(np.float64) ** 8)), delta=1e-5 * loss)
            np.testing.assert_allclose(grad, 8 * x0.astype(np.float64) ** 7, rtol=1e-5)

    def test_a_simulation_in_place(self):
        # Each step reads and writes x and v in place (a bounce off the ground on the way):
        # the gradient of the final distance to a target by the initial velocity, against
        # central differences of the same steps in float64.
        rng = np.random.default_rng(7)
        x0 = rng.uniform(0.1, 1, (6, 3)).astype(np.float32)
        v0 = rng.uniform(-1, 1, (6, 3)).astype(np.float32)
        dt, steps = 0.05, 12

        def simulate(v_init):
            x = spirthon.array(x0, vec3)
            v = spirthon.array(v_init, vec3, requires_grad=True)
            loss = spirthon.zeros(1)
            with Tape() as tape:
                for _ in range(steps):
                    step_in_place.launch(6, x, v, dt)
                energy.launch(6, x, vec3(0.5, 1.0, -0.25), loss)
            tape.backward(loss)
            return v.grad.numpy(), float(loss.numpy()[0])

        def f64(v_init):
            x, v = x0.astype(np.float64), v_init.reshape(6, 3).copy()
            for _ in range(steps):
                v = v + np.array([0.0, -9.8, 0.0]) * dt
                below = x[:, 1] < 0.0
                v[below, 1] += -x[below, 1] * 200.0 * dt
                x = x + v * dt
            return float(np.sum((x - np.array([0.5, 1.0, -0.25])) ** 2))

        want = central(f64, v0.astype(np.float64))
        for grad, loss in on_both(lambda: simulate(v0)):
            self.assertAlmostEqual(loss, f64(v0.astype(np.float64)), delta=1e-4 * abs(loss))
            np.testing.assert_allclose(grad, want, rtol=1e-3, atol=1e-4)

    def test_a_write_outside_the_tape_before_a_recorded_one(self):
        for dev in (None, "python"):
            spirthon.set_device(dev)
            try:
                x = spirthon.array(np.ones(4, np.float32), requires_grad=True)
                y = spirthon.zeros(4)
                with Tape() as tape:
                    square_into.launch(4, x, y)
                    x.update(np.full(4, 3.0, np.float32))  # not recorded
                    with self.assertRaisesRegex(RuntimeError, r"kernel `square_into` launched on a tape at .*test_autodiff.py:\d+: `x`, which the launch of `square_into` at .*test_autodiff.py:\d+ read, was written afterwards \(by update\(\)\), outside the tape"):
                        square_into.launch(4, y, x)
                self.assertEqual(len(tape.records), 1)
                self.assertEqual(list(x.numpy()), [3.0] * 4)  # it did not run
            finally:
                spirthon.set_device(None)

    def test_a_pass_that_keeps_no_gradient_is_refused(self):
        # No array the tape's launches took asks for a gradient (requires_grad forgotten):
        # a pass would compute gradients and keep none, so it is refused, naming the fix.
        x, y = spirthon.array(np.ones(4, np.float32)), spirthon.zeros(4)
        with Tape() as tape:
            scale_into.launch(4, x, y, 2.0)
        with self.assertRaisesRegex(ValueError, r"no array the recorded launches took was made with requires_grad=True.*spirthon.array\(a, requires_grad=True\)"):
            tape.backward(grads={y: np.ones(4, np.float32)})
        self.assertIsNone(x.grad)

    def test_a_write_outside_the_tape_is_found_at_backward(self):
        for dev in (None, "python"):
            spirthon.set_device(dev)
            try:
                x = spirthon.array(np.ones(4, np.float32), requires_grad=True)
                y = spirthon.zeros(4, requires_grad=True)
                with Tape() as tape:
                    scale_into.launch(4, x, y, 2.0)
                scale_into.launch(4, y, x, 0.5)  # not recorded: x changes under the tape
                with self.assertRaisesRegex(RuntimeError, r"`x`, which the launch of `scale_into` at .* read, was written afterwards \(the launch of `scale_into` at .*test_autodiff.py:\d+\)"):
                    tape.backward(grads={y: np.ones(4, np.float32)})
                # Refused before anything ran: no gradient is half made.
                self.assertEqual(np.count_nonzero(x.grad.numpy()) + np.count_nonzero(y.grad.numpy()), 0)
                x.update(np.ones(4, np.float32))
                with self.assertRaisesRegex(RuntimeError, r"was written afterwards \(by update\(\)\)"):
                    tape.backward(grads={y: np.ones(4, np.float32)})
            finally:
                spirthon.set_device(None)

    def test_a_write_outside_the_tape_to_an_array_it_wrote(self):
        # x = 3 w on the tape, then x overwritten by something the tape did not record, then
        # the loss of x on the tape: the gradient by w is 0, not 18 w, so backward refuses,
        # naming the array, the launch that wrote it and the write, and runs nothing.
        import threading
        wrote = r"`y`, which the launch of `scale_into` at .*test_autodiff.py:\d+ wrote, was written afterwards \(%s\), outside the tape%s"
        read = r"`y`, which the launch of `energy_1d` at .*test_autodiff.py:\d+ read, was written afterwards \(%s\), outside the tape:"
        other = r"the launch of `scale_into` at .*test_autodiff.py:\d+"
        before = r", before the launch of `energy_1d` at .*test_autodiff.py:\d+"

        def elsewhere(c, x):
            t = threading.Thread(target=lambda: scale_into.launch(2, c, x, 1.0))
            t.start()
            t.join()

        def nested(c, x):
            with Tape():
                scale_into.launch(2, c, x, 1.0)

        writes = [("update", lambda c, x: x.update(np.full(2, 5.0, np.float32)), r"by update\(\)"),
                  ("nested tape", nested, other + ", recorded on another tape"),
                  ("thread", elsewhere, other)]
        if spirthon.gpu._native is not None:
            writes.append(("timed", lambda c, x: spirthon.gpu.time_launches(scale_into, 2, (c, x, 1.0), 1),
                           "the timed launches of `scale_into`"))

        def tape_with(write, after=False):
            w = spirthon.array(np.ones(2, np.float32), requires_grad=True)
            x, loss = spirthon.zeros(2), spirthon.zeros(1)
            c = spirthon.array(np.full(2, 5.0, np.float32))
            with Tape() as tape:
                scale_into.launch(2, w, x, 3.0)
                if write is not None and not after:
                    write(c, x)
                energy_1d.launch(2, x, loss)
            if after:  # between the tape and backward
                write(c, x)
            return tape, w, loss

        def run():
            tape, w, loss = tape_with(None)
            tape.backward(loss)
            self.assertEqual(list(w.grad.numpy()), [18.0, 18.0])
            for name, write, writer in writes:
                if name == "timed" and spirthon.device() == "python":
                    continue
                with self.subTest(name, device=spirthon.device()):
                    tape, w, loss = tape_with(write)
                    with self.assertRaisesRegex(RuntimeError, "tape.backward\\(\\): " + wrote % (writer, before)):
                        tape.backward(loss)
                    self.assertEqual(list(w.grad.numpy()), [0.0, 0.0])
                    tape, w, loss = tape_with(write, after=True)
                    with self.assertRaisesRegex(RuntimeError, read % writer):
                        tape.backward(loss)
                    self.assertEqual(list(w.grad.numpy()), [0.0, 0.0])

        on_both(run)

    def test_a_write_outside_the_tape_while_it_is_not_recording(self):
        # The same tape entered twice: a launch between, which it did not record, overwrote
        # what its first launch wrote and its second reads.
        def run():
            w = spirthon.array(np.ones(2, np.float32), requires_grad=True)
            x, loss = spirthon.zeros(2), spirthon.zeros(1)
            tape = Tape()
            with tape:
                scale_into.launch(2, w, x, 3.0)
            scale_into.launch(2, spirthon.array(np.full(2, 5.0, np.float32)), x, 1.0)
            with tape:
                energy_1d.launch(2, x, loss)
            with self.assertRaisesRegex(RuntimeError, r"`y`, which the launch of `scale_into` at .* wrote, was written afterwards \(the launch of `scale_into` at .*test_autodiff.py:\d+\), outside the tape, before the launch of `energy_1d`"):
                tape.backward(loss)

        on_both(run)

    def test_a_launch_on_the_tape_that_raised(self):
        # A checked launch that fails is not recorded, but the invocations that ran wrote:
        # backward refuses the array, naming the launch that raised.
        def run():
            w = spirthon.array(np.ones(2, np.float32), requires_grad=True)
            x, loss = spirthon.zeros(2), spirthon.zeros(1)
            with Tape() as tape:
                scale_into.launch(2, w, x, 3.0)
                with self.assertRaises(spirthon.CheckError):
                    shifted_into.launch_checked(2, spirthon.array(np.full(2, 5.0, np.float32)), x, 1)  # x[1] = c[2]
                energy_1d.launch(2, x, loss)
            self.assertEqual(list(x.numpy()), [10.0, 3.0])
            with self.assertRaisesRegex(RuntimeError, r"`y`, which the launch of `scale_into` at .* wrote, was written afterwards \(the launch of `shifted_into` at .*test_autodiff.py:\d+, which raised and was not recorded\)"):
                tape.backward(loss)

        on_both(run)

    def test_arguments_changed_in_place_after_a_recorded_launch(self):
        # The tape keeps a recorded launch's vector, matrix and struct arguments as it took
        # them: the program changing them in place afterwards (the NumPy array given for a
        # vec3, a vec3's component, a matrix's entry, a struct's field) changes no gradient.
        def run():
            x = spirthon.array(np.ones((2, 3), np.float32), vec3, requires_grad=True)
            loss = spirthon.zeros(1)
            d, v = np.array([1.0, 2.0, 3.0], np.float32), vec3(1.0, 1.0, 1.0)
            m, w = mat22(1.0, 0.5, 0.0, 1.0), World(gravity=vec3(0.0, 0.0, 0.0), damping=2.0)
            with Tape() as tape:
                weighted_by.launch(2, x, d, m, w, loss)
                weighted_by.launch(2, x, v, m, w, loss)
            d[0], v.x, m[0, 1], w.damping = 100.0, 100.0, 100.0, 100.0
            tape.backward(loss)
            return x.grad.numpy()

        for grad in on_both(run):
            np.testing.assert_allclose(grad, [[4.0, 6.0, 8.0]] * 2, rtol=1e-6)  # 2 x (d + v) m01 damping

    def test_a_pass_stopped_part_way_leaves_the_gradients_as_they_were(self):
        # Ctrl-C (or a checked launch's error) between two adjoint launches: `.grad` is put
        # back as the pass found it, not left with half a pass added.
        def run():
            x = spirthon.array(np.ones(4, np.float32), requires_grad=True)
            y = spirthon.zeros(4, requires_grad=True)
            z = spirthon.zeros(4)
            with Tape() as tape:
                scale_into.launch(4, x, y, 2.0)
                scale_into.launch(4, y, z, 3.0)
            tape.backward(grads={z: np.ones(4, np.float32)})
            before = x.grad.numpy().copy(), y.grad.numpy().copy()
            np.testing.assert_allclose(before[0], [6.0] * 4)
            adjoint, calls = scale_into.adjoint, []

            def interrupted(*args):
                calls.append(args)
                if len(calls) == 2:
                    raise KeyboardInterrupt
                return type(adjoint).launch(adjoint, *args)

            adjoint.launch = interrupted
            try:
                with self.assertRaises(KeyboardInterrupt):
                    tape.backward(grads={z: np.ones(4, np.float32)})
            finally:
                del adjoint.launch
            self.assertEqual(len(calls), 2)
            np.testing.assert_array_equal(x.grad.numpy(), before[0])
            np.testing.assert_array_equal(y.grad.numpy(), before[1])
            tape.backward(grads={z: np.ones(4, np.float32)})  # a whole pass adds again
            np.testing.assert_allclose(x.grad.numpy(), [12.0] * 4)

        on_both(run)

    def test_without_the_native_module_writes_are_seen_by_their_contents(self):
        # The python device without the compiler to say what a kernel writes: the arrays
        # whose contents changed count as written, and only those.
        native = spirthon.gpu._native
        spirthon.set_device("python")
        spirthon.gpu._native = None
        try:
            x = spirthon.array(np.full(4, 2.0, np.float32), requires_grad=True)
            y = spirthon.zeros(4)
            loss = spirthon.zeros(1)
            with Tape() as tape:
                scale_into.launch(4, x, y, 3.0)
                energy_1d.launch(4, y, loss)
            tape.backward(loss)
            np.testing.assert_allclose(x.grad.numpy(), [36.0] * 4)  # d(sum (3x)^2)/dx = 18x
            scale_into.launch(4, y, x, 0.5)
            with self.assertRaisesRegex(RuntimeError, "`x`, which the launch of `scale_into` at .* read, was written afterwards"):
                tape.backward(loss)
        finally:
            spirthon.gpu._native = native
            spirthon.set_device(None)

    def test_overwritten_values_get_no_gradient(self):
        # y is written twice on the tape: the first values never reach the loss.
        def run():
            x = spirthon.array(np.full(3, 2.0, np.float32), requires_grad=True)
            z = spirthon.array(np.full(3, 5.0, np.float32), requires_grad=True)
            y = spirthon.zeros(3, requires_grad=True)
            with Tape() as tape:
                scale_into.launch(3, x, y, 3.0)
                scale_into.launch(3, z, y, 7.0)
            tape.backward(grads={y: np.ones(3, np.float32)})
            return x.grad.numpy(), z.grad.numpy(), y.grad.numpy()

        for xg, zg, yg in on_both(run):
            self.assertEqual(list(xg), [0.0] * 3)
            self.assertEqual(list(zg), [7.0] * 3)
            self.assertEqual(list(yg), [0.0] * 3)  # y's contents before the tape were overwritten

    def test_requires_grad_only_for_float_arrays(self):
        with self.assertRaisesRegex(TypeError, "gradients are of f32 and f64 arrays, of their vectors and matrices and of quats"):
            spirthon.zeros(3, spirthon.i32, requires_grad=True)
        # Every element type the differentiator gives adjoints (the launch path's list is
        # spirthon.arrays.GRADIENT_TYPES, below autodiff): each takes requires_grad.
        from spirthon.autodiff.rules import DIFF
        for name in DIFF:
            self.assertTrue(spirthon.zeros(3, getattr(spirthon, name), requires_grad=True).requires_grad, name)
        # Structs: those with a float field (nested too); not those of ints alone.
        self.assertTrue(spirthon.zeros(3, Body, requires_grad=True).requires_grad)
        with self.assertRaisesRegex(TypeError, "and of structs with fields of f32 and its vectors and matrices or quats, not of Edge ones"):
            spirthon.zeros(3, Edge, requires_grad=True)

    def test_the_command_prints_an_adjoint(self):
        import subprocess
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        run = lambda *args: subprocess.run([sys.executable, "-m", "spirthon", "adjoint", __file__] + list(args),
                                           capture_output=True, text=True, env=env, timeout=120)
        ok = run("--kernel", "normalized")
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertRegex(ok.stdout, r"^import spirthon as (_ad\d*_)sp\n")
        self.assertRegex(ok.stdout, r"def (_ad\d*_)normalized\(")
        several = run()
        self.assertEqual(several.returncode, 2)
        self.assertIn("name one with --kernel", several.stderr)
        missing = run("--kernel", "nope")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("has no kernel `nope`", missing.stderr)

    def test_the_adjoint_is_readable_source(self):
        # Its names take a prefix that no name of the file starts with (this file holds `_ad_`).
        text = normalized.adjoint_source
        self.assertRegex(text, r"def (_ad\d*_)normalized\(p: \1sp.Array\[\1sp.vec3\], out: \1sp.Array\[\1sp.vec3\], \1adj_p")
        self.assertRegex(text, r"(_ad\d*_)sp.atomic_add\(\1adj_p")


if __name__ == "__main__":
    unittest.main()

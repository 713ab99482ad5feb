"""Tests of the CPython reference executor (standard library unittest)."""

import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from spirthon import Array, f32, i32, u32, kernel, func, global_id, local_id, local_index  # noqa: E402
from spirthon import barrier, shared_array, vec3  # noqa: E402
from spirthon.__main__ import InputError, run  # noqa: E402
import spirthon  # noqa: E402


def ref(kernel, threads, *args):
    """A launch on the reference executor itself: some kernels here are ones the compiler
    rejects (they record what the executor does), which `launch` refuses."""
    kernel.reference_launch(threads, args, {})


def ref_checked(kernel, threads, *args):
    kernel.reference_launch(threads, args, {}, True)


def setUpModule():
    # These tests are of the reference executor: launches run there, whatever devices exist.
    spirthon.set_device("python")


def tearDownModule():
    spirthon.set_device(None)


class Types(unittest.TestCase):
    def test_conversions_wrap_and_round(self):
        self.assertEqual(i32(2 ** 31), -(2 ** 31))
        self.assertEqual(i32(-1.9), -1)
        self.assertEqual(u32(-1), 2 ** 32 - 1)
        self.assertEqual(f32(0.1), 0.10000000149011612)
        self.assertEqual(f32(1e40), math.inf)

    def test_arrays_store_their_element_type(self):
        a = Array(i32, [0, 0])
        a[0] = 2 ** 31 + 5
        self.assertEqual(a[0], -(2 ** 31) + 5)
        f = Array(f32, 2)
        f[1] = 0.1
        self.assertEqual(f[1], f32(0.1))
        with self.assertRaises(TypeError):
            a[1] = 1.5

    def test_vec3_arrays(self):
        """A func may take a shared ``Array[vec3]``, and a kernel a buffer of 3-vectors, one-
        or two-dimensional, given as NumPy's ``(N, 3)`` or lists of three numbers."""
        from spirthon import Array2D, vec3

        out = Array(f32, 4)
        ref(shared_points, 4, out)
        self.assertEqual([out[k] for k in range(4)], [3.0] * 4)
        self.assertEqual(repr(Array2D[vec3]), "Array2D[vec3]")
        pts = Array(vec3, [[1, 2, 3], [4, 5, 6]])
        ys = Array(f32, 2)
        ref(second_components, 2, pts, ys)
        self.assertEqual([ys[0], ys[1]], [2.0, 5.0])

    def test_negative_indices_are_out_of_bounds(self):
        a = Array(f32, 4, name="x")
        with self.assertRaises(IndexError) as e:
            a[-1]
        self.assertIn("'x'", str(e.exception))
        with self.assertRaises(IndexError):
            a[4] = 1.0


@kernel
def second_components(points: Array[vec3], ys: Array[f32]):
    i = global_id().x
    ys[i] = points[i].y


@func
def last_y(t: Array[vec3]) -> f32:
    return t[len(t) - 1].y


@kernel(workgroup_size=4)
def shared_points(out: Array[f32]):
    tile = shared_array(vec3, 4)
    tile[local_index()] = vec3(1.0, float(local_index()), 0.0)
    barrier()
    out[local_index()] = last_y(tile)


@func
def twice(v: f32) -> f32:
    return v * 2.0


@kernel(workgroup_size=4)
def scale(a: f32, x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = twice(a * x[i])


order = []


@kernel(workgroup_size=(2, 2))
def record(out: Array[i32]):
    x, y, _ = global_id()
    lx, ly, _ = local_id()
    order.append((x, y))
    out[y * 3 + x] = local_index() * 10 + lx + ly


# Kernels of the Typed tests (module constants as the compiler types them).
LIMIT = 0.02
GAIN: f32 = 0.1
TRIPLE = GAIN * 3


@func
def pcg(v: u32) -> u32:
    state = v * 747796405 + 2891336453
    word = ((state >> ((state >> 28) + 4)) ^ state) * 277803737
    return (word >> 22) ^ word


@func
def to_float(k: f32) -> f32:
    return k / 3


@kernel
def typed_values(x: Array[f32], flags: Array[i32], hashes: Array[u32], lcg: Array[u32],
                 f: Array[f32], ints: Array[i32]):
    i = global_id().x
    flags[i] = 1 if x[i] < LIMIT else 0
    hashes[i] = pcg(u32(i))
    s = 12345
    for _ in range(3):
        s = s * 1103515245 + 12345
    lcg[i] = u32(s)
    acc = 0.0
    for _ in range(10):
        acc = acc + 0.1
    f[0] = acc
    f[1] = TRIPLE
    f[2] = to_float(1)
    f[3] = x[i] ** 3
    y = 0.5
    y = i
    f[4] = y / 2
    ints[0] = int(2.5 * x[i] * 1e9 % 7)
    ints[1] = round(x[i] * 1000.0)
    ints[2] = len(x) * 2000000000


class Layering(unittest.TestCase):
    """The package's modules import one another one way (docs/architecture.md): the API
    (``api``) uses the launch path (``gpu``) and the reference executor (``runtime``), which
    do not use it or each other; arrays use structs, which use matrices, which use
    vectors, which use the scalar types. An import
    inside a function counts as well."""

    BELOW = {
        "errors": {"_library"},
        "scalars": set(),
        "files": set(),
        "types": {"scalars"},
        "vectors": {"scalars", "types"},
        "matrices": {"scalars", "types", "vectors"},
        "structs": {"scalars", "types", "vectors", "matrices"},
        "arrays": {"scalars", "types", "vectors", "matrices", "structs"},
        "source": {"errors"},
        "typed": {"_library", "scalars", "types", "vectors", "matrices", "structs", "arrays", "source", "errors"},
        "runtime": {"_library", "typed", "vectors", "matrices", "arrays", "errors", "scalars", "types", "source"},
        "gpu": {"_library", "source", "errors", "arrays", "types", "vectors", "matrices", "structs", "scalars", "_native",
                "files"},
        "runjson": {"_library", "types", "vectors", "matrices", "structs", "scalars"},
    }

    def test_imports_go_one_way(self):
        import ast
        package = os.path.join(HERE, "..", "spirthon")
        wrong = []
        for name, allowed in self.BELOW.items():
            with open(os.path.join(package, name + ".py")) as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    used = [node.module] if node.module else [a.name for a in node.names]
                    for u in used:
                        if u.split(".")[0] not in allowed:
                            wrong.append("%s imports %s" % (name, u))
        self.assertEqual(wrong, [])


class Operators(unittest.TestCase):
    """The executor's values against the operator table the compiler follows
    (``_library.BINARY``/``UNARY``, from crates/spirthon-ir/src/operators.rs): every operator
    on every pair of operand kinds. Where the compiler accepts, the executor gives a result of
    the same kind; where it refuses, the executor raises (or, see ``excused``, computes by
    Python's own rules)."""

    def operands(self):
        from spirthon.scalars import F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, LitF, LitI
        return {"i32": I32(5), "u32": U32(7), "f32": F32(1.5), "f64": F64(2.25), "bool": True,
                "i8": I8(-3), "u8": U8(200), "i16": I16(-300), "u16": U16(60000), "f16": F16(0.75),
                "i64": I64(-(2 ** 40)), "u64": U64(66),
                "int": LitI(3), "negint": LitI(-2), "float": LitF(2.5)}

    @staticmethod
    def kind(v):
        from spirthon.scalars import F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, LitF, LitI
        # CPython's complex result (a negative literal to a fractional power) is what the
        # compiler refuses.
        names = {I32: "i32", U32: "u32", F32: "f32", F64: "f64", bool: "bool", LitI: "int", LitF: "float",
                 I8: "i8", U8: "u8", I16: "i16", U16: "u16", F16: "f16", I64: "i64", U64: "u64",
                 complex: None}
        return names.get(type(v), type(v).__name__)

    @staticmethod
    def excused(op, kinds):
        """Refused by the compiler, computed here by Python's own rules: bools are Python's
        bools (``True + 1``), a negative literal meets an unsigned int as Python's int does,
        and two int types compare exactly. A launch compiles the kernel first, so the
        compiler's refusal is what a user sees."""
        ints = {"i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64"}
        unsigned = {"u32", "u8", "u16", "u64"}
        return ("bool" in kinds or ("negint" in kinds and set(kinds) & unsigned)
                or (op in ("<", "<=", ">", ">=", "==", "!=") and set(kinds) <= ints
                    and len(set(kinds)) == 2))

    def test_every_operator_on_every_kind(self):
        from spirthon import _library
        values = self.operands()
        disagree = []
        for op, rows in _library.BINARY.items():
            for a, row in rows.items():
                for b, want in zip(_library.KINDS, row):
                    expr = "a %s b" % op
                    try:
                        got = self.kind(eval(expr, {}, {"a": values[a], "b": values[b]}))
                    except TypeError:
                        got = None
                    except ValueError:
                        # CPython's error for these values (a negative shift count, a math
                        # domain error): a constant fault the compiler refuses, or the IEEE
                        # value the GPU gives (docs/language.md, "Errors").
                        continue
                    if got != want and not (want is None and self.excused(op, (a, b))):
                        disagree.append("%s %s %s: table %s, executor %s" % (a, op, b, want, got))
        for op, row in _library.UNARY.items():
            for a, want in zip(_library.KINDS, row):
                try:
                    with warnings.catch_warnings():
                        # `~True` (CPython 3.12+ deprecates it; the language refuses it)
                        warnings.simplefilter("ignore", DeprecationWarning)
                        got = self.kind(eval("%s a" % op, {}, {"a": values[a]}))
                except TypeError:
                    got = None
                if got != want and not (want is None and self.excused(op, (a,))):
                    disagree.append("%s %s: table %s, executor %s" % (op, a, want, got))
        self.assertEqual(disagree, [], "\n".join(disagree))


@func
def _blend(a: f32, b: f32, t: f32 = 0.1, n: i32 = 2) -> f32:
    return a * (1.0 - t) + b * t * f32(n)


@func
def _three(x: f32):
    if x > 0.0:
        return 3
    return 4


@func
def _pair(x: f32):
    return 2, 0.1


class Typed(unittest.TestCase):
    """The reference executor computes in the kernel's types (spirthon.scalars)."""

    def test_unannotated_funcs_return_the_inferred_types(self):
        """A func without a return annotation types a returned literal as the compiler
        infers it: an i32 (so `// 2` floors as an int), a float32 (0.1 rounded)."""
        r = _three(1.0)
        self.assertIs(type(r), type(i32(0)))
        self.assertEqual(r // 2, 1)
        a, b = _pair(1.0)
        self.assertIs(type(a), type(i32(0)))
        self.assertEqual(b, f32(0.1))
        self.assertNotEqual(float(b), 0.1)

    def test_funcs_take_keywords_and_defaults_converted_to_their_types(self):
        """A func called from Python binds keywords and defaults as Python does, and each
        argument (a default too) is converted to its parameter's type."""
        r = _blend(1.0, b=3.0)
        self.assertIs(type(r), type(f32(0.0)))
        self.assertEqual(r, f32(f32(1.0) * (f32(1.0) - f32(0.1)) + f32(3.0) * f32(0.1) * f32(2)))
        self.assertEqual(_blend(b=3.0, a=1.0, n=1, t=0.5), f32(2.0))
        with self.assertRaises(TypeError):
            _blend(1.0, 2.0, w=0.5)

    def run_it(self):
        x = Array(f32, [0.02])
        out = {n: Array(t, 8) for n, t in (("flags", i32), ("hashes", u32), ("lcg", u32), ("f", f32), ("ints", i32))}
        ref(typed_values, 1, x, *out.values())
        return {n: a.tolist() for n, a in out.items()}

    def test_constants_meet_float32_values_as_float32(self):
        out = self.run_it()
        self.assertEqual(out["flags"][0], 0)  # float32's 0.02 is not below float32's 0.02
        self.assertEqual(out["f"][1], f32(f32(0.1) * 3))  # the annotated constant at f32, then folded

    def test_ints_wrap_after_every_operation(self):
        out = self.run_it()
        s = 12345
        for _ in range(3):
            s = i32(s * 1103515245 + 12345)
        self.assertEqual(out["lcg"][0], u32(s))
        state = u32(0 * 747796405 + 2891336453)
        word = u32(((state >> ((state >> 28) + 4)) ^ state) * 277803737)
        self.assertEqual(out["hashes"][0], (word >> 22) ^ word)
        self.assertEqual(out["ints"][2], i32(2000000000))

    def test_floats_round_after_every_operation(self):
        out = self.run_it()
        acc = f32(0.0)
        for _ in range(10):
            acc = f32(acc + f32(0.1))
        self.assertEqual(out["f"][0], acc)
        self.assertNotEqual(acc, sum([0.1] * 10))
        x = f32(0.02)
        self.assertEqual(out["f"][3], f32(f32(x * x) * x))
        self.assertEqual(out["f"][2], f32(1.0 / 3.0))  # the i32 argument became f32
        self.assertEqual(out["f"][4], 0.0)  # `y` stays f32 after `y = i`

    def test_values_print_and_compare_as_numbers(self):
        from spirthon.scalars import F32, I32, LitF, LitI
        self.assertEqual(str(f32(0.1)), "0.1")
        self.assertEqual(f32(0.1) + 0.2, f32(f32(0.1) + f32(0.2)))
        self.assertIs(type(I32(3) * LitI(4)), I32)
        self.assertIs(type(LitI(1) / LitI(3)), LitF)
        self.assertIs(type(LitF(0.5) * I32(3)), F32)
        with self.assertRaises(TypeError):
            I32(1) + u32(1)
        self.assertEqual(json.dumps([f32(0.5), i32(-1)]), "[0.5, -1]")

    def test_tracebacks_and_locals_are_the_users(self):
        @kernel
        def divides(out: Array[i32]):
            i = global_id().x
            z = i - i
            out[i] = 7 // z

        # Kernels defined inside a function (and one the compiler rejects) run on the
        # reference executor itself; `launch` refuses both.
        try:
            divides.reference_launch(1, (Array(i32, 1),), {})
            self.fail("no ZeroDivisionError")
        except ZeroDivisionError as e:
            frames = __import__("traceback").extract_tb(e.__traceback__)
        mine = [f for f in frames if os.path.samefile(f.filename, __file__)]
        self.assertEqual(mine[-1].line, "out[i] = 7 // z")

        @kernel
        def unbound(out: Array[i32]):
            i = global_id().x
            if i > 5:
                w = 1
            out[i] = w

        with self.assertRaises(UnboundLocalError):
            unbound.reference_launch(1, (Array(i32, 1),), {})


from spirthon import Array2D  # noqa: E402


@kernel(workgroup_size=4)
def python_spellings(x: Array[float], grid: Array2D[int], n: int, counts: Array[u32]):
    # `float`/`int` element types, as the compiler takes them; u32 indices into a buffer, a
    # shared array and an atomic, which the GPU takes as it takes i32 ones.
    i = u32(global_id().x)
    tile = shared_array(float, 4)
    tile[local_id().x] = x[i] * 2.0
    barrier()
    x[i] = tile[(local_id().x + 1) % 4] + f32(grid[u32(0), i % u32(2)] + n)
    atomic_add(counts, i % u32(2), u32(1))


class Launch(unittest.TestCase):
    def test_python_element_spellings_and_u32_indices(self):
        x = Array(f32, [1.0, 2.0, 3.0, 4.0])
        grid = Array(i32, [10, 20], shape=(1, 2))
        counts = Array(u32, 2)
        python_spellings.reference_launch(4, (x, grid, 5, counts), {})
        self.assertEqual(x.tolist(), [4.0 + 15, 6.0 + 25, 8.0 + 15, 2.0 + 25])
        self.assertEqual(counts.tolist(), [2, 2])

    def test_launch_runs_every_thread_once(self):
        out = Array(f32, 6)
        ref(scale, 6, 1.5, Array(f32, [1, 2, 3, 4, 5, 6]), out)
        self.assertEqual(out.tolist(), [3.0, 6.0, 9.0, 12.0, 15.0, 18.0])

    def test_guard_and_order(self):
        del order[:]
        out = Array(i32, 9)
        ref(record, (3, 3), out)
        # Workgroups in x-major order; invocations outside 3x3 are skipped.
        self.assertEqual(len(order), 9)
        self.assertEqual(order[:4], [(0, 0), (1, 0), (0, 1), (1, 1)])
        self.assertEqual(out[4], 30 + 2)

    def test_calling_a_kernel_directly_is_an_error(self):
        with self.assertRaises(TypeError):
            scale(1.0, Array(f32, 1), Array(f32, 1))

    def test_thread_ids_outside_a_launch(self):
        with self.assertRaises(RuntimeError):
            global_id()


from spirthon import (  # noqa: E402
    DeadlockError, atomic_add, barrier, ivec2, shared_array, vec2, vec3, dot, normalize,
)
from spirthon import barrier as sync  # noqa: E402


@kernel(workgroup_size=4)
def reverse(out: Array[i32], hits: Array[i32]):
    tile = shared_array(i32, 4)
    lid = local_id().x
    i = global_id().x
    tile[lid] = i
    barrier()
    out[i] = tile[3 - lid]
    atomic_add(hits, 0, 1)


@kernel(workgroup_size=4)
def early_return(out: Array[i32]):
    lid = local_id().x
    if lid == 2:
        return
    barrier()
    out[lid] = 1


@kernel(workgroup_size=8)
def reverse_synced(out: Array[i32], hits: Array[i32]):
    tile = shared_array(i32, 8)
    i = local_id().x
    tile[i] = i
    sync()
    out[i] = tile[7 - i]


@kernel(workgroup_size=4)
def split_barriers(out: Array[i32]):
    lid = local_id().x
    if lid < 2:
        barrier()
    else:
        barrier()
    out[lid] = 1


class Workgroups(unittest.TestCase):
    def test_shared_arrays_and_barriers(self):
        out, hits = Array(i32, 8), Array(i32, 1)
        ref(reverse, 8, out, hits)
        self.assertEqual(out.tolist(), [3, 2, 1, 0, 7, 6, 5, 4])
        self.assertEqual(hits[0], 8)

    def test_an_invocation_that_returned_takes_no_part_in_later_barriers(self):
        # As the compiled kernel keeps it, inactive: the others pass the barrier.
        out = Array(i32, 4)
        ref(early_return, 4, out)
        self.assertEqual(out.tolist(), [1, 1, 0, 1])

    def test_a_barrier_imported_under_another_name(self):
        out, hits = Array(i32, 8), Array(i32, 8)
        ref(reverse_synced, 8, out, hits)
        self.assertEqual(out.tolist(), [7, 6, 5, 4, 3, 2, 1, 0])

    def test_invocations_at_different_barriers_are_a_deadlock(self):
        with self.assertRaises(DeadlockError) as cm:
            ref(split_barriers, 4, Array(i32, 4))
        self.assertIn("different barrier() calls", str(cm.exception))


from spirthon import CheckError  # noqa: E402


@kernel(workgroup_size=4)
def neighbours(x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = x[i + 1] - x[i]


@kernel(workgroup_size=4)
def stop_early(tile_out: Array[i32]):
    tile = shared_array(i32, 4)
    lid = local_id().x
    tile[lid] = lid * 10
    barrier()
    tile_out[lid] = 100 // (2 - lid) + tile[3 - lid]


TAPS = (0.25, 0.5, 2.0)


@kernel
def tail_taps(x: Array[i32], y: Array[f32]):
    i = global_id().x
    y[i] = TAPS[-1] + TAPS[-len(TAPS)] + TAPS[x[i]]


class Checked(unittest.TestCase):

    def test_constant_negative_table_index_counts_from_the_end(self):
        """``TAPS[-1]`` is the last item in checked mode too (as compiled); a negative index
        computed at run time is out of range there, as the GPU's checks say."""
        y = Array(f32, 2)
        ref_checked(tail_taps, 2, Array(i32, [0, 2]), y)
        self.assertEqual([y[0], y[1]], [2.5, 4.25])
        with self.assertRaises(CheckError) as cm:
            ref_checked(tail_taps, 2, Array(i32, [0, -1]), y)
        self.assertEqual(str(cm.exception.error), "index -1 out of range for 'TAPS' (len 3; negative indices do not wrap)")

    def test_a_gpu_report_whose_record_was_lost_is_kept_as_worded(self):
        text = "a check failed (its record was overwritten by later failures)\n  in invocation global_id (3, 0, 0), workgroup_id (0, 0, 0), local_id (3, 0, 0): the first of 70 failing invocations"
        e = CheckError.from_report("k.py", text, 70, None, "global_id (3, 0, 0), workgroup_id (0, 0, 0), local_id (3, 0, 0)")
        self.assertEqual(str(e), text)
        self.assertIsNone(e.error)
        self.assertEqual(e.count, 70)
        located = CheckError.from_report("k.py", "ignored", 2, ("IndexError: index 9 out of range for 'x' (len 4)", 7, 12), "global_id (1, 0, 0), workgroup_id (0, 0, 0), local_id (1, 0, 0)")
        self.assertEqual(str(located), "IndexError: index 9 out of range for 'x' (len 4) at k.py:7:12\n  in invocation global_id (1, 0, 0), workgroup_id (0, 0, 0), local_id (1, 0, 0): the first of 2 failing invocations")
        self.assertIsInstance(located.error, IndexError)
    def test_the_first_failure_and_the_count_are_reported(self):
        y = Array(f32, 6)
        with self.assertRaises(CheckError) as cm:
            ref_checked(neighbours, 6, Array(f32, [1, 2, 3, 4, 5, 6]), y)
        e = cm.exception
        self.assertIsInstance(e.error, IndexError)
        self.assertEqual(e.count, 1)
        self.assertEqual(str(e.error), "index 6 out of range for 'x' (len 6)")
        self.assertTrue(str(e).endswith("in invocation global_id (5, 0, 0), workgroup_id (1, 0, 0), local_id (1, 0, 0): the only failing invocation"), str(e))
        # Python 3.9 and 3.10 have no column information (co_positions): column 1 there.
        column = 12 if sys.version_info >= (3, 11) else 1
        self.assertIn("test_reference.py:%d:%d" % (neighbours.fn.__code__.co_firstlineno + 3, column), str(e))
        # The other invocations ran; the failing one stopped before its store.
        self.assertEqual(y.tolist()[:5], [1.0] * 5)
        self.assertEqual(y[5], 0.0)

    def test_a_failed_invocation_leaves_its_workgroup_past_the_barrier(self):
        out = Array(i32, 4)
        with self.assertRaises(CheckError) as cm:
            ref_checked(stop_early, 4, out)
        self.assertIsInstance(cm.exception.error, ZeroDivisionError)
        self.assertEqual(cm.exception.count, 1)
        self.assertEqual(out.tolist(), [50 + 30, 100 + 20, 0, -100 + 0])

    def test_launch_without_checks_raises_as_python_does(self):
        with self.assertRaises(IndexError):
            ref(neighbours, 6, Array(f32, [1, 2, 3, 4, 5, 6]), Array(f32, 6))


class Vectors(unittest.TestCase):
    def test_vectors_are_python_numbers_per_component(self):
        v = vec2(7, -7)
        self.assertEqual((v // 2).tolist(), [3.0, -4.0])
        self.assertEqual((ivec2(7, -7) % 3).tolist(), [1, 2])
        self.assertEqual((ivec2(2147483647, 0) + 1).x, -2147483648)
        self.assertEqual(v.yx.tolist(), [-7.0, 7.0])
        self.assertEqual(vec3(v, 1).tolist(), [7.0, -7.0, 1.0])
        self.assertEqual(dot(ivec2(1, 2), ivec2(3, 4)), 11)
        self.assertAlmostEqual(normalize(vec2(3, 4)).x, 0.6)
        with self.assertRaises(TypeError):
            vec3(1.0, 2.0)
        with self.assertRaises(TypeError):
            ivec2(1.5, 2)
        with self.assertRaises(TypeError):
            v < v

    def test_array_elements_are_copies(self):
        a = Array(vec2, [[1, 2]])
        v = a[0]
        v.x = 5.0
        self.assertEqual(a.tolist(), [[1.0, 2.0]])
        a[0] = v
        self.assertEqual(a.tolist(), [[5.0, 2.0]])

    def test_every_name_the_compiler_accepts_is_exported(self):
        import spirthon
        from spirthon import _library
        self.assertGreater(len(_library.SPIRTHON), 30)
        missing = [n for n in _library.SPIRTHON if not hasattr(spirthon, n)]
        self.assertEqual(missing, [])

    def test_the_executors_math_is_the_compilers(self):
        from spirthon import _library, typed
        for name in list(_library.MATH) + list(_library.MATH_CONSTANTS):
            self.assertTrue(hasattr(typed.MATH, name), name)
        public = [n for n in vars(typed.MATH) if not n.startswith("_")]
        self.assertEqual(sorted(public), sorted(list(_library.MATH) + list(_library.MATH_CONSTANTS)))


def kernel_file(body):
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as fh:
        fh.write(textwrap.dedent(body))
    return path


SAXPY = """
from spirthon import kernel, Array, f32, global_id

@kernel
def saxpy(a: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a * x[i] + y[i]
"""


class RunJson(unittest.TestCase):
    def test_run_matches_the_contract(self):
        path = kernel_file(SAXPY)
        out = run(path, {"threads": [3], "args": {"a": 2, "x": [1.0, 2.0, "inf"], "y": {"zeros": 3}}})
        self.assertEqual(out, {"kernel": "saxpy", "args": {"x": [1.0, 2.0, "inf"], "y": [2.0, 4.0, "inf"]}})

    def test_bad_arguments_name_the_argument(self):
        path = kernel_file(SAXPY)
        cases = [
            ({"threads": [3], "args": {"x": [1.0], "y": [1.0]}}, "argument `a` is missing"),
            ({"threads": [3], "args": {"a": 1.0, "x": [1.0], "y": [1.0], "z": 1}}, "`z`"),
            ({"threads": [3], "args": {"a": "no", "x": [1.0], "y": [1.0]}}, "`a`"),
            ({"threads": "many", "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}, "threads"),
            ({"kernel": "other", "threads": [1], "args": {}}, "no kernel named `other`"),
        ]
        for inputs, needle in cases:
            with self.assertRaises(InputError) as e:
                run(path, inputs)
            self.assertIn(needle, str(e.exception))

    def test_command_line(self):
        path = kernel_file(SAXPY)
        fd, inputs = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as fh:
            json.dump({"threads": [2], "args": {"a": 3.0, "x": [1.0, 2.0], "y": [0.5, 0.5]}}, fh)
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
        r = subprocess.run([sys.executable, "-m", "spirthon", "run", path, "--inputs", inputs], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["args"]["y"], [3.5, 6.5])
        with open(inputs, "w") as fh:
            fh.write("{not json")
        r = subprocess.run([sys.executable, "-m", "spirthon", "run", path, "--inputs", inputs], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not valid JSON", r.stderr)


if __name__ == "__main__":
    unittest.main()

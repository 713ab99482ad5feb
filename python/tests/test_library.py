"""The library under hostile use: launches from several threads, the same memory passed
twice, a kernel file edited after import, odd arguments, a corrupt compile cache, long
launches interrupted or timed out, the device switch, and memory over many launches. Every
case either computes with its own arguments or refuses with a clear error; none gives a
wrong result. They need the native module and NumPy: without them they skip, unless
SPIRTHON_REQUIRE_NATIVE=1 makes that a failure."""

import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
sys.path.insert(0, PACKAGE)

import spirthon  # noqa: E402
from spirthon import (  # noqa: E402
    Array, Array2D, CompileError, f32, i32, u32, ivec2, vec2, kernel, func, global_id,
)
from spirthon import gpu  # noqa: E402
from test_gpu import import_text  # noqa: E402

try:
    import numpy as np
except ImportError:
    np = None

REQUIRED = os.environ.get("SPIRTHON_REQUIRE_NATIVE") == "1"


def setUpModule():
    missing = None
    if gpu._native is None:
        missing = "the native module is not built (%s)" % gpu._NATIVE_ERROR
    elif np is None:
        missing = "NumPy is not installed"
    if missing and REQUIRED:
        raise RuntimeError("SPIRTHON_REQUIRE_NATIVE=1 but %s" % missing)
    if missing:
        raise unittest.SkipTest(missing)
    spirthon.set_device(None)


@kernel
def fill(n: i32, out: Array[i32]):
    i = global_id().x
    out[i] = n * 1000 + i


@kernel
def axpb(a: f32, b: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a * x[i] + b


@kernel
def offsets(o: ivec2, out: Array[i32]):
    i = global_id().x
    out[i] = o.x * i + o.y


@kernel
def grid_scale(s: f32, g: Array2D[f32]):
    x, y, _ = global_id()
    h, w = g.shape
    if y < h and x < w:
        g[y, x] = g[y, x] * s


@kernel
def copy_into(src: Array[i32], dst: Array[i32]):
    i = global_id().x
    dst[i] = src[i] + 1


@kernel
def add_both(a: Array[i32], b: Array[i32], out: Array[i32]):
    i = global_id().x
    out[i] = a[i] + b[i]


@kernel
def churn(n: i32, out: Array[f32]):
    i = global_id().x
    s = out[i]
    for k in range(n):
        s = s * 0.5 + 1.0
    out[i] = s


def hammer(tid, launches, wrong, device_arrays):
    """`launches` launches of three kernels with sizes and scalars of their own."""
    rng = np.random.default_rng(tid)
    for k in range(launches):
        n = int(rng.integers(1, 300))
        v = tid * 1000 + k
        kind = k % 3
        if kind == 0:
            if device_arrays:
                d = spirthon.zeros(n, i32)
                fill.launch(n, v, d)
                out = d.numpy()
            else:
                out = np.full(n, -1, dtype=np.int32)
                fill.launch(n, v, out)
            ok = np.array_equal(out, v * 1000 + np.arange(n, dtype=np.int32))
        elif kind == 1:
            x = rng.random(n).astype(np.float32)
            a, b = np.float32(tid + 1), np.float32(k)
            y = np.zeros(n, dtype=np.float32)
            if device_arrays:
                dy = spirthon.array(y)
                axpb.launch(n, a, b, spirthon.array(x), dy)
                y = dy.numpy()
            else:
                axpb.launch(n, a, b, x, y)
            ok = np.array_equal(y, a * x + b)
        else:
            out = np.zeros(n, dtype=np.int32)
            offsets.launch(n, (tid + 2, k), out)
            ok = np.array_equal(out, (tid + 2) * np.arange(n, dtype=np.int32) + k)
        if not ok:
            wrong.append((tid, k, kind))


class Threads(unittest.TestCase):
    def run_threads(self, count, launches):
        wrong = []
        errors = []

        def body(t):
            try:
                hammer(t, launches, wrong, t % 2 == 0)
            except BaseException as e:  # noqa: B902 (reported below)
                errors.append(e)

        ts = [threading.Thread(target=body, args=(t,)) for t in range(count)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(wrong, [], "%d of %d launches computed with another launch's arguments" % (len(wrong), count * launches))

    def test_every_launch_sees_its_own_arguments_on_the_gpu(self):
        self.run_threads(4, 200)

    def test_and_on_the_python_device(self):
        spirthon.set_device("python")
        try:
            self.run_threads(4, 12)
        finally:
            spirthon.set_device(None)


class Aliasing(unittest.TestCase):
    def each_device(self):
        for name in (None, "python"):
            spirthon.set_device(name)
            yield name
        spirthon.set_device(None)

    def test_one_numpy_array_for_two_parameters_the_kernel_writes_through(self):
        for device in self.each_device():
            with self.subTest(device=device):
                a = np.arange(8, dtype=np.int32)
                for src, dst in [(a, a), (a[:6], a[2:]), (a.reshape(2, 4)[0], a[:4])]:
                    before = a.copy()
                    with self.assertRaises(ValueError) as e:
                        copy_into.launch(4, src, dst)
                    self.assertIn("share memory", str(e.exception))
                    self.assertIn("'dst'", str(e.exception))
                    np.testing.assert_array_equal(a, before)

    def test_separate_parts_and_arrays_only_read_are_fine(self):
        for device in self.each_device():
            with self.subTest(device=device):
                a = np.arange(8, dtype=np.int32)
                copy_into.launch(4, a[:4], a[4:])
                np.testing.assert_array_equal(a, [0, 1, 2, 3, 1, 2, 3, 4])
                out = np.zeros(8, dtype=np.int32)
                add_both.launch(8, a, a, out)
                np.testing.assert_array_equal(out, 2 * a)

    def test_one_array_object_twice(self):
        for device in self.each_device():
            with self.subTest(device=device):
                a = Array(i32, [1, 2, 3, 4])
                with self.assertRaises(ValueError):
                    copy_into.launch(4, a, a)
                self.assertEqual(a.tolist(), [1, 2, 3, 4])


MODULE = """\
from spirthon import kernel, Array, i32, global_id


@kernel
def edited(out: Array[i32]):
    i = global_id().x
    out[i] = i + 1
"""

EDITED = """\
from spirthon import kernel, Array, i32, global_id


@kernel
def edited(k: i32, out: Array[i32]):
    i = global_id().x
    out[i] = i * k
"""


class EditedFiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        sys.path.insert(0, self.dir)
        self.path = os.path.join(self.dir, "edited_kernels.py")
        with open(self.path, "w") as f:
            f.write(MODULE)
        sys.modules.pop("edited_kernels", None)

    def tearDown(self):
        sys.path.remove(self.dir)
        sys.modules.pop("edited_kernels", None)
        spirthon.set_device(None)

    def edit(self):
        with open(self.path, "w") as f:
            f.write(EDITED)
        # Another size, so that no stale check is fooled by the same mtime.
        os.utime(self.path, (time.time() + 5, time.time() + 5))

    def test_a_kernel_runs_the_code_it_was_imported_with(self):
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                sys.modules.pop("edited_kernels", None)
                with open(self.path, "w") as f:
                    f.write(MODULE)
                mod = importlib.import_module("edited_kernels")
                self.edit()
                out = np.zeros(4, dtype=np.int32)
                mod.edited.launch(4, out)  # the imported signature and body
                np.testing.assert_array_equal(out, [1, 2, 3, 4])
                mod = importlib.reload(mod)
                mod.edited.launch(4, 3, out)  # the new ones, once imported again
                np.testing.assert_array_equal(out, [0, 3, 6, 9])

    def test_a_text_that_is_not_the_code_that_runs_is_refused(self):
        mod = importlib.import_module("edited_kernels")
        # As if the file changed between CPython compiling it and the decorator reading it.
        mod.edited.source = spirthon.source.Source(self.path, EDITED)
        out = np.zeros(4, dtype=np.int32)
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                with self.assertRaises(CompileError) as e:
                    mod.edited.launch(4, out)
                self.assertIn("changed while the file was being imported", str(e.exception))
        np.testing.assert_array_equal(out, [0, 0, 0, 0])


REBOUND = """
from spirthon import kernel, func, Array, f32, global_id

SCALE = 2.0
TABLE = (1.0, 2.0)
OFFSETS = [0.5, 1.5]
UNUSED = 7


@func
def weight(i: int) -> f32:
    return TABLE[i % 2]


@kernel
def scaled(x: Array[f32]):
    i = global_id().x
    x[i] = SCALE * weight(i) + OFFSETS[i % 2]
"""


class ReboundConstants(unittest.TestCase):
    """A kernel is compiled with its module's constants as the file writes them; a program
    that binds one to another value afterwards gets an error on every device, never the
    file's value on the GPU and the new one on the executor."""

    def setUp(self):
        self.mod = import_text(self, "rebound_kernels", REBOUND)

    def test_a_rebound_constant_is_refused_on_every_device(self):
        for name, value in (("SCALE", 3.0), ("TABLE", (5.0, 6.0)), ("SCALE", 2)):
            for device in (None, "python"):
                with self.subTest(name=name, value=value, device=device):
                    spirthon.set_device(device)
                    old = getattr(self.mod, name)
                    setattr(self.mod, name, value)
                    x = np.zeros(4, dtype=np.float32)
                    try:
                        with self.assertRaises(CompileError) as e:
                            self.mod.scaled.launch(4, x)
                    finally:
                        setattr(self.mod, name, old)
                    self.assertIn("`%s` is %r now" % (name, value), str(e.exception))
                    np.testing.assert_array_equal(x, [0, 0, 0, 0])

    def test_a_list_constant_changed_in_place_is_refused(self):
        self.mod.OFFSETS[1] = 9.0
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                with self.assertRaises(CompileError) as e:
                    self.mod.scaled.launch(4, np.zeros(4, dtype=np.float32))
                self.assertIn("`OFFSETS` is [0.5, 9.0] now", str(e.exception))
        self.mod.OFFSETS[1] = 1.5

    def test_constants_as_written_or_unused_ones_changed_run_alike(self):
        self.mod.UNUSED = 8
        self.mod.TABLE = (1.0, 2.0)  # another tuple, the same value
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                x = np.zeros(4, dtype=np.float32)
                self.mod.scaled.launch(4, x)
                np.testing.assert_array_equal(x, [2.5, 5.5, 2.5, 5.5])


class Arguments(unittest.TestCase):
    def test_a_float_for_any_integer_is_one_error(self):
        out = np.zeros(4, dtype=np.int32)
        for bad in [(4.5, 1), (4, 1.0), np.array([1.5, 2.0], dtype=np.float32)]:
            with self.assertRaises(TypeError) as e:
                offsets.launch(4, bad, out)
            self.assertIn("'o'", str(e.exception))
            self.assertIn("float", str(e.exception))
        with self.assertRaises(TypeError) as e:
            fill.launch(4, 4.5, out)
        self.assertIn("'n'", str(e.exception))
        with self.assertRaises(TypeError) as e:
            fill.launch(4, np.float64(4.0), out)
        self.assertIn("'n'", str(e.exception))
        with self.assertRaises(TypeError) as e:
            fill.launch(4, True, out)
        self.assertIn("bool", str(e.exception))
        np.testing.assert_array_equal(out, [0, 0, 0, 0])

    def test_numbers_out_of_range_name_the_argument(self):
        out = np.zeros(4, dtype=np.int32)
        with self.assertRaises(OverflowError) as e:
            fill.launch(4, 2 ** 31, out)
        self.assertIn("'n'", str(e.exception))
        with self.assertRaises(OverflowError) as e:
            axpb.launch(4, 10 ** 400, 0.0, np.zeros(4, dtype=np.float32), np.zeros(4, dtype=np.float32))
        self.assertIn("'a'", str(e.exception))

    def test_numpy_integers_count_and_floats_do_not(self):
        d = spirthon.zeros(np.int64(4), i32)
        self.assertEqual(d.shape, (4,))
        d = spirthon.zeros((np.int32(2), 3), f32)
        self.assertEqual(d.shape, (2, 3))
        out = np.zeros(4, dtype=np.int32)
        fill.launch(np.int64(4), np.int32(7), out)
        np.testing.assert_array_equal(out, 7000 + np.arange(4))
        for bad in [4.0, "4", (4.0,), True]:
            with self.assertRaises(TypeError) as e:
                spirthon.zeros(bad)
            self.assertIn("shape", str(e.exception))
        for bad in ["64", 4.0, [1.5], None, True]:
            with self.assertRaises(TypeError) as e:
                fill.launch(bad, 1, out)
            self.assertIn("threads", str(e.exception))
            self.assertNotIn("('6', '4')", str(e.exception))

    def test_a_wrong_dtype_names_the_parameters_own_type(self):
        with self.assertRaises(TypeError) as e:
            grid_scale.launch((2, 2), 1.0, np.zeros((2, 2)))
        self.assertIn("Array2D[f32]", str(e.exception))
        self.assertIn("'g'", str(e.exception))

    def test_a_kernel_defined_in_a_function_says_so(self):
        @kernel
        def inner(out: Array[i32]):
            out[global_id().x] = 1

        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                with self.assertRaises(CompileError) as e:
                    inner.launch(1, np.zeros(1, dtype=np.int32))
                text = str(e.exception)
                self.assertIn("`inner` is defined inside", text)
                self.assertNotIn("has no `@kernel`", text)
        spirthon.set_device(None)


class Cache(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.env = os.environ.get("SPIRTHON_CACHE_DIR")
        os.environ["SPIRTHON_CACHE_DIR"] = self.dir

    def tearDown(self):
        if self.env is None:
            os.environ.pop("SPIRTHON_CACHE_DIR", None)
        else:
            os.environ["SPIRTHON_CACHE_DIR"] = self.env

    def fresh(self):
        """Forget what this process compiled, as a new process would."""
        gpu._modules.clear()
        for k in (fill, axpb):
            k.__dict__.pop("_gpu_plans", None)

    def entry(self):
        self.fresh()
        out = np.zeros(4, dtype=np.int32)
        fill.launch(4, 3, out)
        np.testing.assert_array_equal(out, 3000 + np.arange(4))
        files = [os.path.join(self.dir, f) for f in os.listdir(self.dir)]
        self.assertEqual(len(files), 1, files)
        with open(files[0], "rb") as f:
            return files[0], f.read()

    def test_a_corrupt_entry_costs_a_compile_never_a_wrong_result(self):
        path, good = self.entry()
        header, _, body = good.partition(b"\n")
        line2, _, rest = body.partition(b"\n")
        spirv = good.index(rest)
        reflection = rest[json.loads(line2)["words"]:]
        corruptions = {
            "truncated": good[:-40],
            "truncated with the magic kept": good[:len(header) + len(line2) + 2 + 24],
            "a flipped byte": good[:spirv + 30] + bytes([good[spirv + 30] ^ 1]) + good[spirv + 31:],
            "reflection []": good.replace(reflection, b"[]"),
            "no bindings": good.replace(reflection, reflection.replace(b'"bindings"', b'"bindings": [], "was"')),
            "empty": b"",
            "a changed offset": good.replace(b'"offset":0', b'"offset":4'),
            "not an entry": b"\x03\x02\x23\x07" * 10,
        }
        for what, data in corruptions.items():
            with self.subTest(corruption=what):
                with open(path, "wb") as f:
                    f.write(data)
                _, again = self.entry()  # compiled again, and the entry rewritten
                self.assertEqual(again, good)


SPIN = """\
import signal
import sys
import time
import numpy as np
import spirthon
from spirthon import kernel, Array, f32, i32, global_id


@kernel
def spin(n: i32, out: Array[f32]):
    i = global_id().x
    s = 0.0
    for k in range(n):
        s = s * 0.999 + 1.0
    out[i] = s


if __name__ == "__main__":
    out = np.zeros(1 << 18, dtype=np.float32)
    spin.launch(1, 10, out[:1].copy())
    if sys.argv[1] in ("timeout", "queue"):
        spirthon.set_timeout(1.0)
    signalled = []

    def on_sigint(signum, frame):
        signalled.append(time.time())
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, on_sigint)
    print("ready", flush=True)
    t = time.time()
    try:
        if sys.argv[1] == "queue":
            # Recorded, then more launches than the queue holds, behind it.
            spin.launch(out.size, 60000, spirthon.array(out))
            small = spirthon.zeros(1, f32)
            for k in range(100000):
                spin.launch(1, 1, small)
        elif sys.argv[1] in ("exit", "sync"):
            # Minutes on lavapipe: the process must end long before the launch does.
            big = spirthon.zeros(1 << 25, f32)
            spin.launch(1 << 25, 60000, big)
            if sys.argv[1] == "sync":
                spirthon.synchronize()
        else:
            spin.launch(out.size, 60000, out)
        print("finished", flush=True)
    except KeyboardInterrupt:
        # From the signal's arrival to the KeyboardInterrupt: the child's own report.
        print("interrupted %.2f" % (time.time() - signalled[0]), flush=True)
    except TimeoutError as e:
        print("timed out %.2f %s" % (time.time() - t, e), flush=True)
"""


class Waiting(unittest.TestCase):
    """A launch of seconds on lavapipe, of minutes for the end of a program (less on a GPU:
    then a test has nothing to interrupt, and says so)."""

    def start(self, mode):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "spin.py")
        with open(path, "w") as f:
            f.write(SPIN)
        env = dict(os.environ, PYTHONPATH=PACKAGE)
        p = subprocess.Popen([sys.executable, path, mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.assertEqual(p.stdout.readline().strip(), "ready")
        return p

    def ended(self, p):
        """The child's output once it has ended (read through the pipes' buffers, which may
        hold more than the line `start` read: communicate() would skip it); a child still
        running after two minutes (the guard against a hang) fails the test and is killed."""
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            self.fail("the program was still running two minutes later")
        return p.stdout.read(), p.stderr.read()

    def test_ctrl_c_interrupts_a_long_launch(self):
        p = self.start("sigint")
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=300)
        if out.startswith("finished"):
            self.skipTest("the launch finished within a second: nothing to interrupt")
        self.assertTrue(out.startswith("interrupted"), out + err)
        # The child's own measure, not this process's clock; the launch takes about a minute
        # on lavapipe, so a wait for it to end would show, and a loaded machine has room.
        took = float(out.split()[1])
        self.assertLess(took, 20.0, "the interrupt waited for the launch: " + out)
        self.assertEqual(p.returncode, 0, err)

    def test_a_program_ends_without_waiting_for_the_device(self):
        # It ends (the guard is minutes shorter than the launch on lavapipe), with no message.
        p = self.start("exit")
        out, err = self.ended(p)
        self.assertEqual((out, p.returncode), ("finished\n", 0), err)
        self.assertNotIn("spirthon:", err)

    def test_a_program_interrupted_in_synchronize_ends(self):
        p = self.start("sync")
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        out, err = self.ended(p)
        self.assertTrue(out.startswith("interrupted"), out + err)
        self.assertLess(float(out.split()[1]), 20.0, "the interrupt waited for the launch: " + out)
        self.assertEqual(p.returncode, 0, err)

    def test_a_launch_past_the_time_limit_raises(self):
        p = self.start("timeout")
        out, err = p.communicate(timeout=300)
        if out.startswith("finished"):
            self.skipTest("the launch finished within a second")
        self.assertTrue(out.startswith("timed out"), out + err)
        took = float(out.split()[2])
        # A second, then the next 100 ms slice (more on a loaded machine: the bound has
        # room); the launch itself takes about a minute.
        self.assertLess(took, 20.0)
        self.assertIn("`spin`", out)
        self.assertIn("no progress within 1 s", out)

    def test_a_launch_waiting_for_room_behind_a_stuck_device_raises(self):
        p = self.start("queue")
        out, err = p.communicate(timeout=300)
        if out.startswith("finished"):
            self.skipTest("the launches finished at once")
        self.assertTrue(out.startswith("timed out"), out + err)
        self.assertIn("operations are queued on the device, and it made no progress within 1 s", out)

    def test_timeouts_are_numbers(self):
        for bad in [-1, "5", True]:
            with self.assertRaises(ValueError):
                spirthon.set_timeout(bad)
        before = spirthon.get_timeout()
        try:
            spirthon.set_timeout(None)
            self.assertIsNone(spirthon.get_timeout())
            spirthon.set_timeout(2.5)
            self.assertEqual(spirthon.get_timeout(), 2.5)
        finally:
            spirthon.set_timeout(before)
        spirthon.synchronize(timeout=30)


WORKERS = """\
import multiprocessing
import os
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import spirthon
from spirthon import kernel, Array, f32, global_id


@kernel
def axpb(a: f32, b: f32, x: Array[f32], y: Array[f32]):
    i = global_id().x
    y[i] = a * x[i] + b


def chunk(k, launched=axpb):
    x = np.arange(100 * k, 100 * k + 100, dtype=np.float32)
    y = np.zeros_like(x)
    launched.launch(x.size, 2.0, 1.0, x, y)
    return spirthon.device(), y


def report(results):
    for k, (_, y) in enumerate(results):
        if not np.array_equal(y, 2 * np.arange(100 * k, 100 * k + 100, dtype=np.float32) + 1):
            print("wrong", k, flush=True)
    print("ok", sorted(set(d.split(" ")[0] for d, _ in results)), flush=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode != "fork-first":
        chunk(0)  # the parent opens its device
    if mode in ("spawn", "fork-first"):
        ctx = multiprocessing.get_context("fork" if mode == "fork-first" else mode)
        with ctx.Pool(2) as pool:
            report(pool.map(chunk, range(6)))
        with ProcessPoolExecutor(2, mp_context=ctx) as ex:
            # The kernel itself pickled, as an argument.
            report(list(ex.map(chunk, range(6), [axpb] * 6)))
    elif mode == "fork":
        ctx = multiprocessing.get_context("fork")
        for start in (ctx.Pool, lambda n: ProcessPoolExecutor(n, mp_context=ctx)):
            try:
                with start(2) as pool:
                    list(pool.map(chunk, range(6)))
                print("not refused", flush=True)
            except RuntimeError as e:
                print("refused:", e, flush=True)
        with ctx.Pool(2, initializer=spirthon.set_device, initargs=("python",)) as pool:
            report(pool.map(chunk, range(6)))
    elif mode == "os.fork":
        held = spirthon.array(np.arange(4, dtype=np.float32))
        pid = os.fork()
        if pid == 0:
            if sys.argv[2:] == ["array"]:
                try:
                    held.numpy()
                    print("not refused", flush=True)
                except RuntimeError as e:
                    print("refused:", e, flush=True)
            sys.exit(0)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status), flush=True)
    elif mode == "pickle":
        print(pickle.dumps(axpb).hex(), flush=True)
    print("end", chunk(1)[1][0], flush=True)
"""


class Processes(unittest.TestCase):
    """Kernels launched from other processes: spawn-started pools work (each process opens
    its own device); a child forked after its parent opened a device refuses at once, naming
    spawn, and ends at once; the python device works in it; forked before, it opens its own."""

    def run_workers(self, *args):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "workers.py")
        with open(path, "w") as f:
            f.write(WORKERS)
        env = dict(os.environ, PYTHONPATH=PACKAGE)
        # The timeout guards against a hang only.
        p = subprocess.run([sys.executable, path] + list(args), capture_output=True, text=True, env=env, cwd=d, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertNotIn("wrong", p.stdout)
        self.assertNotIn("spirthon:", p.stderr)
        self.assertTrue(p.stdout.endswith("end 201.0\n"), p.stdout + p.stderr)
        return p.stdout.splitlines(), path

    def test_spawned_workers_launch_on_devices_of_their_own(self):
        lines, _ = self.run_workers("spawn")
        self.assertEqual([l.split()[0] for l in lines], ["ok", "ok", "end"], lines)
        self.assertNotIn("python", lines[0])

    def test_workers_forked_before_the_first_launch_open_their_own(self):
        lines, _ = self.run_workers("fork-first")
        self.assertEqual([l.split()[0] for l in lines], ["ok", "ok", "end"], lines)

    def test_workers_forked_after_it_refuse_naming_spawn(self):
        lines, _ = self.run_workers("fork")
        self.assertEqual([l.split()[0] for l in lines], ["refused:", "refused:", "ok", "end"], lines)
        for line in lines[:2]:
            self.assertIn("is a fork of it", line)
            self.assertIn("do not survive os.fork()", line)
            self.assertIn("multiprocessing.get_context('spawn')", line)
        self.assertEqual(lines[2], "ok ['python']")

    def test_a_forked_child_ends_at_once_and_refuses_its_parents_arrays(self):
        lines, _ = self.run_workers("os.fork")
        self.assertEqual(lines, ["child 0", "end 201.0"])
        lines, _ = self.run_workers("os.fork", "array")
        self.assertEqual([l.split()[0] for l in lines], ["refused:", "child", "end"], lines)
        self.assertIn("'spawn'", lines[0])

    def test_a_kernel_of_a_script_unpickles_in_a_process_that_never_ran_it(self):
        # As a dask worker gets one: its __main__ is not the script, which is run as
        # __mp_main__, as multiprocessing's spawn runs it.
        lines, path = self.run_workers("pickle")
        code = textwrap.dedent("""\
            import pickle, sys
            import numpy as np
            k = pickle.loads(bytes.fromhex(sys.argv[1]))
            x = np.arange(5, dtype=np.float32)
            y = np.zeros_like(x)
            k.launch(5, 3.0, 1.0, x, y)
            print(k.name, y.tolist(), sorted(m for m in sys.modules if m.endswith("_main__")))
            """)
        env = dict(os.environ, PYTHONPATH=PACKAGE)
        p = subprocess.run([sys.executable, "-c", code, lines[0]], capture_output=True, text=True, env=env, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "axpb [1.0, 4.0, 7.0, 10.0, 13.0] ['__main__', '__mp_main__']\n")


class Backpressure(unittest.TestCase):
    """A loop of launches on device arrays runs at the device's pace: a launch waits while
    the device's queue is full, and a time limit bounds the time without progress, not the
    length of the work queued."""

    def test_a_loop_of_launches_waits_for_room_and_its_read_for_progress(self):
        out = spirthon.zeros(4096, f32)
        churn.launch(4096, 1, out)
        native = gpu._current().native
        seen = 0
        for k in range(1500):
            churn.launch(4096, 2000, out)
            seen = max(seen, native.queued())
        self.assertLessEqual(seen, gpu._native.MAX_QUEUED)
        before = spirthon.get_timeout()
        # On lavapipe the launches queued take several seconds, a batch of them a fraction
        # of one: the read waits while batches complete (it raised TimeoutError when the
        # limit was on the whole wait).
        spirthon.set_timeout(2.0)
        try:
            np.testing.assert_array_equal(out.numpy(), np.full(4096, 2.0, dtype=np.float32))
        finally:
            spirthon.set_timeout(before)


class Devices(unittest.TestCase):
    def test_choosing_the_current_device_again_changes_nothing(self):
        spirthon.set_device(None)
        name = spirthon.device()
        x = spirthon.array(np.arange(4, dtype=np.int32))
        spirthon.set_device(None)
        spirthon.set_device(gpu._current().name)
        self.assertEqual(spirthon.device(), name)
        out = spirthon.zeros(4, i32)
        copy_into.launch(4, x, out)
        np.testing.assert_array_equal(out.numpy(), [1, 2, 3, 4])

    def test_arrays_of_another_device_are_named_apart(self):
        x = spirthon.zeros(4, i32)
        spirthon.set_device("python")
        try:
            with self.assertRaises(ValueError) as e:
                copy_into.launch(4, x, np.zeros(4, dtype=np.int32))
            self.assertIn("device 1", str(e.exception))
            y = spirthon.zeros(4, i32)
        finally:
            spirthon.set_device(None)
        with self.assertRaises(ValueError) as e:
            copy_into.launch(4, y, np.zeros(4, dtype=np.int32))
        text = str(e.exception)
        self.assertIn("lives on python", text)
        self.assertIn("device 1", text)


def resident_kib():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Memory(unittest.TestCase):
    def test_twenty_thousand_launches_keep_memory_flat(self):
        if resident_kib() is None:
            self.skipTest("no /proc/self/status on this system")
        x = spirthon.array(np.arange(256, dtype=np.float32))
        y = spirthon.zeros(256, f32)
        host = np.zeros(64, dtype=np.int32)

        def rounds(n):
            for k in range(n):
                if k % 4 == 0:
                    fill.launch(64, k, host)
                else:
                    axpb.launch(256, 1.0, float(k), x, y)
            spirthon.synchronize()

        rounds(2000)
        before = resident_kib()
        rounds(20000)
        grown = resident_kib() - before
        self.assertLess(grown, 16 * 1024, "resident memory grew by %d KiB over 20,000 launches" % grown)
        np.testing.assert_array_equal(y.numpy(), np.arange(256, dtype=np.float32) + 19999)


if __name__ == "__main__":
    unittest.main()

"""`python3 -m spirthon run` is the same program as `spirthon run`: the same file refused with
the same errors (every error golden of tests/kernels/err), the same bad inputs and output
paths answered with the same one-line error and exit status (a table fed to both), and the
same output text. They need the native module and the `spirthon` binary (`cargo build`):
without them they skip, unless SPIRTHON_REQUIRE_NATIVE=1 makes that a failure."""

import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
ROOT = os.path.dirname(PACKAGE)
sys.path.insert(0, PACKAGE)

from spirthon import gpu  # noqa: E402

REQUIRED = os.environ.get("SPIRTHON_REQUIRE_NATIVE") == "1"
BINARY = os.environ.get("SPIRTHON_BIN") or os.path.join(ROOT, "target", "debug", "spirthon")


def setUpModule():
    missing = None
    if gpu._native is None:
        missing = "the native module is not built (%s)" % gpu._NATIVE_ERROR
    elif not os.path.exists(BINARY):
        missing = "the spirthon binary is not built (%s)" % BINARY
    if missing and REQUIRED:
        raise RuntimeError("SPIRTHON_REQUIRE_NATIVE=1 but %s" % missing)
    if missing:
        raise unittest.SkipTest(missing)


def cli(*args):
    r = subprocess.run([BINARY, "run", *args], cwd=ROOT, capture_output=True, timeout=300)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def cpython(*args):
    env = dict(os.environ, PYTHONPATH=PACKAGE)
    r = subprocess.run([sys.executable, "-m", "spirthon", "run", *args], cwd=ROOT, env=env, capture_output=True, timeout=300)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def scratch(name, data):
    d = tempfile.mkdtemp(prefix="spirthon-runners-")
    p = os.path.join(d, name)
    with open(p, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return p


SAXPY = "shaders/saxpy.py"
TWO = """from spirthon import kernel, Array, f32, i32, u32, vec2, Array2D, Array3D, global_id


@kernel
def first(n: i32, u: u32, v: vec2, flag: bool, x: Array[f32], m: Array2D[i32], c: Array3D[f32]):
    i = global_id().x
    x[i] = f32(n)


@kernel
def second(x: Array[f32]):
    x[global_id().x] = 1.0
"""

GOOD = {"threads": [4], "args": {"a": 2.0, "x": [1.0, 2.0, 3.0, 4.0], "y": {"zeros": 4}}}


def with_args(**changes):
    v = json.loads(json.dumps(GOOD))
    for k, x in changes.items():
        if x is None:
            v["args"].pop(k)
        else:
            v["args"][k] = x
    return json.dumps(v)


def first(args, threads="[1]"):
    base = {"n": 1, "u": 2, "v": [1.0, 2.0], "flag": True, "x": [0.0], "m": [[1, 2]], "c": {"zeros": [1, 1, 1]}}
    base.update(args)
    return '{"kernel": "first", "threads": %s, "args": %s}' % (threads, json.dumps(base))


PARTICLES = "tests/run/struct_particles.py"


def particles(prm=None, part=None):
    """struct_particles' inputs with the struct parameter or the first element changed."""
    with open(os.path.join(ROOT, "tests", "run", "struct_particles.inputs.json")) as fh:
        v = json.load(fh)
    if prm is not None:
        v["args"]["prm"] = prm
    if part is not None:
        v["args"]["parts"][0] = part
    return json.dumps(v)


# (kernel file, inputs text or bytes, expected exit status)
BAD_INPUTS = [
    (PARTICLES, particles(prm={"gravity": [0, -9.8, 0]}), 2),
    (PARTICLES, particles(prm={"gravity": [0, -9.8, 0], "dt": 0.1, "spin": 1}), 2),
    (PARTICLES, particles(prm={"gravity": {"x": 0}, "dt": 0.1}), 2),
    (PARTICLES, particles(prm=[0, -9.8, 0, 0.1]), 2),
    (PARTICLES, particles(prm={"gravity": [0, -9.8], "dt": 0.1}), 2),
    (PARTICLES, particles(part={"pos": [0, 1, 0], "vel": [0, 0, 0], "mass": 1, "alive": 1, "tag": 0}), 2),
    (PARTICLES, particles(part={"pos": [0, 1, 0], "vel": [0, 0, 0], "mass": 1, "alive": True, "tag": 256}), 2),
    (PARTICLES, particles(part={"pos": [0, 1, 0], "vel": [0, 0, 0], "mass": 1, "alive": True}), 2),
    (PARTICLES, particles(part={"pos": [0, 1, 0], "vel": [0, 0, 0], "mass": 1, "alive": True, "tag": 0, "x": {"y": 1}}), 2),
    (PARTICLES, particles(part=[0, 1, 0]), 2),
    (SAXPY, "", 2),
    (SAXPY, "{", 2),
    (SAXPY, "[1,]", 2),
    (SAXPY, '{"a" 1}', 2),
    (SAXPY, '{"threads": [4], "args": {"a": NaN}}', 2),
    (SAXPY, '{"threads": [4], "args": {"a": Infinity}}', 2),
    (SAXPY, '{"threads": [4], "args": {"a": -Infinity}}', 2),
    (SAXPY, '{"threads": [4], "args": {"a": 1e400}}', 2),
    (SAXPY, '{"threads": [4], "args": {"a": 1%s}}' % ("0" * 400), 2),
    (SAXPY, '{"threads": [4], "args": {"a": 1%s}}' % ("0" * 5000), 2),
    (SAXPY, '{"kernel": "\\ud800"}', 2),
    (SAXPY, '{"kernel": "\\udc00\\ud800"}', 2),
    (SAXPY, '{"kernel": "a\tb"}', 2),
    (SAXPY, '{"kernel": "\\q"}', 2),
    (SAXPY, '{"kernel": "\\u12"}', 2),
    (SAXPY, "\ufeff{}", 2),
    (SAXPY, "[" * 200 + "]" * 200, 2),
    (SAXPY, "[" * 100000, 2),
    (SAXPY, '{"threads": [4]} x', 2),
    (SAXPY, b'{"kernel": "\xff"}', 2),
    (SAXPY, "[]", 2),
    (SAXPY, "3", 2),
    (SAXPY, '{"kernel": 5, "threads": [4]}', 2),
    (SAXPY, '{"kernel": "nope", "threads": [4]}', 2),
    (SAXPY, '{"args": {}}', 2),
    (SAXPY, '{"threads": "all", "args": {}}', 2),
    (SAXPY, '{"threads": [], "args": {}}', 2),
    (SAXPY, '{"threads": [1, 2, 3, 4], "args": {}}', 2),
    (SAXPY, '{"threads": [-1], "args": {}}', 2),
    (SAXPY, '{"threads": [4.0], "args": {}}', 2),
    (SAXPY, '{"threads": [1e20], "args": {}}', 2),
    (SAXPY, '{"threads": [100000000000000000000], "args": {}}', 2),
    (SAXPY, '{"threads": [4294967296], "args": {}}', 2),
    (SAXPY, '{"threads": [true], "args": {}}', 2),
    (SAXPY, '{"threads": [4]}', 2),
    (SAXPY, '{"threads": [4], "args": [1]}', 2),
    (SAXPY, with_args(z=2), 2),
    (SAXPY, with_args(a=None), 2),
    (SAXPY, with_args(x=None), 2),
    (SAXPY, with_args(a="fast"), 2),
    (SAXPY, with_args(a="\x1b[31m"), 2),
    (SAXPY, with_args(a=True), 2),
    (SAXPY, with_args(a=[1.0]), 2),
    (SAXPY, with_args(x=[1.0, True]), 2),
    (SAXPY, with_args(x=[1.0, "nan", "NaN"]), 2),
    (SAXPY, with_args(y={"zeros": 10 ** 12}), 2),
    (SAXPY, with_args(y={"zeros": -1}), 2),
    (SAXPY, with_args(y={"zeros": 1.5}), 2),
    (SAXPY, with_args(y={"zeros": 4, "more": 1}), 2),
    (SAXPY, with_args(y="all"), 2),
    (SAXPY, with_args(x=list(range(100)) + ["x" * 100]), 2),
    # Finite numbers past float32's range (not made infinite).
    (SAXPY, with_args(a=1e39), 2),
    (SAXPY, with_args(a=-(2 ** 128)), 2),
    (SAXPY, with_args(x=[1.0, 3.5e38]), 2),
    ("TWO", first({"n": 1.5}), 2),
    ("TWO", first({"n": 2.0, "u": -1}), 2),
    ("TWO", first({"n": 18446744073709551616}), 2),
    ("TWO", first({"n": 10000000000000000000}), 2),
    ("TWO", first({"n": 1e16}), 2),
    ("TWO", first({"n": 3e9}), 2),
    ("TWO", first({"n": -2147483649}), 2),
    ("TWO", first({"u": 4294967296}), 2),
    ("TWO", first({"v": [1.0]}), 2),
    ("TWO", first({"v": 1.0}), 2),
    ("TWO", first({"v": [1.0, "x"]}), 2),
    ("TWO", first({"flag": 1}), 2),
    ("TWO", first({"m": {"zeros": [2147483647, 2147483647]}}), 2),
    ("TWO", first({"c": {"zeros": [2147483647, 2147483647, 2147483647]}}), 2),
    ("TWO", first({"m": {"zeros": [1]}}), 2),
    ("TWO", first({"m": {"zeros": [1, -1]}}), 2),
    ("TWO", first({"m": {"shape": [2, 2], "data": [1, 2, 3]}}), 2),
    ("TWO", first({"m": [[1, 2], [3]]}), 2),
    ("TWO", first({"m": [1, 2]}), 2),
    ("TWO", first({"m": [[1, 2.5]]}), 2),
    ("TWO", first({"m": "x"}), 2),
    ("TWO", '{"threads": [1], "args": {}}', 2),
    ("TWO", '{"kernel": null, "threads": [1], "args": {}}', 2),
]


class ProjectFiles(unittest.TestCase):
    @unittest.skipUnless(hasattr(sys, "stdlib_module_names"), "sys.stdlib_module_names is 3.10+")
    def test_no_file_shadows_a_standard_module(self):
        # A kernel file named like a standard module (shaders/copy.py) breaks `import
        # spirthon` run beside it: `python3 -c "from saxpy import saxpy"` in shaders/ was a
        # circular import. The package's own modules are imported as spirthon.X.
        shadows = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules")
                       and os.path.join(top, d) != os.path.join(ROOT, "python", "spirthon")]
            shadows += [os.path.relpath(os.path.join(top, f), ROOT) for f in files
                        if f.endswith(".py") and f[:-3] in sys.stdlib_module_names]
        self.assertEqual(shadows, [])


class BothRunners(unittest.TestCase):
    def same(self, file, *args, status=None):
        a, b = cli(file, *args), cpython(file, *args)
        self.assertEqual(a[2], b[2], "stderr differs for %s %s" % (file, args))
        self.assertEqual(a[0], b[0], "exit status differs for %s %s: %s" % (file, args, a[2]))
        self.assertEqual(a[1], b[1], "stdout differs for %s %s" % (file, args))
        if status is not None:
            self.assertEqual(a[0], status, a[2])
        return a

    def test_bad_inputs_give_the_same_one_line_error(self):
        two = scratch("two.py", TWO)
        for k, (file, text, status) in enumerate(BAD_INPUTS):
            with self.subTest(case=k, inputs=text[:80]):
                inputs = scratch("in%d.json" % k, text)
                code, out, err = self.same(two if file == "TWO" else file, "--inputs", inputs, status=status)
                lines = err.splitlines()
                self.assertEqual(len(lines), 1, err)
                self.assertTrue(lines[0].startswith("error: "), err)
                self.assertNotIn("\x1b", err)

    def test_unreadable_and_oversized_inputs(self):
        for inputs in ["/nonexistent/in.json", tempfile.mkdtemp(), "/dev/zero"]:
            with self.subTest(inputs=inputs):
                code, _, err = self.same(SAXPY, "--inputs", inputs, status=2)
                self.assertEqual(len(err.splitlines()), 1, err)
        self.same("/nonexistent/k.py", "--inputs", "shaders/saxpy.inputs.json", status=2)

    def test_outputs_that_cannot_be_written(self):
        inputs = os.path.join(ROOT, "shaders", "saxpy.inputs.json")
        for out in [tempfile.mkdtemp(), "/dev/full", "/nonexistent/dir/out.json"]:
            if out == "/dev/full" and not os.path.exists(out):
                continue
            with self.subTest(out=out):
                code, _, err = self.same(SAXPY, "--inputs", inputs, "--out", out, status=2)
                self.assertEqual(len(err.splitlines()), 1, err)

    def test_outputs_are_written_whole(self):
        # Concurrent writers of one --out leave one whole file (written beside it and
        # renamed), no temporary file; a link is followed and kept, /dev/null written.
        import threading
        from spirthon.files import write_whole as _write_whole
        d = tempfile.mkdtemp()
        out = os.path.join(d, "out.json")
        datas = [b"a" * (1 << 20), b"b" * (1 << 19)]

        def writer(k):
            for _ in range(10):
                _write_whole(out, datas[k % 2])

        threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with open(out, "rb") as f:
            self.assertIn(f.read(), datas)
        self.assertEqual(os.listdir(d), ["out.json"])
        link = os.path.join(d, "link.json")
        os.symlink(out, link)
        os.chmod(out, 0o640)
        _write_whole(link, b"new")
        self.assertTrue(os.path.islink(link))
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"new")
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o640)
        _write_whole(os.devnull, b"x")
        self.assertTrue(os.path.exists(os.devnull))

    def test_out_never_overwrites_an_input(self):
        d = tempfile.mkdtemp()
        src = os.path.join(d, "k.py")
        with open(os.path.join(ROOT, SAXPY)) as f:
            text = f.read()
        with open(src, "w") as f:
            f.write(text)
        inputs = os.path.join(d, "in.json")
        with open(os.path.join(ROOT, "shaders", "saxpy.inputs.json")) as f:
            given = f.read()
        with open(inputs, "w") as f:
            f.write(given)
        hard = os.path.join(d, "hard.py")
        os.link(src, hard)
        hard_inputs = os.path.join(d, "hard.json")
        os.link(inputs, hard_inputs)
        link = os.path.join(d, "link.py")
        os.symlink(src, link)
        for out in [src, hard, link, inputs, hard_inputs]:
            with self.subTest(out=out):
                self.same(src, "--inputs", inputs, "--out", out, status=2)
                with open(src) as f:
                    self.assertEqual(f.read(), text)
                with open(inputs) as f:
                    self.assertEqual(f.read(), given)

    def test_the_same_output_text(self):
        for name in ["shaders/saxpy.py", "shaders/reduce.py", "tests/run/loop_conditions.py", "tests/run/float_threshold.py"]:
            with self.subTest(kernel=name):
                code, out, _ = self.same(name, "--inputs", name[:-3] + ".inputs.json", status=0)
                self.assertTrue(out.endswith(b"\n"))
                json.loads(out)

    def test_floats_print_alike_at_a_tie(self):
        # 33.3515625 is halfway between 33.351562 and 33.351563: both runners pick the
        # first in the same way (round half to even), as for every other float32.
        path = scratch("ties.py", "from spirthon import kernel, Array, f32, global_id\n\n\n@kernel\ndef k(x: Array[f32], y: Array[f32]):\n    i = global_id().x\n    y[i] = x[i] * 1.0\n")
        values = [33.3515625, 1e-45, 3.4028235e38, 0.1, 16777217.0, -0.0, 2.5e-7, 123456789.0, 0.3333333432674408]
        inputs = scratch("ties.json", json.dumps({"threads": [len(values)], "args": {"x": values, "y": {"zeros": len(values)}}}))
        code, out, _ = self.same(path, "--inputs", inputs, status=0)
        self.assertIn(b"33.351562,", out)

    def test_print_runs_on_both_devices_and_breakpoint_under_cpython_only(self):
        path = scratch("debug.py", """from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    print("x =", x[i], f"{x[i]:.2f}")
    x[i] = x[i] + 1.0
""")
        inputs = scratch("debug.json", '{"threads": [2], "args": {"x": [1.0, 2.0]}}')
        want = [b"x = 1.0 1.00", b"x = 2.0 2.00", b'{"kernel":"k","args":{"x":[2.0,3.0]}}']
        for run in (cli, cpython):
            with self.subTest(runner=run.__name__):
                code, out, err = run(path, "--inputs", inputs)
                self.assertEqual(code, 0, err)
                self.assertEqual(out.splitlines(), want)
        path = scratch("pdb.py", """from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    if i > 100:
        breakpoint()
    x[i] = x[i] + 1.0
""")
        code, out, err = cli(path, "--inputs", inputs)
        self.assertEqual(code, 1)
        self.assertIn("breakpoint", err)
        code, out, err = cpython(path, "--inputs", inputs)
        self.assertEqual(code, 0, err)

    def test_a_closed_stdout_ends_quietly(self):
        inputs = os.path.join(ROOT, "shaders", "saxpy.inputs.json")
        for run in (cli, cpython):
            with self.subTest(runner=run.__name__):
                args = [BINARY, "run"] if run is cli else [sys.executable, "-m", "spirthon", "run"]
                env = dict(os.environ, PYTHONPATH=PACKAGE)
                p = subprocess.Popen(args + [SAXPY, "--inputs", inputs], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                p.stdout.close()
                _, err = p.communicate(timeout=300)
                self.assertEqual(p.returncode, 0, err)
                self.assertEqual(err.decode(), "")


class ErrorGoldens(unittest.TestCase):
    def test_every_program_the_compiler_rejects_is_rejected_under_cpython(self):
        files = sorted(glob.glob(os.path.join(ROOT, "tests", "kernels", "err", "*.py")))
        self.assertGreater(len(files), 40)
        empty = scratch("empty.json", "{}")
        for path in files:
            rel = os.path.relpath(path, ROOT)
            with open(path[:-3] + ".stderr", encoding="utf-8") as f:
                golden = f.read()
            with self.subTest(kernel=rel):
                code, _, err = cpython(rel, "--inputs", empty)
                self.assertEqual(code, 1, err)
                self.assertTrue(err.startswith(golden), "%s\n--- golden ---\n%s" % (err, golden))
                self.assertEqual(err[len(golden):].count("\n"), 1, err)
                self.assertTrue(err[len(golden):].startswith("error: could not compile"), err)


if __name__ == "__main__":
    unittest.main()

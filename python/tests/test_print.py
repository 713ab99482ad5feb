"""print from the GPU: the lines a launch prints on the GPU are, character for character,
those the reference executor prints for the same invocations, for format specs drawn at
random from the mini-language (every one Python accepts for the value's type), in the
executor's order (phase by phase in a kernel with barriers and subgroup operations), from
host and device arrays; a launch that prints past the buffer says how many lines it
dropped."""

import contextlib
import importlib.util
import io
import os
import random
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (  # noqa: E402
    Array, f32, i32, kernel, global_id, local_id, barrier, shared_array, subgroup_add,
)
from spirthon import gpu as _gpu  # noqa: E402
from test_gpu import np, setUpModule  # noqa: E402,F401

# Each value kind: a kernel array type, the NumPy dtype, sample values, and a Python value of
# the kind that a spec must format without error to be drawn.
KINDS = {
    "f32": ("Array[f32]", "float32", [0.1, -2.5, 1e20, 3.4028235e38, 1.5e-7, 0.0, -0.0, 123456.79, float("inf"), float("nan")], 1.5),
    "f64": ("Array[f64]", "float64", [0.1, -1e-5, 2.5e300, 5e-324, 1e16, 123456789.125, -0.0, float("-inf")], 1.5),
    "f16": ("Array[f16]", "float16", [0.1, -2.5, 65504.0, 6e-8, 1.0, 0.0], 1.5),
    "i32": ("Array[i32]", "int32", [0, -1, 255, 65537, -2147483648, 2147483647, 1000000, 42], 7),
    "u32": ("Array[u32]", "uint32", [0, 1, 4294967295, 65536, 123456789, 42, 7, 8], 7),
    "i64": ("Array[i64]", "int64", [0, -1, 2 ** 62, -(2 ** 63), 9007199254740993, 42, 10 ** 12, -5], 7),
    "u8": ("Array[u8]", "uint8", [0, 1, 255, 128, 7, 42, 99, 200], 7),
}
INT_TYPES = "bdoxX" + "eEfFgG%"
FLOAT_TYPES = "eEfFgG%"


def random_spec(rng, kind):
    """A spec of the mini-language, at random (maybe one Python refuses)."""
    spec = ""
    if rng.random() < 0.4:
        if rng.random() < 0.5:
            spec += rng.choice("*_0 x")
        spec += rng.choice("<>^=")
    spec += rng.choice(["", "", "+", "-", " "])
    if rng.random() < 0.2:
        spec += "#"
    if rng.random() < 0.2:
        spec += "0"
    if rng.random() < 0.6:
        spec += str(rng.randrange(1, 25))
    if rng.random() < 0.25:
        spec += rng.choice(",_")
    if rng.random() < 0.5:
        spec += "." + str(rng.randrange(0, 14))
    types = INT_TYPES if kind in ("i32", "u32", "i64", "u8") else FLOAT_TYPES
    if rng.random() < 0.8:
        spec += rng.choice(types)
    return spec


def specs_for(rng, kind, sample, n):
    out = []
    while len(out) < n:
        spec = random_spec(rng, kind)
        try:
            format(sample, spec)
        except ValueError:
            continue
        out.append(spec)
    return out


def module_from(source, name):
    """Imports `source` as a module from a file of its own (kernels are read from files)."""
    d = tempfile.mkdtemp(prefix="spirthon_print_")
    path = os.path.join(d, name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return out.getvalue()


@kernel(workgroup_size=16)
def phases(x: Array[f32], out: Array[f32]):
    i = global_id().x
    loc = local_id().x
    s = shared_array(f32, 16)
    s[loc] = x[i]
    print(f"load {i} {x[i]:.2f}")
    barrier()
    t = subgroup_add(s[15 - loc])
    print(f"sum {i} {t}")
    if loc == 0:
        print("first of its workgroup", i // 16)
    barrier()
    out[i] = t
    print(f"done {i}")


@kernel(workgroup_size=64)
def chatty(out: Array[i32]):
    i = global_id().x
    print(i)
    out[i] = i


class Print(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)
        spirthon.set_subgroup_size(None)

    def both(self, launch):
        """What `launch()` prints on the GPU and on the reference executor."""
        spirthon.set_device(None)
        size = _gpu._current().native.subgroup_size()
        gpu = printed(launch)
        spirthon.set_device("python")
        spirthon.set_subgroup_size(size)
        cpu = printed(launch)
        return gpu, cpu

    def test_random_specs_print_as_python_formats_them(self):
        rng = random.Random(20261126)
        lines = ["from spirthon import kernel, Array, global_id, f16, f32, f64, i32, u32, i64, u8, vec3", ""]
        params = ", ".join("a_%s: %s" % (k, v[0]) for k, v in KINDS.items())
        lines += ["@kernel(workgroup_size=4)", "def fmt(%s):" % params, "    i = global_id().x"]
        for kind, (_, _, _, sample) in KINDS.items():
            lines.append("    v_%s = a_%s[i]" % (kind, kind))
            specs = specs_for(rng, kind, sample, 40)
            for k in range(0, len(specs), 8):
                fields = " ".join("[{v_%s:%s}]" % (kind, s) for s in specs[k:k + 8])
                lines.append("    print(f%r)" % ("%s %s" % (kind, fields)))
        lines.append("    w = vec3(a_f32[i], 2.5, a_f32[i] * 3.0)")
        for s in specs_for(rng, "f32", 1.5, 12):
            lines.append("    print(f%r)" % ("{w:%s}" % s))
        mod = module_from("\n".join(lines) + "\n", "random_specs")
        arrays = {k: np.array(v[2], dtype=v[1]) for k, v in KINDS.items()}
        n = min(len(a) for a in arrays.values())
        args = [arrays[k][:n] for k in KINDS]
        gpu, cpu = self.both(lambda: mod.fmt.launch(n, *args))
        self.assertGreater(cpu.count("\n"), 30 * n)
        self.assertEqual(gpu.splitlines(), cpu.splitlines())

    def test_lines_come_phase_by_phase_as_the_executor_runs_them(self):
        x = np.arange(48, dtype=np.float32) * 0.5
        out = np.zeros(48, dtype=np.float32)
        gpu, cpu = self.both(lambda: phases.launch(48, x, out))
        self.assertEqual(gpu, cpu)
        lines = gpu.splitlines()
        # Workgroup 0's loads, then its sums, before workgroup 1's first line.
        self.assertEqual(lines[:16], ["load %d %.2f" % (i, i * 0.5) for i in range(16)])
        self.assertTrue(lines[16].startswith("sum 0 "))
        self.assertEqual(lines.index("load 16 8.00"), 16 + 16 + 1 + 16)

    def test_device_arrays_print_and_the_launch_order_is_kept(self):
        spirthon.set_device(None)
        out = spirthon.zeros(64, i32)
        text = printed(lambda: [chatty.launch(64, out) for _ in range(2)])
        self.assertEqual(text.splitlines(), [str(i) for i in range(64)] * 2)

    def test_a_launch_that_prints_past_the_buffer_says_how_many_lines_it_dropped(self):
        spirthon.set_device(None)
        n = 200_000
        out = np.zeros(n, dtype=np.int32)
        text = printed(lambda: chatty.launch(n, out))
        lines = text.splitlines()
        # A record is 6 header words and the int: the 4 MiB buffer holds this many.
        kept = (1 << 20) // 7
        self.assertEqual(len(lines), kept + 1)
        self.assertEqual(lines[-1], "[spirthon: %d more print calls were dropped: a launch prints at most 4 MiB of records from the GPU]" % (n - kept))
        values = [int(s) for s in lines[:-1]]
        self.assertEqual(values, sorted(values))
        self.assertEqual(len(set(values)), kept)
        np.testing.assert_array_equal(out, np.arange(n))


if __name__ == "__main__":
    unittest.main()

"""Tests of the CPython reference executor (standard library unittest)."""

import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from spirthon import Array, f32, i32, u32, kernel, func, global_id, local_id, local_index  # noqa: E402
from spirthon.__main__ import InputError, run  # noqa: E402


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

    def test_negative_indices_are_out_of_bounds(self):
        a = Array(f32, 4, name="x")
        with self.assertRaises(IndexError) as e:
            a[-1]
        self.assertIn("'x'", str(e.exception))
        with self.assertRaises(IndexError):
            a[4] = 1.0


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


class Launch(unittest.TestCase):
    def test_launch_runs_every_thread_once(self):
        out = Array(f32, 6)
        scale.launch(6, 1.5, Array(f32, [1, 2, 3, 4, 5, 6]), out)
        self.assertEqual(out.tolist(), [3.0, 6.0, 9.0, 12.0, 15.0, 18.0])

    def test_guard_and_order(self):
        del order[:]
        out = Array(i32, 9)
        record.launch((3, 3), out)
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
            ({"threads": [3], "args": {"x": [1.0], "y": [1.0]}}, "'a' is missing"),
            ({"threads": [3], "args": {"a": 1.0, "x": [1.0], "y": [1.0], "z": 1}}, "'z'"),
            ({"threads": [3], "args": {"a": "no", "x": [1.0], "y": [1.0]}}, "'a'"),
            ({"threads": "many", "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}, "threads"),
            ({"kernel": "other", "threads": [1], "args": {}}, "no kernel named 'other'"),
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

"""Generic kernels launched from Python: each launch's arguments give the types (NumPy dtypes
and shapes, Python and NumPy scalars, vectors, structs), the same on the GPU and the
reference executor; each set of types is one specialization, compiled once and cached
under its types; conflicting or impossible types are ``TypeError``s that name the argument."""

import os
import sys
import tempfile
import unittest
from typing import Any, TypeVar

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import Array, Array2D, f32, vec3, kernel, global_id, struct  # noqa: E402
from spirthon import gpu as _gpu  # noqa: E402
from test_gpu import np, setUpModule  # noqa: E402,F401

T = TypeVar("T")


@struct
class Body:
    pos: vec3
    mass: f32


@kernel
def axpy(a, x, y, out):
    """As Numba-CUDA users write it: no annotations."""
    i = global_id().x
    if i < len(out):
        out[i] = a * x[i] + y[i]


@kernel
def add(a: Array[T], b: Array[T], out: Array[T]):
    i = global_id().x
    out[i] = a[i] + b[i]


@kernel
def scaled(grid: Array2D[Any], k: Any):
    i, j, _ = global_id()
    grid[i, j] = grid[i, j] * k


@kernel
def heavier(bodies: Array[Any], extra: Any):
    i = global_id().x
    b = bodies[i]
    b.mass += extra
    bodies[i] = b


DEVICES = (None, "python")


class Generic(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def test_types_come_from_the_arguments(self):
        for device in DEVICES:
            spirthon.set_device(device)
            for dtype in (np.float32, np.float64, np.int32, np.uint32, np.int64, np.int16):
                x = np.arange(6).astype(dtype)
                y = np.full(6, 3).astype(dtype)
                out = np.zeros(6, dtype)
                a = np.array(2).astype(dtype)[()]  # a NumPy scalar of that dtype
                axpy.launch(6, a, x, y, out)
                np.testing.assert_array_equal(out, (a * x + y).astype(dtype), err_msg=str(dtype))
            # Python numbers: int is i32, float is f32.
            out = np.zeros(3, np.float32)
            axpy.launch(3, 0.5, np.ones(3, np.float32), np.ones(3, np.float32), out)
            np.testing.assert_array_equal(out, [1.5, 1.5, 1.5])
            # Vectors from (N, 3) arrays for Array[T]; a (N, 3) array wholly generic is 2-D.
            v = np.arange(12, dtype=np.float32).reshape(4, 3)
            out = np.zeros((4, 3), np.float32)
            add.launch(4, v, v, out)
            np.testing.assert_array_equal(out, 2 * v)
            g = np.arange(6, dtype=np.float64).reshape(2, 3)
            scaled.launch((2, 3), g, np.float64(-1.5))
            np.testing.assert_array_equal(g, np.arange(6).reshape(2, 3) * -1.5)
            # A struct array and a NumPy float32 scalar.
            bodies = np.zeros(3, Body.numpy_dtype)
            bodies["mass"] = [1, 2, 3]
            heavier.launch(3, bodies, np.float32(0.5))
            np.testing.assert_array_equal(bodies["mass"], [1.5, 2.5, 3.5])

    def test_each_set_of_types_compiles_once(self):
        x = np.ones(4, np.float32)
        axpy.launch(4, 1.0, x, x, np.zeros(4, np.float32))
        spec = axpy._specializations[(("a", "f32"), ("x", "Array[f32]"), ("y", "Array[f32]"), ("out", "Array[f32]"))]
        self.assertEqual(spec.types, [("a", "f32"), ("x", "Array[f32]"), ("y", "Array[f32]"), ("out", "Array[f32]")])
        m = _gpu.compile_kernel(spec)
        self.assertEqual(m.entry, "axpy__f32__Array_f32__Array_f32__Array_f32")
        axpy.launch(4, 2.0, x, x, np.zeros(4, np.float32))
        self.assertIs(axpy._specializations[(("a", "f32"), ("x", "Array[f32]"), ("y", "Array[f32]"), ("out", "Array[f32]"))], spec)
        self.assertIs(_gpu.compile_kernel(spec), m)
        # The disk cache keeps specializations apart: one entry per set of types.
        with tempfile.TemporaryDirectory() as d:
            old = os.environ.get("SPIRTHON_CACHE_DIR")
            os.environ["SPIRTHON_CACHE_DIR"] = d
            try:
                _gpu._modules.clear()
                for dtype in (np.float32, np.int32):
                    y = np.ones(4, dtype)
                    add.launch(4, y, y, np.zeros(4, dtype))
                self.assertEqual(len([f for f in os.listdir(d) if f.endswith(".entry")]), 2)
                _gpu._modules.clear()
                out = np.zeros(4, np.int32)
                add.launch(4, np.ones(4, np.int32), np.ones(4, np.int32), out)  # from the disk
                np.testing.assert_array_equal(out, [2, 2, 2, 2])
            finally:
                if old is None:
                    del os.environ["SPIRTHON_CACHE_DIR"]
                else:
                    os.environ["SPIRTHON_CACHE_DIR"] = old

    def test_wrong_types_are_named(self):
        for device in DEVICES:
            spirthon.set_device(device)
            f, i = np.zeros(3, np.float32), np.zeros(3, np.int32)
            with self.assertRaises(TypeError) as e:
                add.launch(3, f, i, f)
            self.assertIn("T is f32 from argument 'a' but i32 from argument 'b'", str(e.exception))
            with self.assertRaises(TypeError) as e:
                add.launch(3, f, f, 1.0)
            self.assertIn("argument 'out'", str(e.exception))
            with self.assertRaises(TypeError) as e:
                scaled.launch(3, np.zeros(3, np.float32), 1.0)
            self.assertIn("2 dimensions, not 1", str(e.exception))
            with self.assertRaises(TypeError) as e:
                axpy.launch(3, "x", f, f, f)
            self.assertIn("argument 'a'", str(e.exception))
            with self.assertRaises(TypeError) as e:
                axpy.launch(3, 1.0, np.zeros(3, np.complex64), f, f)
            self.assertIn("complex64", str(e.exception))
            # The compiler's own rules still hold for the types given: f64 and f32 do not mix.
            with self.assertRaises(spirthon.CompileError) as e:
                axpy.launch(3, 1.0, np.zeros(3), np.zeros(3), np.zeros(3))
            self.assertIn("cannot mix f32 and f64", str(e.exception))

    def test_explicit_specialization(self):
        spec = add.specialize([("T", "i32")])
        self.assertIs(add.specialize([("T", spirthon.i32)]), spec)
        self.assertFalse(spec.generic)
        out = np.zeros(2, np.int32)
        spec.launch(2, np.array([1, 2], np.int32), np.array([3, 4], np.int32), out)
        np.testing.assert_array_equal(out, [4, 6])
        with self.assertRaises(TypeError):
            spec.launch(2, np.zeros(2, np.float32), np.zeros(2, np.float32), np.zeros(2, np.float32))
        with self.assertRaises(TypeError):
            add.specialize([("U", "i32")])


if __name__ == "__main__":
    unittest.main()

"""Vectors and matrices of f64 (``dvec2 dvec3 dvec4``, ``dmat22 dmat33 dmat44``) from
Python: NumPy ``(N, 3)`` and ``(N, 3, 3)`` ``float64`` arrays as they come, ``dvec`` and
``dmat`` parameters, struct fields, and the same results on the GPU, on the python device and
in NumPy's float64."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (Array, dvec2, dvec3, dvec4, dmat22, dmat33, mat33, f32, f64, vec3,  # noqa: E402
                      kernel, struct, global_id, cross, dot, length, inverse, transpose, determinant,
                      atomic_add, atomic_max)
# The same requirements as the other launches: the native module, NumPy and a device.
from test_gpu import np, setUpModule  # noqa: E402,F401


@struct
class Spring:
    rest: dvec3
    k: f64
    scale: f32


@kernel(workgroup_size=(32, 1, 1))
def forces(p: Array[dvec3], q: Array[dvec3], springs: Array[Spring], shift: dvec3, w: dvec2,
           out: Array[dvec3], energy: Array[f64], turn: Array[dvec4]):
    i = global_id().x
    if i >= len(p):
        return
    s = springs[i]
    d = q[i] - p[i] + shift
    stretch = d - s.rest
    out[i] = stretch * -s.k
    energy[i] = 0.5 * s.k * dot(stretch, stretch) * w.x + length(d) * w.y
    turn[i] = dvec4(cross(p[i], q[i]), f64(s.scale))
    s.rest = d
    springs[i] = s


@kernel(workgroup_size=(32, 1, 1))
def solve(ms: Array[dmat33], b: Array[dvec3], shear: dmat22, x: Array[dvec3], dets: Array[f64],
          sym: Array[dmat33]):
    i = global_id().x
    if i >= len(ms):
        return
    m = ms[i]
    m[0, 1] += shear[0, 1]
    x[i] = inverse(m) @ b[i]
    dets[i] = determinant(m) * shear[1, 1]
    sym[i] = (m + transpose(m)) * 0.5


@kernel
def moments(x: Array[f64], sums: Array[f64], centre: Array[dvec3]):
    # Numba's `cuda.atomic.add` on float64 arrays: a sum, a sum of squares and a maximum
    # into an `Array[f64]`, and a centroid's components into an `Array[dvec3]`.
    i = global_id().x
    if i >= len(x):
        return
    v = x[i]
    atomic_add(sums, 0, v)
    atomic_add(sums, 1, v * v)
    atomic_max(sums, 2, v)
    atomic_add(centre, 0, dvec3(v, 1.0, -v))


def _numpy_forces(p, q, springs, shift, w):
    d = q - p + shift
    stretch = d - springs["rest"]
    out = stretch * -springs["k"][:, None]
    energy = (0.5 * springs["k"] * (stretch * stretch).sum(axis=1)) * w[0] + np.sqrt((d * d).sum(axis=1)) * w[1]
    return out, energy, np.cross(p, q), d


class Dvec(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def _launch(self, device):
        spirthon.set_device(device)
        rng = np.random.default_rng(4)
        n = 100
        p, q = rng.normal(size=(n, 3)), rng.normal(size=(n, 3))
        springs = np.zeros(n, dtype=Spring.numpy_dtype)
        springs["rest"] = rng.normal(size=(n, 3))
        springs["k"] = rng.uniform(1, 5, n)
        springs["scale"] = rng.uniform(0, 1, n).astype(np.float32)
        out, energy, turn = np.zeros((n, 3)), np.zeros(n), np.zeros((n, 4))
        before = springs.copy()
        forces.launch(n, p, q, springs, dvec3(0.1, 1e-12, -0.25), (0.5, 2.0), out, energy, turn)
        return p, q, before, springs, out, energy, turn

    def test_float64_arrays_on_both_devices(self):
        """The GPU and the python device agree but for the device's `length` (its square
        root of a dot product, which a driver computes its own way: on an H100 an entry of
        `out` that cancels differed by 2.1e-15 relative), and both agree with NumPy's
        float64."""
        gpu = self._launch(None)
        cpu = self._launch("python")
        p, q, before, springs, out, energy, turn = gpu
        for a, b in zip(gpu[3:], cpu[3:]):
            if a.dtype.names:
                for f in a.dtype.names:
                    np.testing.assert_array_equal(a[f], b[f])
            else:
                np.testing.assert_allclose(a, b, rtol=1e-14)
        want_out, want_energy, want_turn, want_d = _numpy_forces(p, q, before, np.array([0.1, 1e-12, -0.25]), (0.5, 2.0))
        np.testing.assert_allclose(out, want_out, rtol=1e-14)
        np.testing.assert_allclose(energy, want_energy, rtol=1e-14)
        np.testing.assert_allclose(turn[:, :3], want_turn, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(turn[:, 3], before["scale"].astype(np.float64))
        # 1e-12 survives in a dvec3 (an f32 would have lost it against the other terms).
        np.testing.assert_array_equal(springs["rest"], want_d)
        self.assertEqual(Spring.numpy_dtype.itemsize, 40)

    def test_float64_atomics_on_both_devices(self):
        """Sums of values that are exact in any order (multiples of 2**-10 and 2**30 + 1,
        past an f32's precision): the GPU's compare-exchange loops give NumPy's float64 sums
        exactly, as the python device does."""
        rng = np.random.default_rng(8)
        x = rng.integers(-2**20, 2**20, 3000) * 2.0 ** -10
        x[::7] += 2.0 ** 30 + 1
        for device in (None, "python"):
            spirthon.set_device(device)
            sums = np.array([0.0, 0.0, -np.inf])
            centre = np.zeros((1, 3))
            moments.launch(len(x), x, sums, centre)
            self.assertEqual(sums[0], x.sum())
            self.assertEqual(sums[2], x.max())
            np.testing.assert_allclose(sums[1], (x * x).sum(), rtol=1e-12)
            np.testing.assert_array_equal(centre[0], [x.sum(), len(x), -x.sum()])

    def test_float32_arrays_and_mixing_are_refused(self):
        n = 4
        springs = np.zeros(n, dtype=Spring.numpy_dtype)
        for device in (None, "python"):
            spirthon.set_device(device)
            with self.assertRaisesRegex(TypeError, "float64 array"):
                forces.launch(n, np.zeros((n, 3), np.float32), np.zeros((n, 3)), springs, dvec3(0.0),
                              dvec2(1.0), np.zeros((n, 3)), np.zeros(n), np.zeros((n, 4)))
        with self.assertRaisesRegex(TypeError, "f32"):
            dvec3(f32(1.0), 2.0, 3.0)
        with self.assertRaisesRegex(TypeError, "dvec3"):
            dvec3(1.0) + vec3(1.0)
        v = dvec3(1, 2.5, f64(0.1))
        self.assertEqual(type(v.x), type(f64(0.0)))
        self.assertEqual(v.zy.type, dvec2)
        self.assertEqual(vec3(v).z, f32(0.1))
        self.assertEqual(length(dvec2(3.0, 4.0)), 5.0)


    def _solve(self, device):
        spirthon.set_device(device)
        rng = np.random.default_rng(6)
        n = 70
        ms = np.eye(3) * 3 + rng.normal(size=(n, 3, 3))
        b = rng.normal(size=(n, 3))
        x, dets, sym = np.zeros((n, 3)), np.zeros(n), np.zeros((n, 3, 3))
        solve.launch(n, ms, b, dmat22(1.0, 1e-9, 0.0, 2.0), x, dets, sym)
        return ms, b, x, dets, sym

    def test_float64_matrices_on_both_devices(self):
        """`inverse`, `determinant`, `@` and `transpose` of dmat33s: the GPU and the python
        device give the same bits, and NumPy's float64 agrees to rounding; a dmat22
        parameter keeps its 1e-9 (std140 rows of two doubles, 16 bytes apart)."""
        ms, b, x, dets, sym = self._solve(None)
        _, _, x2, dets2, sym2 = self._solve("python")
        np.testing.assert_array_equal(x, x2)
        np.testing.assert_array_equal(dets, dets2)
        np.testing.assert_array_equal(sym, sym2)
        m = ms.copy()
        m[:, 0, 1] += 1e-9
        np.testing.assert_allclose(x, np.linalg.solve(m, b[:, :, None])[:, :, 0], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(dets, 2.0 * np.linalg.det(m), rtol=1e-12)
        np.testing.assert_allclose(sym, (m + m.transpose(0, 2, 1)) * 0.5, rtol=1e-15)

    def test_float64_matrix_conversions_and_refusals(self):
        for device in (None, "python"):
            spirthon.set_device(device)
            with self.assertRaisesRegex(TypeError, "float64 array"):
                solve.launch(2, np.zeros((2, 3, 3), np.float32), np.zeros((2, 3)), dmat22(1.0, 0.0, 0.0, 1.0),
                             np.zeros((2, 3)), np.zeros(2), np.zeros((2, 3, 3)))
        m = dmat33(mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0))
        self.assertEqual(m.type, dmat33)
        self.assertEqual(type(m[2, 2]), type(f64(0.0)))
        self.assertEqual(mat33(m * f64(0.1))[0, 0], f32(0.1))
        with self.assertRaisesRegex(TypeError, "f32"):
            m * f32(2.0)
        with self.assertRaises(TypeError):
            m @ vec3(1.0)


if __name__ == "__main__":
    unittest.main()

"""Python's answers on every device where a C-like device would give another: an ``f16``
power is the half nearest to the ``f32`` one (NumPy's), ``min``/``max`` keep Python's pick
with NaN and signed zeros. Each checked on the GPU and on the python device against the
answer computed here in NumPy or CPython."""

import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (Array, Array2D, f16, f16vec2, f32, f64, global_id, kernel, mat22,  # noqa: E402
                      struct, vec2, vec3)
from test_gpu import np, on_both, setUpModule  # noqa: E402,F401


@kernel
def powers(x: Array[f16], out: Array[f16], v: Array[f16vec2], vout: Array[f16vec2]):
    i = global_id().x
    h = x[i]
    out[i * 5] = h ** 2
    out[i * 5 + 1] = h ** 3
    out[i * 5 + 2] = h ** 5
    out[i * 5 + 3] = h ** -2
    out[i * 5 + 4] = h ** 7
    vout[i] = v[i] ** 3


@kernel
def picks(a: Array[f32], b: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i * 4] = min(a[i], b[i])
    out[i * 4 + 1] = max(a[i], b[i])
    out[i * 4 + 2] = min(a[i], b[i], 0.5)
    out[i * 4 + 3] = max(b[i], a[i], -0.5)


@struct
class Spring:
    k: f32
    rest: f16


@kernel
def scaled(a: f32, h: f16, d: f64, v: vec2, s: Spring, out: Array[f32]):
    out[0] = a + f32(h) + f32(d) + v.x + v.y + s.k + f32(s.rest)


def f32_power(x, n):
    """``x ** n`` by square-and-multiply in float32 (the reciprocal of a negative ``n``
    too), as docs/language.md defines an f16 power before its one rounding to half."""
    x = np.asarray(x, np.float32)
    k, result, base = abs(n), None, x
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        while k:
            if k & 1:
                result = base if result is None else result * base
            k >>= 1
            if k:
                base = base * base
        if n < 0:
            result = np.float32(1) / result
    return result


class HalfPowers(unittest.TestCase):
    def test_a_power_is_rounded_to_half_once(self):
        rng = np.random.default_rng(5)
        x = rng.uniform(-14, 14, 2048).astype(np.float16)
        # (No zero: Python's 0.0 ** -2 raises ZeroDivisionError.)
        x[:4] = [12.421875, 6.103515625e-05, -3.0, 60000.0]
        x[x == 0] = 1
        v = rng.uniform(-20, 20, (len(x), 2)).astype(np.float16)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            want = np.stack([f32_power(x, n).astype(np.float16) for n in (2, 3, 5, -2, 7)],
                            axis=1).reshape(-1)
            want_v = f32_power(v, 3).astype(np.float16)
        # The case: 12.421875 ** 3 is 1916.7 in f32, so 1917 in half (1916 when
        # each product is rounded to half).
        self.assertEqual(float(want[1]), 1917.0)

        def run():
            out = np.zeros(len(x) * 5, np.float16)
            vout = np.zeros_like(v)
            powers.launch(len(x), x, out, v, vout)
            return out, vout

        for out, vout in on_both(run):
            np.testing.assert_array_equal(out, want)
            np.testing.assert_array_equal(vout, want_v)


class MinMax(unittest.TestCase):
    def test_nan_and_signed_zeros_are_picked_as_python_picks(self):
        vals = [math.nan, 1.0, 0.0, -0.0, math.inf, -math.inf, 2.5, -3.0]
        a = np.array([x for x in vals for _ in vals], np.float32)
        b = np.array([y for _ in vals for y in vals], np.float32)
        want = []
        for x, y in zip(a.tolist(), b.tolist()):
            want += [min(x, y), max(x, y), min(x, y, 0.5), max(y, x, -0.5)]
        want = np.array(want, np.float32)

        def run():
            out = np.zeros(len(a) * 4, np.float32)
            picks.launch(len(a), a, b, out)
            return out

        for out in on_both(run):
            # Bit for bit: NaN where Python's is NaN, and the zero's sign.
            np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))


class FloatArguments(unittest.TestCase):
    """A finite number past a float parameter's range is an ``OverflowError`` naming the
    argument (as ``struct.pack`` refuses it), on both devices and both launch paths; inf,
    nan and the largest finite values pass."""

    def launch(self, **changed):
        args = dict(a=1.0, h=1.0, d=1.0, v=(1.0, 1.0), s={"k": 1.0, "rest": 1.0})
        args.update(changed)
        out = np.zeros(1, np.float32)
        scaled.launch(1, args["a"], args["h"], args["d"], args["v"], args["s"], out)
        return out

    def test_out_of_range_floats_are_refused(self):
        cases = [
            (dict(a=1e39), "argument 'a' is 1e+39, which does not fit in f32"),
            (dict(a=-(2 ** 128)), "argument 'a' is -340282366920938463463374607431768211456"),
            (dict(a=np.float64(3.5e38)), "does not fit in f32"),
            (dict(h=70000.0), "argument 'h' is 70000.0, which does not fit in f16"),
            (dict(d=10 ** 400), "argument 'd' is an int of 401 digits, which does not fit in f64"),
            (dict(v=(1.0, 1e39)), "argument 'v' (component 1 of a vec2) is 1e+39"),
            (dict(s={"k": 1.0, "rest": 1e5}), "field rest of a Spring) is 100000.0"),
        ]

        def run():
            for changed, words in cases:
                # Twice: the first launch and the one-pass launch after it.
                for _ in range(2):
                    with self.assertRaises(OverflowError) as e:
                        self.launch(**changed)
                    self.assertIn(words, str(e.exception))
                self.launch()
            big = self.launch(a=3.4028235e38, h=65504.0)
            inf = self.launch(a=math.inf, d=-math.inf)
            nan = self.launch(h=math.nan)
            return big[0], inf[0], nan[0]

        for big, inf, nan in on_both(run):
            self.assertEqual(big, np.float32(3.4028235e38))
            self.assertTrue(np.isnan(inf))
            self.assertTrue(np.isnan(nan))


@kernel
def lengths(p: Array[vec3], grid: Array2D[vec3], m: Array[mat22], out: Array[f32]):
    i = global_id().x
    out[i] = p[i].x + p[i].y * 2.0 + p[i].z * 3.0 + grid[i, 1].z + m[i][1][0]


class DeviceArraysOfComponents(unittest.TestCase):
    """A device array of scalars whose last axes are a vector's or matrix's components
    (``spirthon.array`` of a float32 ``(N, 3)`` array) is taken where that NumPy array is
    taken, on every device (the GPU refused what the python device took)."""

    def test_one_rule_on_both_devices(self):
        p = np.arange(12, dtype=np.float32).reshape(4, 3)
        grid = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
        m = np.arange(16, dtype=np.float32).reshape(4, 2, 2)
        want = p[:, 0] + p[:, 1] * 2 + p[:, 2] * 3 + grid[:, 1, 2] + m[:, 1, 0]

        def run():
            out = spirthon.zeros(4, f32)
            lengths.launch(4, spirthon.array(p), spirthon.array(grid), spirthon.array(m), out)
            with self.assertRaises(TypeError):
                lengths.launch(4, spirthon.array(np.zeros((4, 4), np.float32)), spirthon.array(grid),
                               spirthon.array(m), out)
            with self.assertRaises(TypeError):
                lengths.launch(4, spirthon.array(p.astype(np.float64)), spirthon.array(grid),
                               spirthon.array(m), out)
            return out.numpy()

        for out in on_both(run):
            np.testing.assert_array_equal(out, want)


@kernel
def blend(a: Array[f32], b: Array[f32], out: Array[vec3], n: Array[f32]):
    i = global_id().x
    v = out[i]
    v.x = a[i] + b[len(b) - 1 - i]
    out[i] = v
    n[i] += f32(a.shape[0])


class WithoutTheNativeModule(unittest.TestCase):
    def test_one_array_read_through_two_parameters(self):
        # The python device without the compiler to say what a kernel writes: its text says
        # (was: every array counted as written, so the same array twice was refused).
        native = spirthon.gpu._native
        spirthon.set_device("python")
        spirthon.gpu._native = None
        try:
            x = np.arange(4, dtype=np.float32)
            out = np.zeros((4, 3), np.float32)
            n = np.zeros(4, np.float32)
            blend.launch(4, x, x, out, n)
            np.testing.assert_array_equal(out[:, 0], x + x[::-1])
            np.testing.assert_array_equal(n, [4.0] * 4)
            # Memory the kernel writes passed twice is still refused.
            with self.assertRaisesRegex(ValueError, "and the kernel writes 'out'"):
                blend.launch(4, x, x, out, out[:, 1])
        finally:
            spirthon.gpu._native = native
            spirthon.set_device(None)


if __name__ == "__main__":
    unittest.main()

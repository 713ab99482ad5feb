"""Vectors of every scalar width (``i8vec4 u8vec4 i16vec2 u16vec2 i64vec3 u64vec3 f16vec3``,
Warp's ``vec4b vec4ub vec2s vec2us vec3l vec3ul vec3h``) from Python: NumPy ``(N, n)`` arrays
of the scalar's dtype as they come, device arrays, parameters, struct fields, and the same
results on the GPU, on the python device and in NumPy's fixed-width arithmetic."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (Array, f16, f16vec2, f16vec3, f16vec4, u16vec4, i16vec2, i64vec3, i8vec4, u16vec2, u64, u64vec3, u8, u8vec4,  # noqa: E402
                      global_id, kernel, struct)
# The same requirements as the other launches: the native module, NumPy and a device.
from test_gpu import np, on_both, setUpModule  # noqa: E402,F401


@struct
class Pixel:
    rgba: u8vec4
    normal: f16vec3
    weight: f16


@kernel
def blend(a: Array[u8vec4], b: Array[u8vec4], out: Array[u8vec4], gain: u8):
    i = global_id().x
    out[i] = a[i] + b[i] * gain


@kernel
def halves(x: Array[f16vec3], k: f16vec3, out: Array[f16vec3]):
    i = global_id().x
    out[i] = x[i] * k + x[i] / f16(3)


@kernel
def longs(x: Array[i64vec3], y: Array[u64vec3], d: i64vec3, q: Array[i64vec3], r: Array[u64vec3]):
    i = global_id().x
    q[i] = x[i] // d + x[i] % d
    r[i] = (y[i] * u64(0x9E3779B97F4A7C15)) >> u64(7)


@kernel
def small(s: Array[i16vec2], t: Array[u16vec2], b: Array[i8vec4], out_s: Array[i16vec2], out_t: Array[u16vec2],
          out_b: Array[i8vec4]):
    i = global_id().x
    out_s[i] = s[i] * i16vec2(300, -7)
    out_t[i] = t[i] - u16vec2(40000, 1)
    out_b[i] = -b[i] + i8vec4(100)


@kernel
def shade(px: Array[Pixel], out: Array[Pixel], lift: u8vec4):
    i = global_id().x
    p = px[i]
    p.rgba = p.rgba + lift
    p.normal = -p.normal * p.weight
    p.weight = p.weight + f16(1)
    out[i] = p


@kernel
def words(h4: Array[f16vec4], w4: Array[u16vec4], h2: Array[f16vec2], out_h4: Array[f16vec4], out_w4: Array[u16vec4],
          out_h2: Array[f16vec2]):
    # Elements of whole words: each stored as its words, neighbours at the same time.
    i = global_id().x
    out_h4[i] = h4[i].wzyx * f16(0.5) - h4[i]
    out_w4[i] = w4[i] * u16vec4(3, 5, 7, 9) + w4[(i + 1) % len(w4)]
    out_h2[i] = h2[i] + f16vec2(h4[i].x, f16(1))


class Widths(unittest.TestCase):
    rng = np.random.default_rng(5)

    def test_u8_pixels_wrap_as_numpy(self):
        a = self.rng.integers(0, 256, (300, 4), dtype=np.uint8)
        b = self.rng.integers(0, 256, (300, 4), dtype=np.uint8)

        def run():
            out = np.zeros((300, 4), np.uint8)
            blend.launch(300, a, b, out, 3)
            return out

        gpu, cpu = on_both(run)
        want = a + b * np.uint8(3)
        np.testing.assert_array_equal(gpu, want)
        np.testing.assert_array_equal(cpu, want)

    def test_halves_round_after_every_operation(self):
        x = (self.rng.standard_normal((257, 3)) * 1000).astype(np.float16)
        k = f16vec3(1.5, -0.1, 60000)

        def run():
            out = np.zeros((257, 3), np.float16)
            halves.launch(257, x, k, out)
            return out

        gpu, cpu = on_both(run)
        kk = np.array([1.5, -0.1, 60000], np.float16)
        want = x * kk + x / np.float16(3)
        np.testing.assert_array_equal(gpu.view(np.uint16), want.view(np.uint16))
        np.testing.assert_array_equal(cpu.view(np.uint16), want.view(np.uint16))

    def test_64_bit_vectors_floor_and_wrap(self):
        x = self.rng.integers(-2 ** 62, 2 ** 62, (128, 3), dtype=np.int64)
        y = self.rng.integers(0, 2 ** 64 - 1, (128, 3), dtype=np.uint64)
        d = i64vec3(7, -1000000007, 2 ** 40 + 1)

        def run():
            q, r = np.zeros((128, 3), np.int64), np.zeros((128, 3), np.uint64)
            longs.launch(128, x, y, d, q, r)
            return q, r

        (gq, gr), (cq, cr) = on_both(run)
        dd = np.array([7, -1000000007, 2 ** 40 + 1], np.int64)
        want_q = x // dd + x % dd
        with np.errstate(over="ignore"):
            want_r = (y * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(7)
        for got_q, got_r in ((gq, gr), (cq, cr)):
            np.testing.assert_array_equal(got_q, want_q)
            np.testing.assert_array_equal(got_r, want_r)

    def test_elements_of_whole_words_store_their_words(self):
        h4 = (self.rng.standard_normal((333, 4)) * 100).astype(np.float16)
        w4 = self.rng.integers(0, 2 ** 16, (333, 4), dtype=np.uint16)
        h2 = (self.rng.standard_normal((333, 2)) * 100).astype(np.float16)

        def run():
            outs = np.zeros((333, 4), np.float16), np.zeros((333, 4), np.uint16), np.zeros((333, 2), np.float16)
            words.launch(333, h4, w4, h2, *outs)
            return outs

        gpu, cpu = on_both(run)
        want = (h4[:, ::-1] * np.float16(0.5) - h4,
                w4 * np.array([3, 5, 7, 9], np.uint16) + np.roll(w4, -1, axis=0),
                h2 + np.stack([h4[:, 0], np.ones(333, np.float16)], axis=1))
        for got in (gpu, cpu):
            for g, w in zip(got, want):
                self.assertEqual(g.tobytes(), w.tobytes())

    def test_8_and_16_bit_vectors_on_device_arrays(self):
        s = spirthon.array(self.rng.integers(-2 ** 15, 2 ** 15, (64, 2), dtype=np.int16), i16vec2)
        t = spirthon.array(self.rng.integers(0, 2 ** 16, (64, 2), dtype=np.uint16), u16vec2)
        b = spirthon.array(self.rng.integers(-128, 128, (64, 4), dtype=np.int8), i8vec4)
        out_s, out_t, out_b = spirthon.zeros(64, i16vec2), spirthon.zeros(64, u16vec2), spirthon.zeros(64, i8vec4)
        small.launch(64, s, t, b, out_s, out_t, out_b)
        self.assertEqual(out_s.numpy().dtype, np.int16)
        self.assertEqual(out_b.numpy().shape, (64, 4))
        np.testing.assert_array_equal(out_s.numpy(), s.numpy() * np.array([300, -7], np.int16))
        np.testing.assert_array_equal(out_t.numpy(), t.numpy() - np.array([40000, 1], np.uint16))
        np.testing.assert_array_equal(out_b.numpy(), -b.numpy() + np.int8(100))

    def test_struct_fields_of_narrow_vectors(self):
        px = np.zeros(50, Pixel.numpy_dtype)
        px["rgba"] = self.rng.integers(0, 256, (50, 4))
        px["normal"] = self.rng.standard_normal((50, 3)).astype(np.float16)
        px["weight"] = self.rng.standard_normal(50).astype(np.float16)

        def run():
            out = np.zeros(50, Pixel.numpy_dtype)
            shade.launch(50, px, out, u8vec4(10, 20, 200, 0))
            return out

        gpu, cpu = on_both(run)
        self.assertEqual(gpu.tobytes(), cpu.tobytes())
        np.testing.assert_array_equal(gpu["rgba"], px["rgba"] + np.array([10, 20, 200, 0], np.uint8))
        np.testing.assert_array_equal(gpu["normal"], -px["normal"] * px["weight"][:, None])
        np.testing.assert_array_equal(gpu["weight"], px["weight"] + np.float16(1))

    def test_a_parameter_out_of_its_components_range_is_refused(self):
        with self.assertRaises(OverflowError) as e:
            shade.launch(4, np.zeros(4, Pixel.numpy_dtype), np.zeros(4, Pixel.numpy_dtype), [1, 2, 300, 4])
        self.assertIn("300", str(e.exception))
        with self.assertRaises(TypeError):  # an int8 image for a u8vec4 array
            blend.launch(4, np.zeros((4, 4), np.uint8), np.zeros((4, 4), np.int8), np.zeros((4, 4), np.uint8), u8(1))

    def test_executor_vectors_compute_as_their_scalars(self):
        v = u8vec4(250, 1, 2, 3) + u8vec4(10)
        self.assertEqual(v.tolist(), [4, 11, 12, 13])
        h = f16vec3(0.1, 1, 65504) * f16(2)
        self.assertEqual([float(c) for c in h.tolist()], [float(np.float16(0.1) * np.float16(2)), 2.0, float("inf")])
        w = u64vec3(2 ** 64 - 1, 0, 5) + u64vec3(1)
        self.assertEqual(w.tolist(), [0, 1, 6])
        self.assertEqual(repr(i16vec2(-5, 7)), "i16vec2(-5, 7)")


if __name__ == "__main__":
    unittest.main()

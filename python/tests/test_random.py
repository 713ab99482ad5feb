"""Random streams: the words are Warp's PCG stream (checked against the formula written
here in NumPy's uint32 arithmetic), bit for bit the same on the GPU and the reference
executor; a stream resumes from an ``Array[Rand]``; and the distributions pass moment and
chi-square tests at fixed seeds (thresholds at p = 0.001, so a correct generator fails one
of these seeds about once in a thousand changes of seed, never by chance on a rerun)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (  # noqa: E402
    Array, f32, i32, u32, vec2, vec3, kernel, global_id, Rand, rand_init, randf, randi, randu,
    randn, sample_unit_disk, sample_unit_sphere, sample_unit_sphere_surface,
)
from test_gpu import np, setUpModule  # noqa: E402,F401


def pcg(s):
    """Warp's ``rand_pcg`` on a NumPy uint32 array."""
    with np.errstate(over="ignore"):
        b = s * np.uint32(747796405) + np.uint32(2891336453)
        c = ((b >> ((b >> np.uint32(28)) + np.uint32(4))) ^ b) * np.uint32(277803737)
        return (c >> np.uint32(22)) ^ c


@kernel
def first_words(seed: i32, words: Array[u32], uniform: Array[f32], ints: Array[i32]):
    i = global_id().x
    rng = rand_init(seed, i)
    words[i] = randu(rng)
    uniform[i] = randf(rng)
    ints[i] = randi(rng, -10, 20)


@kernel
def resume(states: Array[Rand], out: Array[f32], draws: i32):
    i = global_id().x
    rng = states[i]
    for k in range(draws):
        out[i * draws + k] = randf(rng)
    states[i] = rng


@kernel
def uniforms(seed: i32, out: Array[f32], per: i32):
    i = global_id().x
    rng = rand_init(seed, i)
    for k in range(per):
        out[i * per + k] = randf(rng)


@kernel
def shapes(seed: i32, normal: Array[f32], dice: Array[i32], disk: Array[vec2],
           surface: Array[vec3], ball: Array[vec3]):
    i = global_id().x
    rng = rand_init(seed, i)
    normal[i] = randn(rng)
    dice[i] = randi(rng, 1, 7)
    disk[i] = sample_unit_disk(rng)
    surface[i] = sample_unit_sphere_surface(rng)
    ball[i] = sample_unit_sphere(rng)


def chi_square(counts):
    want = counts.sum() / len(counts)
    return float(((counts - want) ** 2 / want).sum())


# The 0.999 quantiles of the chi-square distribution, by degrees of freedom.
CHI2_999 = {5: 20.52, 63: 103.44}


class Streams(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def test_words_are_warps_stream_on_both_devices(self):
        n, seed = 4096, 1234
        s0 = pcg(np.uint32(seed) + pcg(np.arange(n, dtype=np.uint32)))
        w1 = pcg(s0)
        w2 = pcg(w1)
        w3 = pcg(w2)
        want_u = (w2 >> np.uint32(8)).astype(np.float32) * np.float32(2.0 ** -24)
        want_i = (-10 + (w3 % np.uint32(30)).astype(np.int64)).astype(np.int32)
        for device, count in ((None, n), ("python", 256)):
            spirthon.set_device(device)
            words = np.zeros(count, np.uint32)
            u = np.zeros(count, np.float32)
            ints = np.zeros(count, np.int32)
            first_words.launch(count, seed, words, u, ints)
            np.testing.assert_array_equal(words, w1[:count])
            np.testing.assert_array_equal(u, want_u[:count])
            np.testing.assert_array_equal(ints, want_i[:count])

    def test_a_stream_resumes_from_an_array_of_states(self):
        n = 64
        self.assertEqual(Rand.numpy_dtype.itemsize, 4)
        start = np.zeros(n, Rand.numpy_dtype)
        start["state"] = pcg(np.arange(n, dtype=np.uint32) * np.uint32(7919))
        outs = {}
        for device in (None, "python"):
            spirthon.set_device(device)
            whole = np.zeros(n * 6, np.float32)
            states = start.copy()
            resume.launch(n, states, whole, 6)
            end = states.copy()
            # Three draws, then three more from the stored states.
            halves = [np.zeros(n * 3, np.float32), np.zeros(n * 3, np.float32)]
            states = start.copy()
            resume.launch(n, states, halves[0], 3)
            resume.launch(n, states, halves[1], 3)
            np.testing.assert_array_equal(states, end)
            joined = np.concatenate([halves[0].reshape(n, 3), halves[1].reshape(n, 3)], axis=1)
            np.testing.assert_array_equal(joined.reshape(-1), whole)
            outs[device] = whole
        np.testing.assert_array_equal(outs[None], outs["python"])
        # A struct value on the host is a stream too.
        r = rand_init(1234, 5)
        self.assertEqual(type(r), Rand)
        self.assertEqual(int(randu(r)), int(pcg(pcg(np.uint32(1234) + pcg(np.uint32(5))))))

    def test_uniform_floats_are_uniform(self):
        per, n = 16, 1 << 14
        for seed in (1, 2024):
            out = np.zeros(per * n, np.float32)
            uniforms.launch(n, seed, out, per)
            self.assertGreaterEqual(out.min(), 0.0)
            self.assertLess(out.max(), 1.0)
            # Mean 1/2 and variance 1/12, within 4 standard errors.
            self.assertLess(abs(out.mean() - 0.5), 4 * np.sqrt(1 / 12 / out.size))
            self.assertLess(abs(out.var() - 1 / 12), 4 * np.sqrt(1 / 180 / out.size))
            counts = np.bincount((out * 64).astype(np.int64), minlength=64)
            self.assertLess(chi_square(counts), CHI2_999[63], seed)
            # Neighbouring draws of one stream, and the same draw of neighbouring streams,
            # are uncorrelated.
            grid = out.reshape(n, per)
            for a, b in ((grid[:, 0], grid[:, 1]), (grid[:-1, 0], grid[1:, 0])):
                self.assertLess(abs(np.corrcoef(a, b)[0, 1]), 4 / np.sqrt(len(a)))

    def test_the_other_distributions(self):
        n, seed = 1 << 16, 77
        normal = np.zeros(n, np.float32)
        dice = np.zeros(n, np.int32)
        disk = np.zeros((n, 2), np.float32)
        surface = np.zeros((n, 3), np.float32)
        ball = np.zeros((n, 3), np.float32)
        shapes.launch(n, seed, normal, dice, disk, surface, ball)
        se = 1 / np.sqrt(n)
        self.assertLess(abs(normal.mean()), 4 * se)
        self.assertLess(abs(normal.var() - 1), 4 * np.sqrt(2) * se)
        self.assertLess(abs((normal ** 4).mean() - 3), 4 * np.sqrt(96) * se)
        self.assertEqual(set(np.unique(dice)), {1, 2, 3, 4, 5, 6})
        self.assertLess(chi_square(np.bincount(dice - 1, minlength=6)), CHI2_999[5])
        r2 = (disk.astype(np.float64) ** 2).sum(axis=1)
        self.assertTrue((r2 <= 1 + 1e-6).all())
        # |p|² is uniform on [0, 1] in the disk; |p|³ in the ball.
        self.assertLess(abs(r2.mean() - 0.5), 4 * np.sqrt(1 / 12) * se)
        np.testing.assert_allclose(np.linalg.norm(surface, axis=1), 1, atol=1e-6)
        self.assertLess(np.abs(surface.mean(axis=0)).max(), 4 * np.sqrt(1 / 3) * se)
        r3 = np.linalg.norm(ball.astype(np.float64), axis=1) ** 3
        self.assertTrue((r3 <= 1 + 1e-5).all())
        self.assertLess(abs(r3.mean() - 0.5), 4 * np.sqrt(1 / 12) * se)
        # The executor draws the same points (the math functions within their tolerance).
        spirthon.set_device("python")
        m = 64
        cpu = [np.zeros(m, np.float32), np.zeros(m, np.int32), np.zeros((m, 2), np.float32),
               np.zeros((m, 3), np.float32), np.zeros((m, 3), np.float32)]
        shapes.launch(m, seed, *cpu)
        for got, want in zip(cpu, (normal, dice, disk, surface, ball)):
            np.testing.assert_allclose(got, want[:m], rtol=4e-6, atol=1e-6)

    def test_every_draw_is_warps_formula_on_both_devices(self):
        # Warp's formulas (its rand.h), written here from the stream's words: each operation
        # in float64 on float32 values, rounded to float32, as Warp's float code computes.
        n, seed = 4096, 9
        f = np.float32

        def r(x):
            return np.asarray(x, np.float64).astype(f)

        words, state = [], pcg(np.uint32(seed) + pcg(np.arange(n, dtype=np.uint32)))
        for _ in range(10):
            state = pcg(state)
            words.append(state)
        u = [r((w >> np.uint32(8)).astype(np.float64) * 2.0 ** -24) for w in words]
        tau = f(2 * np.pi)
        d64 = np.float64
        lg = r(np.log(d64(r(d64(u[0]) + d64(f(5.96e-8))))))
        radius = r(np.sqrt(d64(r(-2.0 * d64(lg)))))
        normal = r(d64(radius) * d64(r(np.cos(d64(r(d64(tau) * d64(u[1])))))))
        dice = (1 + (words[2] % np.uint32(6)).astype(np.int64)).astype(np.int32)
        rad, th = r(np.sqrt(d64(u[3]))), r(d64(tau) * u[4])
        disk = np.stack([r(d64(rad) * d64(r(np.cos(d64(th))))),
                         r(d64(rad) * d64(r(np.sin(d64(th)))))], axis=1)

        def sphere(ua, ub, uc=None):
            phi = r(np.arccos(d64(r(1.0 - d64(r(2.0 * d64(ua)))))))
            t = r(d64(tau) * d64(ub))
            p = [r(np.cos(d64(t))), r(np.sin(d64(t))), r(np.cos(d64(phi)))]
            if uc is not None:
                k = r(np.power(d64(uc), d64(f(1.0) / f(3.0))))
                p = [r(d64(k) * d64(c)) for c in p]
            s = r(np.sin(d64(phi)))
            return np.stack([r(d64(p[0]) * d64(s)), r(d64(p[1]) * d64(s)), p[2]], axis=1)

        want = (normal, dice, disk, sphere(u[5], u[6]), sphere(u[7], u[8], u[9]))
        for device, count in ((None, n), ("python", 512)):
            spirthon.set_device(device)
            got = [np.zeros(count, f), np.zeros(count, np.int32), np.zeros((count, 2), f),
                   np.zeros((count, 3), f), np.zeros((count, 3), f)]
            shapes.launch(count, seed, *got)
            np.testing.assert_array_equal(got[1], dice[:count])
            for name, g, w in zip(("randn", "randi", "disk", "surface", "ball"), got, want):
                # Within the math functions' tolerance (a few float32 ULPs of each step).
                np.testing.assert_allclose(g, w[:count], rtol=4e-6, atol=2e-6, err_msg=name)


if __name__ == "__main__":
    unittest.main()

"""`return` before `barrier()`, the CUDA guard: an invocation that returns does nothing more,
on every device (the compiled kernel keeps it, inactive, taking the barriers the others take).
And barriers that not every invocation of a workgroup would take are refused at compile time,
with the line. Each kernel runs on the GPU and on the python device against NumPy."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (Array, CompileError, f32, func, global_id, i32, kernel,  # noqa: E402
                      local_id, shared_array, barrier)
from test_gpu import import_text, np, on_both, setUpModule  # noqa: E402,F401

WG = 32


@kernel(workgroup_size=WG)
def smooth(a: Array[f32], out: Array[f32], n: i32, steps: i32):
    """numba-cuda's Laplace idiom: rounds of neighbour averages in shared memory, each
    workgroup's segment on its own, its ends held."""
    tile = shared_array(f32, WG + 2)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    v = a[i]
    for s in range(steps):
        tile[t + 1] = v
        if t == 0:
            tile[0] = v
        if t == WG - 1 or i == n - 1:
            tile[t + 2] = v
        barrier()
        v = (tile[t] + tile[t + 1] + tile[t + 2]) / 3.0
        barrier()
    out[i] = v


def smooth_expected(a, n, steps):
    out = np.zeros_like(a)
    for w in range(0, n, WG):
        seg = a[w:min(w + WG, n)].copy()
        for _ in range(steps):
            p = np.concatenate([seg[:1], seg, seg[-1:]])
            seg = (p[:-2] + p[1:-1] + p[2:]) / np.float32(3.0)
        out[w:w + len(seg)] = seg
    return out


@kernel(workgroup_size=WG)
def scan(a: Array[i32], out: Array[i32], n: i32):
    """A workgroup's inclusive prefix sum (Hillis and Steele), after the guard."""
    s = shared_array(i32, WG)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    s[t] = a[i]
    barrier()
    offset = 1
    while offset < WG:
        v = 0
        if t >= offset:
            v = s[t - offset]
        barrier()
        if t >= offset:
            s[t] += v
        barrier()
        offset *= 2
    out[i] = s[t]


@func
def exchange(tile: Array[f32], t: i32, v: f32) -> f32:
    tile[t] = v
    barrier()
    return tile[(t + 1) % WG]


@kernel(workgroup_size=WG)
def leaves(a: Array[i32], out: Array[f32], stop: Array[i32]):
    """A `return` in a loop without barriers leaves it (its `else` skipped), one in a loop
    with barriers keeps its rounds, and a func takes the barrier after both."""
    tile = shared_array(f32, WG)
    i = global_id().x
    t = local_id().x
    for k in range(4):
        if a[i] == k:
            return
    else:
        out[i] = 1.0
    v = f32(i)
    for r in range(3):
        if r == stop[i]:
            return
        v = exchange(tile, t, v)
        barrier()
    out[i] = out[i] + v


def leaves_expected(a, stop):
    n = len(a)
    out = np.zeros(n, np.float32)
    alive = a >= 4
    out[alive] = 1.0
    v = np.arange(n, dtype=np.float32)
    for r in range(3):
        alive &= stop != r
        new = v.copy()
        for w in range(0, n, WG):
            for t in range(WG):
                j = w + (t + 1) % WG
                if alive[w + t]:
                    new[w + t] = v[j]
        v = new
    out[alive] += v[alive]
    return out, alive


@kernel(workgroup_size=8)
def two_guards(a: Array[i32], out: Array[i32], n: i32):
    """Two returns in a row, then a barrier: the second is lowered where the invocation
    may already be inactive (that path must not leave the workgroup either)."""
    s = shared_array(i32, 8)
    f = shared_array(i32, 8)
    i = global_id().x
    t = local_id().x
    f[t] = 0
    barrier()
    if i >= n:
        return
    if a[i] == 0:
        return
    s[t] = a[i]
    f[t] = 1
    barrier()
    if f[t ^ 1] == 1:
        out[i] = s[t ^ 1]
    else:
        out[i] = -2


@func
def swap_pairs(tile: Array[i32], t: i32, v: i32) -> i32:
    tile[t] = v
    barrier()
    return tile[t ^ 1]


@kernel(workgroup_size=8)
def locals_after_the_guard(a: Array[i32], out: Array[i32], n: i32):
    """Locals first assigned after the return, passed to a func that takes a barrier, and
    a sum updated with its result: the returned invocations pass zeros and update nothing."""
    tile = shared_array(i32, 8)
    i = global_id().x
    t = local_id().x
    if i >= n:
        return
    acc = 10
    q = a[i] * 2
    acc += swap_pairs(tile, t, q)
    out[i] = acc


@kernel(workgroup_size=8)
def else_of_a_loop(a: Array[i32], b: Array[i32], out: Array[i32]):
    """A barrier in the `else` of a loop whose trip count differs but that no `break`
    leaves: every invocation that did not return runs the `else` once."""
    s = shared_array(i32, 8)
    f = shared_array(i32, 8)
    i = global_id().x
    t = local_id().x
    f[t] = 0
    barrier()
    q = 0
    while q < a[i]:
        if b[i] == q:
            return
        q += 1
    else:
        s[t] = q
        f[t] = 1
        barrier()
    if f[t ^ 1] == 1:
        out[i] = s[t ^ 1]
    else:
        out[i] = -2


def pairs_expected(alive, value):
    out = np.full(len(alive), -1, np.int32)
    for j in np.nonzero(alive)[0]:
        out[j] = value[j ^ 1] if alive[j ^ 1] else -2
    return out


class ReturnBeforeBarrier(unittest.TestCase):
    def test_two_guards_in_a_row(self):
        n = 13
        a = np.array([3, 0, 5, 7, 0, 0, 2, 9, 4, 1, 0, 6, 8, 5, 5, 5], np.int32)

        def run():
            out = np.full(16, -1, np.int32)
            two_guards.launch(16, a, out, n)
            return out
        alive = (np.arange(16) < n) & (a != 0)
        for got in on_both(run):
            self.assertEqual(got.tolist(), pairs_expected(alive, a).tolist())

    def test_locals_first_assigned_after_the_guard(self):
        n = 13
        a = np.arange(16, dtype=np.int32) + 1

        def run():
            out = np.full(16, -1, np.int32)
            locals_after_the_guard.launch(16, a, out, n)
            return out
        alive = np.arange(16) < n
        # A partner that returned wrote no slot (undefined on the GPU): not compared.
        both = alive & alive[np.arange(16) ^ 1]
        for got in on_both(run):
            self.assertEqual(got[both].tolist(), (10 + (2 * a)[np.arange(16) ^ 1])[both].tolist())
            self.assertTrue((got[~alive] == -1).all())

    def test_a_barrier_in_the_else_of_a_loop_without_break(self):
        a = (np.arange(16) % 5).astype(np.int32)
        b = ((np.arange(16) * 3) % 7).astype(np.int32)

        def run():
            out = np.full(16, -1, np.int32)
            else_of_a_loop.launch(16, a, b, out)
            return out
        alive = b >= a
        for got in on_both(run):
            self.assertEqual(got.tolist(), pairs_expected(alive, a).tolist())

    def test_the_laplace_idiom_computes_every_segment(self):
        for n, threads in ((100, 128), (70, 160), (64, 64)):
            a = (np.arange(n, dtype=np.float32) ** 1.5).astype(np.float32)

            def run():
                out = np.zeros(n, np.float32)
                smooth.launch(threads, a, out, n, 5)
                return out
            want = smooth_expected(a, n, 5)
            for got in on_both(run):
                np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-5)

    def test_a_prefix_scan_after_the_guard(self):
        n = 100
        a = ((np.arange(n) * 7) % 11).astype(np.int32)

        def run():
            out = np.zeros(n, np.int32)
            scan.launch(128, a, out, n)
            return out
        want = np.concatenate([np.cumsum(a[w:w + WG]) for w in range(0, n, WG)])
        for got in on_both(run):
            self.assertEqual(got.tolist(), want.tolist())

    def test_returns_in_loops_and_a_barrier_in_a_func(self):
        rng = np.random.default_rng(5)
        n = 3 * WG
        a = rng.integers(0, 12, n).astype(np.int32)
        stop = rng.integers(0, 6, n).astype(np.int32)
        want, alive = leaves_expected(a, stop)
        # The exchanged values of returned neighbours are the GPU's undefined shared memory:
        # only the invocations whose neighbours lived through each round are compared.
        steady = np.zeros(n, bool)
        for w in range(0, n, WG):
            for t in range(WG):
                steady[w + t] = alive[w + t] and all(
                    alive[w + (t + d) % WG] for d in range(1, 4))

        def run():
            out = np.zeros(n, np.float32)
            leaves.launch(n, a, out, stop)
            return out
        for got in on_both(run):
            np.testing.assert_array_equal(got[~alive], want[~alive])
            np.testing.assert_array_equal(got[steady], want[steady])
        self.assertGreater(steady.sum(), 0)
        self.assertGreater((~alive).sum(), 0)


DIVERGENT = '''
from spirthon import Array, barrier, f32, func, global_id, i32, kernel, local_id


@kernel(workgroup_size=4)
def split(out: Array[i32]):
    if local_id().x < 2:
        barrier()
    out[local_id().x] = 1


@func
def rounds(n: i32):
    for k in range(n):
        barrier()


@kernel(workgroup_size=4)
def per_thread(out: Array[i32]):
    rounds(global_id().x)
'''


class DivergentBarriers(unittest.TestCase):
    def test_refused_with_the_line_on_every_device(self):
        mod = import_text(self, "divergent_barriers", DIVERGENT)
        for dev in (None, "python"):
            spirthon.set_device(dev)
            with self.assertRaises(CompileError) as cm:
                mod.split.launch(4, np.zeros(4, np.int32))
            msg = str(cm.exception)
            self.assertIn("divergent_barriers.py:8:", msg)
            self.assertIn("not every invocation of the workgroup takes", msg)
            self.assertIn("this condition can differ", msg)
            with self.assertRaises(CompileError) as cm:
                mod.per_thread.launch(4, np.zeros(4, np.int32))
            msg = str(cm.exception)
            self.assertIn("divergent_barriers.py:15:", msg)
            self.assertIn("a call passes `n` a value that can differ", msg)


if __name__ == "__main__":
    unittest.main()

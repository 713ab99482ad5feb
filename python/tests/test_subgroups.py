"""Subgroup operations: the reference executor against NumPy at several subgroup sizes
(lavapipe's 8, NVIDIA's 32, and 4), the GPU against the executor at the device's size, the
edges (an inactive or out-of-range lane gives the invocation's own value), and a subgroup
operation under divergent control flow reported as the fault it is on a GPU."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (  # noqa: E402
    Array, f32, i32, kernel, func, global_id, local_index, subgroup_size, subgroup_invocation_id,
    subgroup_add, subgroup_max, subgroup_inclusive_add, subgroup_exclusive_add,
    subgroup_shuffle_down, subgroup_shuffle_xor, subgroup_broadcast, subgroup_ballot,
    subgroup_elect, DeadlockError,
)
from spirthon import gpu as _gpu  # noqa: E402
from test_gpu import np, setUpModule  # noqa: E402,F401

WG = 64


@kernel(workgroup_size=WG)
def lanes(x: Array[i32], out: Array[i32]):
    i = global_id().x
    v = x[i]
    out[8 * i] = subgroup_add(v)
    out[8 * i + 1] = subgroup_max(v)
    out[8 * i + 2] = subgroup_inclusive_add(v)
    out[8 * i + 3] = subgroup_exclusive_add(v)
    out[8 * i + 4] = subgroup_shuffle_down(v, 3)
    out[8 * i + 5] = subgroup_shuffle_xor(v, 5)
    out[8 * i + 6] = subgroup_broadcast(v, 2)
    b = i32(subgroup_ballot(v > 0).x)
    out[8 * i + 7] = b if subgroup_elect() else -1


@kernel(workgroup_size=(8, 8))
def square(x: Array[i32], out: Array[i32]):
    # A two-dimensional workgroup: what needs no subgroup invocation index (a given lane's
    # shuffle, a broadcast, `subgroup_elect`, the reductions) compiles and runs there.
    gx, gy, _ = global_id()
    i = gy * 16 + gx
    v = x[i]
    out[i] = subgroup_add(v) + subgroup_broadcast(v, 1) * 1000 + (1000000 if subgroup_elect() else 0)


@kernel(workgroup_size=WG)
def float_sums(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = subgroup_add(x[i])


@kernel(workgroup_size=WG)
def divergent(x: Array[i32], out: Array[i32]):
    i = global_id().x
    if x[i] > 0:
        out[i] = subgroup_add(x[i])
    else:
        out[i] = subgroup_max(x[i])


@func
def total(v: i32) -> i32:
    return subgroup_add(v)


@kernel(workgroup_size=WG)
def divergent_func(x: Array[i32], out: Array[i32]):
    """One func's subgroup operation reached from two sides of a branch: two places."""
    i = global_id().x
    if x[i] > 0:
        out[i] = total(x[i])
    else:
        out[i] = total(-x[i]) * 100


@kernel(workgroup_size=WG)
def sizes(out: Array[i32]):
    i = global_id().x
    out[i] = subgroup_size() * 1000 + subgroup_invocation_id() + local_index() * 0


def expected(x, n, size):
    """What `lanes` gives for the first `n` invocations of `x`, subgroups of `size`
    (invocations past `n` inactive), computed in NumPy."""
    out = np.zeros((n, 8), np.int64)
    for start in range(0, n, size):
        v = x[start:min(start + size, n)].astype(np.int64)
        k = len(v)
        ids = np.arange(k)
        out[start:start + k, 0] = v.sum()
        out[start:start + k, 1] = v.max()
        out[start:start + k, 2] = np.cumsum(v)
        out[start:start + k, 3] = np.cumsum(v) - v
        down = ids + 3
        out[start:start + k, 4] = np.where(down < k, v[np.minimum(down, k - 1)], v)
        xor = ids ^ 5
        out[start:start + k, 5] = np.where(xor < k, v[np.minimum(xor, k - 1)], v)
        out[start:start + k, 6] = v[2] if k > 2 else v
        ballot = sum(1 << b for b in range(min(k, 32)) if v[b] > 0)
        out[start:start + k, 7] = -1
        out[start, 7] = np.int64(ballot).astype(np.int32)
    return out.astype(np.int32).reshape(-1)


class Subgroups(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)
        spirthon.set_subgroup_size(None)

    def test_the_executor_at_several_sizes(self):
        rng = np.random.default_rng(5)
        x = rng.integers(-50, 50, 200).astype(np.int32)
        spirthon.set_device("python")
        for size in (4, 8, 32):
            spirthon.set_subgroup_size(size)
            for n in (64, 61):  # a whole workgroup, and one whose last 3 are inactive
                out = np.zeros(8 * n, np.int32)
                lanes.launch(n, x[:n], out)
                np.testing.assert_array_equal(out, expected(x, n, size), err_msg="size %d, n %d" % (size, n))
            got = np.zeros(WG, np.int32)
            sizes.launch(WG, got)
            np.testing.assert_array_equal(got, size * 1000 + np.arange(WG) % size)

    def test_the_gpu_agrees_with_the_executor(self):
        size = _gpu._current().native.subgroup_size()
        if size is None:
            self.skipTest("the device's subgroup size varies by kernel")
        rng = np.random.default_rng(9)
        x = rng.integers(-1000, 1000, 300).astype(np.int32)
        n = 250
        gpu = np.zeros(8 * n, np.int32)
        lanes.launch(n, x[:n], gpu)
        np.testing.assert_array_equal(gpu, expected(x, n, size))
        spirthon.set_device("python")
        spirthon.set_subgroup_size(size)
        cpu = np.zeros(8 * n, np.int32)
        lanes.launch(n, x[:n], cpu)
        np.testing.assert_array_equal(cpu, gpu)
        # Float sums: the GPU's order is its own; these are within the sum's rounding.
        xf = rng.standard_normal(n).astype(np.float32)
        out_cpu = np.zeros(n, np.float32)
        float_sums.launch(n, xf, out_cpu)
        spirthon.set_device(None)
        out_gpu = np.zeros(n, np.float32)
        float_sums.launch(n, xf, out_gpu)
        np.testing.assert_allclose(out_gpu, out_cpu, rtol=0, atol=size * 4 * np.finfo(np.float32).eps * np.abs(xf).max())

    def test_a_two_dimensional_workgroup(self):
        size = _gpu._current().native.subgroup_size()
        if size is None:
            self.skipTest("the device's subgroup size varies by kernel")
        x = np.random.default_rng(2).integers(-50, 50, 256).astype(np.int32)
        got = []
        for dev in (None, "python"):
            spirthon.set_device(dev)
            spirthon.set_subgroup_size(size)
            out = np.zeros(256, np.int32)
            square.launch((16, 16), x, out)
            got.append(out)
        np.testing.assert_array_equal(got[0], got[1])
        self.assertEqual(int(np.sum(got[0] >= 500000)), 256 // size)  # one elected per subgroup

    def test_divergence_is_reported(self):
        spirthon.set_device("python")
        spirthon.set_subgroup_size(8)
        x = np.array([1, -1, 2, 3, 4, 5, 6, 7], np.int32)
        with self.assertRaises(DeadlockError) as e:
            divergent.launch(8, x, np.zeros(8, np.int32))
        msg = str(e.exception)
        self.assertIn("divergent control flow", msg)
        self.assertIn("test_subgroups.py", msg)
        with self.assertRaises(DeadlockError) as e:
            divergent_func.launch(8, x, np.zeros(8, np.int32))
        self.assertIn(" <- ", str(e.exception))
        # Uniform branches are fine.
        out = np.zeros(8, np.int32)
        divergent.launch(8, np.abs(x) + 1, out)
        np.testing.assert_array_equal(out, np.full(8, (np.abs(x) + 1).sum()))

    def test_the_size_is_checked(self):
        for bad in (0, 3, 256, 2.0, True):
            with self.assertRaises(ValueError):
                spirthon.set_subgroup_size(bad)


if __name__ == "__main__":
    unittest.main()

"""i64 and u64 from Python: NumPy's int64 and uint64 arrays as they come, scalar arguments
over the whole 64-bit range, 64-bit atomics and struct fields, each against NumPy and the
same on the GPU and on the python device."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import Array, f32, i64, u64, u8, kernel, struct, global_id, atomic_add, atomic_max  # noqa: E402
# The same requirements as the other launches: the native module, NumPy and a device.
from test_gpu import np, setUpModule  # noqa: E402,F401


@kernel(workgroup_size=(64, 1, 1))
def mix64(a: Array[i64], b: Array[u64], out: Array[i64], hashes: Array[u64], small: Array[u8],
          low: Array[f32], total: Array[u64], top: Array[u64], off: i64, m: u64):
    i = global_id().x
    if i >= len(a):
        return
    x = a[i] + off
    out[i * 4] = abs(x)
    out[i * 4 + 1] = min(x, i64(-3)) + max(x, 10)
    out[i * 4 + 2] = x // 1000003 - x % -97
    out[i * 4 + 3] = a[x % i64(len(a))]
    h = b[i] * 0x100000001b3 ^ (b[i] >> 29)
    hashes[i] = h % m
    small[i] = u8(x)
    low[i] = f32(x)
    atomic_add(total, 0, b[i])
    atomic_max(top, 0, h)


@struct
class Tagged:
    key: i64
    weight: f32
    seen: u64


@kernel
def bump(items: Array[Tagged], step: i64):
    i = global_id().x
    if i < len(items):
        items[i].key += step
        items[i].seen = items[i].seen * u64(3) + u64(1)
        items[i].weight = f32(items[i].key)


def _numpy_mix(a, b, off, m):
    """What ``mix64`` computes, in NumPy's int64/uint64 (which wrap as the kernel's do)."""
    with np.errstate(over="ignore"):
        x = a + np.int64(off)
        out = np.zeros(4 * len(a), np.int64)
        out[0::4] = np.abs(x)
        out[1::4] = np.minimum(x, -3) + np.maximum(x, 10)
        out[2::4] = x // 1000003 - x % -97
        out[3::4] = a[x % len(a)]
        h = b * np.uint64(0x100000001B3) ^ (b >> np.uint64(29))
    return out, h % np.uint64(m), x.astype(np.uint8), h


class Int64(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def test_numpy_int64_arrays_on_both_devices(self):
        rng = np.random.default_rng(7)
        n = 300
        a = rng.integers(-2 ** 62, 2 ** 62, n, dtype=np.int64)
        a[:4] = [0, -1, 2 ** 62, -(2 ** 62)]
        b = rng.integers(0, 2 ** 64 - 1, n, dtype=np.uint64, endpoint=True)
        b[:2] = [0, 2 ** 64 - 1]
        off, m = -7, 2 ** 64 - 59
        want_out, want_hash, want_small, h = _numpy_mix(a, b, off, m)
        # f32 of an int64, rounded once (NumPy's astype rounds once too).
        want_low = (a + np.int64(off)).astype(np.float32)
        results = {}
        for device in (None, "python"):
            spirthon.set_device(device)
            out, hashes = np.zeros(4 * n, np.int64), np.zeros(n, np.uint64)
            small, low = np.zeros(n, np.uint8), np.zeros(n, np.float32)
            total, top = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
            mix64.launch(n, a, b, out, hashes, small, low, total, top, off, m)
            np.testing.assert_array_equal(out, want_out, err_msg=str(device))
            np.testing.assert_array_equal(hashes, want_hash, err_msg=str(device))
            np.testing.assert_array_equal(small, want_small, err_msg=str(device))
            np.testing.assert_array_equal(low, want_low, err_msg=str(device))
            self.assertEqual(int(total[0]), int(b.sum(dtype=np.uint64)), device)
            self.assertEqual(int(top[0]), int(h.max()), device)
            results[device] = (out, hashes, low)
        for x, y in zip(results[None], results["python"]):
            self.assertEqual(x.tobytes(), y.tobytes())

    def test_scalar_arguments_take_the_whole_range_and_no_more(self):
        a, b = np.zeros(1, np.int64), np.zeros(1, np.uint64)
        bufs = (np.zeros(4, np.int64), np.zeros(1, np.uint64), np.zeros(1, np.uint8),
                np.zeros(1, np.float32), np.zeros(1, np.uint64), np.zeros(1, np.uint64))
        for device in (None, "python"):
            spirthon.set_device(device)
            mix64.launch(1, a, b, *bufs, -(2 ** 63), 2 ** 64 - 1)
            self.assertEqual(int(bufs[0][0]), -(2 ** 63), device)  # abs wraps, as NumPy's
            with self.assertRaises(OverflowError):
                mix64.launch(1, a, b, *bufs, 2 ** 63, 1)
            with self.assertRaises(OverflowError):
                mix64.launch(1, a, b, *bufs, 0, -1)
            with self.assertRaises(TypeError):
                mix64.launch(1, a.astype(np.int32), b, *bufs, 0, 1)

    def test_struct_fields(self):
        self.assertEqual(Tagged.numpy_dtype.itemsize, 24)
        self.assertEqual(Tagged.numpy_dtype.fields["seen"][1], 16)
        items = np.zeros(5, Tagged.numpy_dtype)
        items["key"] = [2 ** 62, -5, 0, 9007199254740993, -(2 ** 63)]
        items["seen"] = [2 ** 64 - 1, 1, 2, 3, 2 ** 63]
        for device in (None, "python"):
            spirthon.set_device(device)
            got = items.copy()
            bump.launch(5, got, 2 ** 40)
            with np.errstate(over="ignore"):
                key = items["key"] + np.int64(2 ** 40)
                seen = items["seen"] * np.uint64(3) + np.uint64(1)
            np.testing.assert_array_equal(got["key"], key, err_msg=str(device))
            np.testing.assert_array_equal(got["seen"], seen, err_msg=str(device))
            np.testing.assert_array_equal(got["weight"], key.astype(np.float32), err_msg=str(device))


if __name__ == "__main__":
    unittest.main()

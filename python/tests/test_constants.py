"""Module constants bound by unpacking (`BX, BY = 4, 8`, `A = B = 3`, `X, Y = Y, X`), read
by the compiler from the file's text and by the reference executor from the module, with the
same values on both devices, exactly (an f64 product with an annotated constant folded in an
unpacking), and refused on both once the program rebinds one. They need the native module
and NumPy: without them they skip, unless SPIRTHON_REQUIRE_NATIVE=1 makes that a failure."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import CompileError, f32  # noqa: E402
# The same requirements as the other launches: the native module, NumPy and a device.
from test_gpu import import_text, np, setUpModule  # noqa: E402,F401


UNPACKED = """
from spirthon import kernel, Array, f32, f64, i32, global_id, shared_array, barrier, local_id

GAIN: f32 = 0.1
BX, BY = 4, 2
A = B = 3
X, Y = 1, 2
X, Y = Y, X
G3, H = GAIN * 3, -1
WG = (BX, BY)
SHAPE = (BY, BX)


@kernel(workgroup_size=WG)
def unpacked(wide: Array[f64], ints: Array[i32]):
    i = global_id().x + global_id().y * 4
    tile = shared_array(i32, SHAPE)
    tile[local_id().y, local_id().x] = i
    barrier()
    if i >= len(wide):
        return
    wide[i] = f64(i) * G3
    ints[i] = tile[BY - 1 - local_id().y, BX - 1 - local_id().x] + X * 1000 + Y * 100 + A * 10 + B + H
"""


class UnpackedConstants(unittest.TestCase):
    def setUp(self):
        self.mod = import_text(self, "unpacked_kernels", UNPACKED)

    def test_both_devices_give_the_unpacked_values(self):
        g3 = float(f32(0.1)) * 3  # float32's 0.1, then CPython's product, as the compiler folds it
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                wide = np.zeros(8, dtype=np.float64)
                ints = np.zeros(8, dtype=np.int32)
                self.mod.unpacked.launch((4, 2), wide, ints)
                self.assertEqual(wide.tolist(), [k * g3 for k in range(8)])
                mirrored = [7 - k for k in range(8)]
                self.assertEqual(ints.tolist(), [m + 2000 + 100 + 30 + 3 - 1 for m in mirrored])

    def test_a_rebound_unpacked_constant_is_refused(self):
        self.mod.A = 4
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                with self.assertRaises(CompileError) as e:
                    self.mod.unpacked.launch((4, 2), np.zeros(8), np.zeros(8, dtype=np.int32))
                self.assertIn("`A` is 4 now", str(e.exception))


if __name__ == "__main__":
    unittest.main()

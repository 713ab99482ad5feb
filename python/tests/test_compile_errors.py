"""A CompileError's text, on both devices: it starts with the error of the kernel launched,
not with a warning about another kernel of its file (the warnings follow). They need the
native module and NumPy: without them they skip, unless SPIRTHON_REQUIRE_NATIVE=1 makes that
a failure."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import spirthon  # noqa: E402
from spirthon import CompileError  # noqa: E402

# The same requirement as the library's tests: the native module and NumPy, or a skip.
import test_library  # noqa: E402
from test_gpu import import_text  # noqa: E402

setUpModule = test_library.setUpModule
np = test_library.np

WARNED_AND_BROKEN = """
from spirthon import kernel, Array, f32, i32, u32, global_id, barrier


@kernel
def warned(a: Array[f32]):
    barrier()
    a[global_id().x] = 1.0


@kernel
def broken(b: Array[i32], c: Array[u32]):
    i = global_id().x
    b[i] = b[i] + c[i]
"""


class CompileErrorText(unittest.TestCase):
    def setUp(self):
        self.mod = import_text(self, "warned_and_broken", WARNED_AND_BROKEN)

    def test_the_text_starts_with_the_error_and_the_warning_follows(self):
        for device in (None, "python"):
            with self.subTest(device=device):
                spirthon.set_device(device)
                with self.assertRaises(CompileError) as e:
                    self.mod.broken.launch(4, np.zeros(4, np.int32), np.zeros(4, np.uint32))
                text = str(e.exception)
                self.assertTrue(text.startswith("error: `+` cannot mix i32 and u32"), text[:200])
                self.assertIn("warning: kernel `warned` reaches `barrier()`", text)


if __name__ == "__main__":
    unittest.main()

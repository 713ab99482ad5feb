"""Files in today's Python around their kernels (tests/modern/): each runs as a script
under this interpreter, on the GPU and on the CPython executor, and checks its kernels'
results itself (its last line is `ok NAME`). A file whose syntax is newer than this
Python (its first line says `# requires Python 3.N`) cannot be imported here and is
skipped; the compiler reads it whatever Python runs (tests/cli.rs compiles and runs
every one). They need the native module and NumPy: without them they skip, unless
SPIRTHON_REQUIRE_NATIVE=1 makes that a failure."""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
CORPUS = os.path.join(os.path.dirname(PACKAGE), "tests", "modern")
sys.path.insert(0, PACKAGE)
sys.path.insert(0, HERE)

# The same requirement as the library's tests: the native module and NumPy, or a skip
# (a failure under SPIRTHON_REQUIRE_NATIVE=1).
import test_library  # noqa: E402

setUpModule = test_library.setUpModule


def corpus():
    files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".py"))
    assert files, "no files in %s" % CORPUS
    for name in files:
        path = os.path.join(CORPUS, name)
        with open(path, encoding="utf-8") as f:
            first = f.readline()
        m = re.match(r"# requires Python 3\.(\d+)$", first.strip())
        assert m, "%s: the first line must be '# requires Python 3.N'" % name
        yield name, path, (3, int(m.group(1)))


class ModernFiles(unittest.TestCase):
    def run_script(self, path, device):
        env = dict(os.environ, PYTHONPATH=PACKAGE)
        env.pop("SPIRTHON_DEVICE", None)
        if device:
            env["SPIRTHON_DEVICE"] = device
        return subprocess.run(
            [sys.executable, path], env=env, capture_output=True, text=True, timeout=300
        )

    def test_each_file_runs_and_checks_its_kernels(self):
        ran = 0
        for name, path, needs in corpus():
            if sys.version_info[:2] < needs:
                continue
            for device in (None, "python"):
                with self.subTest(file=name, device=device or "gpu"):
                    r = self.run_script(path, device)
                    self.assertEqual(r.returncode, 0, r.stderr[-3000:])
                    self.assertEqual(r.stdout.strip().splitlines()[-1], "ok " + name)
            ran += 1
        # Every Python the library supports reads at least the files written for 3.9 and 3.10.
        self.assertGreaterEqual(ran, 2)

    def test_a_file_newer_than_this_python_is_refused_by_python_not_by_spirthon(self):
        # The compiler reads the newest grammar; the interpreter that runs the program is
        # the one to refuse syntax it does not have, when it imports the file.
        newer = [(n, p) for n, p, needs in corpus() if sys.version_info[:2] < needs]
        for name, path in newer:
            with self.subTest(file=name):
                r = self.run_script(path, None)
                self.assertNotEqual(r.returncode, 0)
                self.assertIn("SyntaxError", r.stderr)


if __name__ == "__main__":
    unittest.main()

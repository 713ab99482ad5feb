"""Structs from Python: ``numpy_dtype`` byte for byte the compiler's element layout, value
semantics on both devices, struct arguments, and the host-side constructor's rules; and
f16, NumPy's float16, bit for bit."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import spirthon  # noqa: E402
from spirthon import (  # noqa: E402
    Array, Array2D, f16, f32, f64, i32, u32, i8, u8, i16, u16, vec3, ivec3, mat33, quat, kernel, func,
    struct, global_id,
)
from spirthon import structs  # noqa: E402
# The same requirements as the other launches: the native module, NumPy and a device.
from test_gpu import np, setUpModule  # noqa: E402,F401


# Layouts with padding everywhere it can be: a byte before a word, a short before a vector,
# a nested struct of bytes (aligned 1, padded to a word), matrices, quaternions and bools.
@struct
class Bytes:
    a: u8
    b: i8
    c: u8


@struct
class Mixed:
    tag: u8
    x: f32
    s: i16
    v: vec3
    inner: Bytes
    flag: bool
    n: u16


@struct
class Frames:
    m: mat33
    q: quat
    k: ivec3
    inner: Bytes
    last: i8


@struct
class Step:
    dt: f32
    bounce: f32


@struct
class Wide:
    on: bool
    d: f64
    m: mat33
    inner: Step
    q: quat
    k: ivec3
    n: u32


@kernel
def copy_wide(src: Array[Wide], dst: Array[Wide], flags: Array[i32]):
    i = global_id().x
    if i < len(src):
        w = src[i]
        dst[i] = w
        flags[i] = 1 if w.on else 0


@struct
class Node:
    leaves: i32
    tolist: f32
    size: u32


@kernel
def copy_mixed(src: Array[Mixed], dst: Array[Mixed]):
    i = global_id().x
    if i < len(src):
        dst[i] = src[i]


@kernel
def copy_frames(src: Array2D[Frames], dst: Array2D[Frames]):
    i = global_id().x
    j = global_id().y
    if i < src.shape[1] and j < src.shape[0]:
        dst[j, i] = src[j, i]


@struct
class Particle:
    pos: vec3
    vel: vec3
    mass: f32
    hits: u8


@func
def advanced(p: Particle, s: Step) -> Particle:
    q = p
    q.pos += q.vel * s.dt
    if q.pos.y < 0.0:
        q.pos.y = -q.pos.y * s.bounce
        q.vel.y = -q.vel.y
        q.hits += u8(1)
    return q


@kernel
def step(ps: Array[Particle], s: Step, first_y: Array[f32]):
    i = global_id().x
    if i >= len(ps):
        return
    p = ps[i]
    v = p.vel
    v.y = 1000.0  # a copy: p.vel is unchanged
    before = p
    ps[i] = advanced(p, s)
    ps[i].mass += before.pos.y * 0.0 + 1.0
    first_y[i] = before.pos.y + p.vel.y


def _random_records(dtype, shape, seed):
    """Random bytes for every field (valid values: bools 0 or 1, floats finite)."""
    rng = np.random.default_rng(seed)
    out = np.zeros(shape, dtype=dtype)

    def fill(arr, dt):
        for name in dt.names:
            sub, _ = dt.fields[name]
            if sub.names:
                fill(arr[name], sub)
            elif sub.base.kind == "f":
                arr[name] = rng.uniform(-100, 100, arr[name].shape).astype(sub.base)
            else:
                info = np.iinfo(sub.base)
                arr[name] = rng.integers(info.min, info.max, arr[name].shape, endpoint=True).astype(sub.base)
    fill(out, dtype)
    if "flag" in dtype.names:
        out["flag"] = rng.integers(0, 2, shape)
    return out


class Layout(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def test_numpy_dtype_is_the_documented_layout(self):
        """Each leaf at the next multiple of its scalar's size, a nested struct at its own
        alignment, the size rounded up to the largest alignment and to a word."""
        self.assertEqual(Bytes.numpy_dtype.itemsize, 4)
        self.assertEqual([Mixed.numpy_dtype.fields[n][1] for n in Mixed.numpy_dtype.names],
                         [0, 4, 8, 12, 24, 28, 32])
        self.assertEqual(Mixed.numpy_dtype.itemsize, 36)
        self.assertEqual([Frames.numpy_dtype.fields[n][1] for n in Frames.numpy_dtype.names],
                         [0, 36, 52, 64, 68])
        self.assertEqual(Frames.numpy_dtype.itemsize, 72)
        self.assertEqual(Particle.numpy_dtype.itemsize, 32)
        self.assertEqual([Wide.numpy_dtype.fields[n][1] for n in Wide.numpy_dtype.names],
                         [0, 8, 16, 52, 60, 76, 88])
        self.assertEqual(Wide.numpy_dtype.itemsize, 96)

    def test_elements_round_trip_byte_for_byte_on_both_devices(self):
        """A kernel copying elements leaf by leaf gives back the bytes it was given (every
        padding byte as it was), on the GPU and on the python device: the compiler's layout is
        the dtype's (a launch checks the reflection's offsets against it too)."""
        mixed = _random_records(Mixed.numpy_dtype, 37, 1)
        frames = _random_records(Frames.numpy_dtype, (3, 5), 2)
        wide = _random_records(Wide.numpy_dtype, 11, 3)
        wide["on"] = np.arange(11) % 3 == 0
        for device in (None, "python"):
            spirthon.set_device(device)
            out, flags = np.zeros(wide.shape, wide.dtype), np.zeros(11, np.int32)
            copy_wide.launch(len(wide), wide, out, flags)
            self.assertEqual(out.tobytes(), wide.tobytes(), device)
            np.testing.assert_array_equal(flags, wide["on"])
            out = np.zeros(mixed.shape, mixed.dtype)
            copy_mixed.launch(len(mixed), mixed, out)
            self.assertEqual(out.tobytes(), mixed.tobytes(), device)
            out = np.zeros(frames.shape, frames.dtype)
            copy_frames.launch((5, 3), frames, out)
            self.assertEqual(out.tobytes(), frames.tobytes(), device)


class Values(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def _particles(self):
        ps = np.zeros(6, dtype=Particle.numpy_dtype)
        ps["pos"] = [[0, 1, 0], [0, 0.1, 0], [1, 0.05, 2], [0, 3, 0], [5, 0.2, 5], [0, 0.01, 0]]
        ps["vel"] = [[1, 0, 0], [0, -2, 0], [0, -1, 0], [0, 1, 0], [0, -4, 0], [0, -1, 0]]
        ps["mass"] = np.arange(6)
        ps["hits"] = [0, 255, 3, 0, 7, 254]
        return ps

    def test_struct_values_agree_with_numpy_on_both_devices(self):
        """A func that takes and returns a struct, a struct parameter, a field changed in
        the buffer, a u8 field that wraps, and copies that stay copies (`v = p.vel`,
        `before = p`)."""
        s = Step(dt=0.1, bounce=0.5)
        want = self._particles()
        pos, vel = want["pos"].copy(), want["vel"].copy()
        first = (pos[:, 1] + vel[:, 1]).astype(np.float32)
        pos = pos + vel * np.float32(0.1)
        under = pos[:, 1] < 0
        pos[under, 1] = -pos[under, 1] * np.float32(0.5)
        vel[under, 1] = -vel[under, 1]
        want["pos"], want["vel"] = pos, vel
        want["hits"] = (want["hits"].astype(np.int32) + under).astype(np.uint8)
        want["mass"] += 1
        for device in (None, "python"):
            spirthon.set_device(device)
            ps, first_y = self._particles(), np.zeros(6, np.float32)
            step.launch(6, ps, s, first_y)
            np.testing.assert_array_equal(first_y, first)
            np.testing.assert_allclose(ps["pos"], want["pos"], rtol=1e-6)
            np.testing.assert_array_equal(ps["vel"], want["vel"])
            np.testing.assert_array_equal(ps["hits"], want["hits"])
            np.testing.assert_array_equal(ps["mass"], want["mass"])
            # The same with a dict for the struct argument, an Array of structs, and a
            # device array.
            arr = Array(Particle, [structs.from_values(Particle, r) for r in self._particles()])
            step.launch(6, arr, {"dt": 0.1, "bounce": 0.5}, first_y)
            self.assertEqual([p.hits for p in (arr[k] for k in range(6))], list(want["hits"]))
            dev = spirthon.array(self._particles(), dtype=Particle)
            step.launch(6, dev, s, first_y)
            np.testing.assert_array_equal(dev.numpy()["hits"], want["hits"])
            listed = spirthon.array([structs.from_values(Particle, r) for r in self._particles()], dtype=Particle)
            step.launch(6, listed, s, first_y)
            np.testing.assert_array_equal(listed.numpy()["pos"], dev.numpy()["pos"])
            self.assertEqual(spirthon.zeros(4, dtype=Particle).numpy().dtype, Particle.numpy_dtype)

    def test_arguments_are_checked(self):
        for device in (None, "python"):
            spirthon.set_device(device)
            with self.assertRaises(TypeError) as e:
                step.launch(2, np.zeros(2, np.float32), Step(), np.zeros(2, np.float32))
            self.assertIn("Particle.numpy_dtype", str(e.exception))
            with self.assertRaises(TypeError) as e:
                step.launch(2, np.zeros(2, Particle.numpy_dtype), Bytes(), np.zeros(2, np.float32))
            self.assertIn("Step", str(e.exception))
            with self.assertRaises(TypeError) as e:
                step.launch(2, np.zeros(2, Particle.numpy_dtype), {"dt": 0.1, "spin": 1.0}, np.zeros(2, np.float32))
            self.assertIn("spin", str(e.exception))


class HostSide(unittest.TestCase):
    def test_the_constructor_converts_and_checks(self):
        p = Particle(vec3(1.0, 2.0, 3.0), mass=2)
        self.assertEqual(p.vel.tolist(), [0.0, 0.0, 0.0])
        self.assertEqual((p.mass, p.hits), (2.0, 0))
        p.hits = 300 - 45
        self.assertEqual(p.hits, 255)
        with self.assertRaises(TypeError):
            Particle(weight=1.0)
        with self.assertRaises(TypeError):
            Particle(vec3(0.0), mass=1.0, pos=vec3(1.0))
        with self.assertRaises(TypeError):
            p.hits = 2.5
        with self.assertRaises(AttributeError):
            p.spin = 1.0
        q = structs.copy(p)
        q.pos.x = 9.0
        self.assertEqual(p.pos.x, 1.0)
        self.assertEqual(structs.unpack(Particle, structs.pack(p)), p)

    def test_fields_may_have_any_name(self):
        """A field named as a helper of the library (`tolist`, `size`, `leaves`) is the
        user's: the library keeps its own in `__spirthon__` and module functions."""
        n = Node(leaves=3, tolist=1.5, size=2)
        self.assertEqual((n.leaves, n.tolist, n.size), (3, 1.5, 2))
        self.assertEqual(Node.numpy_dtype.names, ("leaves", "tolist", "size"))
        self.assertEqual(structs.to_dict(n), {"leaves": 3, "tolist": 1.5, "size": 2})
        with self.assertRaises(TypeError):
            struct(type("Bad", (), {"__annotations__": {"__x": f32}}))


if __name__ == "__main__":
    unittest.main()


@kernel
def halves(bits: Array[u16], out: Array[f16], wide: Array[f32], near: Array[f16],
           a: Array[f16], b: Array[f16], ops: Array[f16]):
    i = global_id().x
    if i < len(out):
        h = out[i]          # every half's bits, read as the half
        wide[i] = f32(h)
        out[i] = h          # and stored back: the same bits
        near[i] = f16(wide[i] * 1.0009765625)  # an f32 between halves, rounded to one
    if i < len(a):
        x = a[i]
        y = b[i]
        ops[4 * i] = x + y
        ops[4 * i + 1] = x - y
        ops[4 * i + 2] = x * y
        ops[4 * i + 3] = x / y


class Halves(unittest.TestCase):
    def tearDown(self):
        spirthon.set_device(None)

    def test_halves_are_numpys_float16_bit_for_bit(self):
        """Every one of the 65,536 halves loads, widens and stores exactly (NaN stays NaN);
        an f32 between halves rounds to NumPy's nearest half (ties to even, subnormals,
        overflow to infinity); + - * / are NumPy's float16 ones, on both devices."""
        every = np.arange(65536, dtype=np.uint32).astype(np.uint16)
        h = every.view(np.float16)
        rng = np.random.default_rng(11)
        a = rng.standard_normal(4096).astype(np.float16) * np.float16(300)
        b = rng.standard_normal(4096).astype(np.float16)
        b[:16] = [0.5, -0.5, 1e-7, 6e-8, np.inf, 65504, 2, 3, 1e-4, 7, 11, 13, 0.1, 0.2, 0.3, 1]
        b[b == 0] = 1  # a float division by zero raises under CPython
        with np.errstate(all="ignore"):
            want_ops = np.stack([a + b, a - b, a * b, a / b], axis=1).reshape(-1)
            widened = h.astype(np.float32)
            want_near = (widened * np.float32(1.0009765625)).astype(np.float16)
        for device in (None, "python"):
            spirthon.set_device(device)
            out, wide = h.copy(), np.zeros(65536, np.float32)
            near, ops = np.zeros(65536, np.float16), np.zeros(4 * 4096, np.float16)
            with np.errstate(all="ignore"):
                halves.launch(65536, every, out, wide, near, a, b, ops)
            finite = ~np.isnan(h)
            np.testing.assert_array_equal(out.view(np.uint16)[finite], every[finite], device)
            self.assertTrue(np.isnan(out[~finite]).all())
            np.testing.assert_array_equal(wide[finite], widened[finite])
            np.testing.assert_array_equal(near[finite].view(np.uint16), want_near[finite].view(np.uint16), device)
            both = ~np.isnan(want_ops)
            np.testing.assert_array_equal(ops[both].view(np.uint16), want_ops[both].view(np.uint16), device)
            self.assertTrue(np.isnan(ops[~both]).all())

"""spirthon as a Python library beside Taichi, Warp and wgpu-py (see README.md here).

    python3 benches/python/bench.py [--rounds N]

Prints two tables:

1. First call: the wall time from starting a fresh ``python3`` process to the kernel's result
   in a NumPy array, for saxpy (1M elements) and a Mandelbrot set (512x512), with each tool's
   compile cache empty (cold) and filled by an earlier process (warm). spirthon on its
   default device, Taichi on its Vulkan backend, Warp on its CPU backend. Each cell is the
   median of N processes (a fresh cache directory for every cold one).
2. Launch overhead: the time per launch of a small saxpy (1024 elements) on arrays that stay
   on the device, the best of 5 batches of 1,000 launches then one wait, for spirthon against
   numba-vulkan (its own saxpy, the same grid), Quadrants (the Taichi fork) on Vulkan, wgpu-py
   dispatching the very same SPIR-V module (one submission per launch, with the same uniform
   write) and, where a CUDA GPU is, Numba-CUDA. spirthon's row also gives its host time (the
   loop without the wait) and the floor: the same 1,000 dispatches recorded into one command
   buffer from Rust and submitted once.

   python3 benches/python/bench.py --launches-only    # table 2 alone

A tool that is not installed is reported as such; nothing else is needed for spirthon's rows.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SAXPY_N = 1 << 20
SIZE = 512

# The floor of every row: starting Python, importing NumPy and making saxpy's arrays.
BASELINE = """
import numpy as np
x = np.arange({n}, dtype=np.float32); y = np.ones({n}, dtype=np.float32)
y += 2.0 * x
"""

SPIRTHON = """
import sys, numpy as np
sys.path[:0] = [{python!r}, {here!r}]
from kernels_spirthon import saxpy, mandelbrot
if {case!r} == "saxpy":
    x = np.arange({n}, dtype=np.float32); y = np.ones({n}, dtype=np.float32)
    saxpy.launch({n}, 2.0, x, y)
    assert y[3] == 7.0
else:
    counts = np.zeros(({size}, {size}), dtype=np.int32)
    step = 3.0 / {size}
    mandelbrot.launch(({size}, {size}), -2.2, -1.5, step, counts)
    assert counts[{size} // 2, {size} * 2 // 3] == 256
"""

TAICHI = """
import numpy as np, taichi as ti
ti.init(arch=ti.vulkan, offline_cache=True, offline_cache_file_path={cache!r}, log_level=ti.ERROR)

@ti.kernel
def saxpy(a: ti.f32, x: ti.types.ndarray(dtype=ti.f32, ndim=1), y: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]

@ti.kernel
def mandelbrot(x0: ti.f32, y0: ti.f32, step: ti.f32, counts: ti.types.ndarray(dtype=ti.i32, ndim=2)):
    for py, px in ti.ndrange(counts.shape[0], counts.shape[1]):
        cx = x0 + px * step
        cy = y0 + py * step
        x = 0.0
        y = 0.0
        n = 0
        while n < 256 and x * x + y * y <= 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        counts[py, px] = n

if {case!r} == "saxpy":
    x = np.arange({n}, dtype=np.float32); y = np.ones({n}, dtype=np.float32)
    saxpy(2.0, x, y); ti.sync()
    assert y[3] == 7.0
else:
    counts = np.zeros(({size}, {size}), dtype=np.int32)
    mandelbrot(-2.2, -1.5, 3.0 / {size}, counts); ti.sync()
    assert counts[{size} // 2, {size} * 2 // 3] == 256
"""

WARP = """
import numpy as np, warp as wp
wp.config.kernel_cache_dir = {cache!r}
wp.config.quiet = True
wp.init()

@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]

@wp.kernel
def mandelbrot(x0: float, y0: float, step: float, counts: wp.array2d(dtype=wp.int32)):
    py, px = wp.tid()
    cx = x0 + float(px) * step
    cy = y0 + float(py) * step
    x = float(0.0)
    y = float(0.0)
    n = int(0)
    while n < 256 and x * x + y * y <= 4.0:
        t = x * x - y * y + cx
        y = 2.0 * x * y + cy
        x = t
        n += 1
    counts[py, px] = n

if {case!r} == "saxpy":
    x = wp.array(np.arange({n}, dtype=np.float32), device="cpu")
    y = wp.array(np.ones({n}, dtype=np.float32), device="cpu")
    wp.launch(saxpy, dim={n}, inputs=[2.0, x, y], device="cpu")
    out = y.numpy()
    assert out[3] == 7.0
else:
    counts = wp.zeros(({size}, {size}), dtype=wp.int32, device="cpu")
    wp.launch(mandelbrot, dim=({size}, {size}), inputs=[-2.2, -1.5, 3.0 / {size}, counts], device="cpu")
    out = counts.numpy()
    assert out[{size} // 2, {size} * 2 // 3] == 256
"""

OVERHEAD_SPIRTHON = """
import sys, time, numpy as np
sys.path[:0] = [{python!r}, {here!r}]
import spirthon
from spirthon import gpu
from kernels_spirthon import saxpy
x = spirthon.array(np.ones(1024, dtype=np.float32)); y = spirthon.zeros(1024)
for _ in range(50):
    saxpy.launch(1024, 1.0, x, y)
spirthon.synchronize()
best = host = 1e9
for _ in range(5):
    t = time.perf_counter()
    for _ in range({launches}):
        saxpy.launch(1024, 1.0, x, y)
    t1 = time.perf_counter()
    spirthon.synchronize()
    best = min(best, (time.perf_counter() - t) / {launches})
    host = min(host, (t1 - t) / {launches})
assert y.numpy()[0] == 5 * {launches} + 50
floor = min(gpu.time_launches(saxpy, 1024, (1.0, x, y), {launches}) for _ in range(5)) / {launches}
print(best, host, floor, spirthon.device())
"""

OVERHEAD_WGPU = """
import struct, sys, time, numpy as np, wgpu
sys.path[:0] = [{python!r}, {here!r}]
from spirthon import gpu
from kernels_spirthon import saxpy
m = gpu.compile_kernel(saxpy)
adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
device = adapter.request_device_sync()
shader = device.create_shader_module(code=m.words)
S = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
ubuf = device.create_buffer(size=m.uniform_size, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
xbuf = device.create_buffer_with_data(data=np.ones(1024, dtype=np.float32).tobytes(), usage=S)
ybuf = device.create_buffer(size=4096, usage=S)
entries = [dict(binding=0, visibility=wgpu.ShaderStage.COMPUTE, buffer=dict(type=wgpu.BufferBindingType.uniform))]
for name, (binding, read_only) in sorted(m.arrays.items(), key=lambda kv: kv[1][0]):
    kind = wgpu.BufferBindingType.read_only_storage if read_only else wgpu.BufferBindingType.storage
    entries.append(dict(binding=binding, visibility=wgpu.ShaderStage.COMPUTE, buffer=dict(type=kind)))
bgl = device.create_bind_group_layout(entries=entries)
layout = device.create_pipeline_layout(bind_group_layouts=[bgl])
pipeline = device.create_compute_pipeline(layout=layout, compute=dict(module=shader, entry_point="saxpy"))
group = device.create_bind_group(layout=bgl, entries=[
    dict(binding=0, resource=dict(buffer=ubuf)),
    dict(binding=m.arrays["x"][0], resource=dict(buffer=xbuf)),
    dict(binding=m.arrays["y"][0], resource=dict(buffer=ybuf))])
uniform = bytearray(m.uniform_size)
struct.pack_into("<f", uniform, m.fields["a"][1], 1.0)
struct.pack_into("<3I", uniform, m.threads, 1024, 1, 1)
uniform = bytes(uniform)

def launch():
    device.queue.write_buffer(ubuf, 0, uniform)
    enc = device.create_command_encoder()
    p = enc.begin_compute_pass()
    p.set_pipeline(pipeline)
    p.set_bind_group(0, group)
    p.dispatch_workgroups(16, 1, 1)
    p.end()
    device.queue.submit([enc.finish()])

for _ in range(50):
    launch()
device.queue.read_buffer(ybuf)
best = 1e9
for _ in range(5):
    t = time.perf_counter()
    for _ in range({launches}):
        launch()
    out = np.frombuffer(device.queue.read_buffer(ybuf), dtype=np.float32)
    best = min(best, (time.perf_counter() - t) / {launches})
print(best)
assert out[0] == 5 * {launches} + 50
"""


def _timed(setup, launch, sync, result):
    """A peer's launch-overhead script: ``setup`` (saxpy of 1024 on arrays ``x`` = ones and
    ``y`` = zeros on its device), then 50 warm-up launches of ``launch`` and the best of 5
    loops of ``{launches}`` launches, each then ``sync``; it prints seconds per launch and
    checks ``result`` (``y`` read back to the host). Still a template for ``launches``."""
    loop = """
for _ in range(50):
    LAUNCH
SYNC
best = 1e9
for _ in range(5):
    t = time.perf_counter()
    for _ in range({launches}):
        LAUNCH
    SYNC
    best = min(best, (time.perf_counter() - t) / {launches})
print(best)
assert RESULT[0] == 5 * {launches} + 50
"""
    return setup + loop.replace("LAUNCH", launch).replace("SYNC", sync).replace("RESULT", result)


OVERHEAD_NUMBA_VULKAN = _timed("""
import time, numpy as np, numba_vulkan as nv

@nv.jit
def saxpy(a, x, y):
    i = nv.global_id(0)
    y[i] = a * x[i] + y[i]

n = 1024
x = nv.to_device(np.ones(n, np.float32)); y = nv.to_device(np.zeros(n, np.float32))
k = saxpy[n // 64, 64]
""", "k(np.float32(1.0), x, y)", "nv.synchronize()", "y.copy_to_host()")


OVERHEAD_QUADRANTS = _timed("""
import time, numpy as np, quadrants as qd
qd.init(arch=qd.vulkan, log_level=qd.ERROR)

@qd.kernel
def saxpy(a: qd.f32, x: qd.types.ndarray(dtype=qd.f32, ndim=1), y: qd.types.ndarray(dtype=qd.f32, ndim=1)):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]

n = 1024
x = qd.ndarray(qd.f32, shape=n); y = qd.ndarray(qd.f32, shape=n)
x.from_numpy(np.ones(n, np.float32))
""", "saxpy(1.0, x, y)", "qd.sync()", "y.to_numpy()")

# Where a CUDA GPU is (not Vulkan: the launch cost of the CUDA stack, for reference).
OVERHEAD_NUMBA_CUDA = _timed("""
import time, numpy as np
from numba import cuda
if not cuda.is_available():
    raise SystemExit("no CUDA device")

@cuda.jit
def saxpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]

n = 1024
x = cuda.to_device(np.ones(n, np.float32)); y = cuda.to_device(np.zeros(n, np.float32))
k = saxpy[n // 64, 64]
""", "k(np.float32(1.0), x, y)", "cuda.synchronize()", "y.copy_to_host()")


def available(module):
    if module == "spirthon":
        return True  # from this checkout's python/
    r = subprocess.run([sys.executable, "-c", "import %s" % module], capture_output=True)
    return r.returncode == 0


def run(code, env=None):
    """Runs ``code`` as a script file in a fresh process (Taichi and Warp read their kernels'
    source from the file); its wall time and output."""
    e = dict(os.environ)
    # Bytecode caches as on a user's machine (some CI images turn them off).
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e.update(env or {})
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "case.py")
        with open(script, "w") as f:
            f.write(code)
        t = time.perf_counter()
        r = subprocess.run([sys.executable, script], capture_output=True, text=True, env=e)
        elapsed = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "exit %d" % r.returncode)
    return elapsed, r.stdout


def first_call(tool, template, case, rounds):
    """(cold, warm) medians in seconds."""
    cold, warm = [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as cache:
            code = template.format(python=os.path.join(ROOT, "python"), here=HERE, case=case, n=SAXPY_N, size=SIZE, cache=cache)
            env = {"SPIRTHON_CACHE_DIR": cache} if tool == "spirthon" else {}
            cold.append(run(code, env)[0])
            warm.append(run(code, env)[0])
    return statistics.median(cold), statistics.median(warm)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--launches", type=int, default=1000)
    ap.add_argument("--launches-only", action="store_true", help="only the launch overhead table")
    args = ap.parse_args()
    if not args.launches_only:
        first_calls(args)
    launches(args)


def first_calls(args):
    tools = [("spirthon", "spirthon", SPIRTHON), ("taichi (vulkan)", "taichi", TAICHI), ("warp (cpu)", "warp", WARP)]
    print("first call: fresh process to result in NumPy, median of %d (ms)" % args.rounds)
    print("%-18s %-11s %10s %10s" % ("tool", "kernel", "cold", "warm"))
    base = statistics.median(run(BASELINE.format(n=SAXPY_N))[0] for _ in range(args.rounds))
    print("%-18s %-11s %10.0f %10s" % ("python + numpy", "(no kernel)", base * 1e3, ""))
    for label, module, template in tools:
        if not available(module):
            print("%-18s %s" % (label, "not installed (pip install %s)" % {"warp": "warp-lang"}.get(module, module)))
            continue
        # One import first, so that every measured process finds the bytecode caches.
        run("import sys; sys.path[:0] = [%r]; import numpy, %s" % (os.path.join(ROOT, "python"), module))
        for case in ("saxpy", "mandelbrot"):
            try:
                cold, warm = first_call(module, template, case, args.rounds)
                print("%-18s %-11s %10.0f %10.0f" % (label, case, cold * 1e3, warm * 1e3))
            except RuntimeError as e:
                print("%-18s %-11s failed: %s" % (label, case, e))
    print()


def launches(args):
    print("launch overhead on device arrays: saxpy of 1024, best of 5 batches of %d launches (µs per launch)" % args.launches)
    fmt = dict(python=os.path.join(ROOT, "python"), here=HERE, launches=args.launches)
    best, host, floor, device = run(OVERHEAD_SPIRTHON.format(**fmt))[1].split(None, 3)
    ours, host, floor = float(best), float(host), float(floor)
    print("on %s" % device.strip())
    print("%-18s %10.1f   (host %.1f; the same dispatches in one command buffer from Rust: %.1f, spirthon / that: %.2f)" % ("spirthon", ours * 1e6, host * 1e6, floor * 1e6, ours / floor))
    peers = [("numba-vulkan", "numba_vulkan", OVERHEAD_NUMBA_VULKAN), ("quadrants (vulkan)", "quadrants", OVERHEAD_QUADRANTS),
             ("wgpu-py", "wgpu", OVERHEAD_WGPU), ("numba-cuda", "numba.cuda", OVERHEAD_NUMBA_CUDA)]
    for label, module, template in peers:
        if not available(module):
            print("%-18s not installed (pip install %s)" % (label, module.replace("_", "-").split(".")[0]))
            continue
        try:
            # The last line (Quadrants prints a banner first).
            theirs = float(run(template.format(**fmt))[1].split()[-1])
        except RuntimeError as e:
            print("%-18s failed: %s" % (label, e))
            continue
        print("%-18s %10.1f   (spirthon / this: %.2f)" % (label, theirs * 1e6, ours / theirs))


if __name__ == "__main__":
    main()

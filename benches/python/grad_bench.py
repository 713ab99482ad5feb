"""Gradients: what an adjoint costs against its kernel (see README.md here).

    python3 benches/python/grad_bench.py [--n N] [--rounds R]

Prints one row per kernel of ``kernels_grad.py``: the forward kernel's native compile
alone, making its adjoint (``spirthon.autodiff`` writing it and the kernel object), the
adjoint's native compile, and (make + compile) / compile; the time from the kernel object to
its compiled module as the library first makes it in a program (``gpu.compile_kernel``: the
file checked against its code and diagnosed whole) and from the kernel to its adjoint's
module (made, then compiled), and their ratio; the time from nothing to each kernel ready to
launch with every cache bypassed (the driver's pipeline included), and their ratio; then the
device time per launch of the forward kernel and of its adjoint over ``N`` threads, each the
best of ``R`` batches of 200 dispatches recorded in one command buffer
(``spirthon.gpu.time_launches``), and their ratio. Runs on the default device.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"), HERE]

import numpy as np  # noqa: E402
import spirthon  # noqa: E402
from spirthon import gpu, tape, vec3  # noqa: E402
import kernels_grad as K  # noqa: E402


def best(f, rounds):
    out = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


def compile_times(kernel, rounds):
    """Seconds to compile the kernel alone (what it reaches, its file's text parsed afresh);
    to make its adjoint kernel (writing the adjoint, ``spirthon.autodiff``, and the kernel
    object, as ``kernel.adjoint`` does the first time); to compile the adjoint (parsed
    afresh). Each text gets a comment of its own per round, as the native module keeps
    the parses of the texts it compiled."""
    src = kernel.source
    fresh = _texts()
    fwd = best(lambda: gpu._native.compile(next(fresh) + src.text, src.path, kernel.name, False, only_reached=True), rounds)
    write = best(lambda: _fresh_adjoint(kernel), rounds)
    adj = _fresh_adjoint(kernel)
    back = best(lambda: gpu._native.compile(next(fresh) + adj.source.text, adj.source.path, adj.name, False, only_reached=True), rounds)
    return fwd, write, back


def library_times(kernel, rounds):
    """Seconds from a kernel object to its compiled module as the library first makes it in
    a program (``gpu.compile_kernel``, no module cached in memory or on disk): the kernel
    (its file's text checked against its code, then compiled with the whole file diagnosed,
    as the first kernel of its file is), then its adjoint (made, then compiled)."""
    fresh = _texts()

    def forward():
        _forget(kernel, next(fresh))
        gpu.compile_kernel(kernel)

    def adjoint():
        adj = _fresh_adjoint(kernel)
        adj.source.text = next(fresh) + adj.source.text
        gpu.compile_kernel(adj)

    cache = os.environ.get("SPIRTHON_CACHE_DIR")
    os.environ["SPIRTHON_CACHE_DIR"] = ""  # no disk cache
    try:
        fwd = best(forward, rounds)
        _forget(kernel, "")
        back = best(adjoint, rounds)
    finally:
        _forget(kernel, "")
        if cache is None:
            del os.environ["SPIRTHON_CACHE_DIR"]
        else:
            os.environ["SPIRTHON_CACHE_DIR"] = cache
    return fwd, back


def _texts():
    """Comment lines, a new one each time (a text the native module has not parsed)."""
    k = 0
    while True:
        k += 1
        yield "# %d %d\n" % (os.getpid(), k)


def _forget(kernel, comment):
    """The kernel's file as new: its text checked again, no module kept, the whole file
    diagnosed again; ``comment`` added to the end of the text (its lines are unchanged)."""
    src = kernel.source
    src.text = src.text.split("\n# ", 1)[0] + ("\n" + comment if comment else "")
    src._codes = None
    kernel.__dict__.pop("_source_checked", None)
    gpu._modules.clear()
    gpu._diagnosed.clear()


def _fresh_adjoint(kernel):
    kernel.__dict__.pop("_adjoint", None)
    return tape._adjoint_of(kernel)


def ready_times(kernel, rounds):
    """Seconds from nothing to a kernel ready to launch on the device, with every cache
    bypassed: the kernel (its text checked against its code, compiled, the pipeline made
    by the driver), then its adjoint (made, compiled, its pipeline)."""
    dev = gpu._current()

    fresh = _texts()

    def ready(k, make):
        path, text = make(k)
        text = next(fresh) + text
        words, reflection, messages = gpu._native.compile(text, path, k.name, False, only_reached=k is not kernel)
        m = gpu._Module(words, reflection, k.name, path, text)
        dev.native.prepare(m.words, m.entry, m.workgroup_size, sorted(m.arrays.values()), m.uniform_size, m.checked,
                           m.prints, timeout=None)

    def forward(k):
        k.source._codes = None
        k.__dict__.pop("_source_checked", None)
        return gpu._source_of(k)

    def adjoint(k):
        a = _fresh_adjoint(k)
        return a.source.path, a.source.text

    fwd = best(lambda: ready(kernel, forward), rounds)
    adj = _fresh_adjoint(kernel)
    back = best(lambda: ready(adj, lambda _: adjoint(kernel)), rounds)
    return fwd, back


def arguments(name, n, rng):
    """The forward kernel's arguments over n threads (device arrays)."""
    v3 = lambda: spirthon.array(rng.uniform(-1, 1, (n, 3)).astype(np.float32), vec3)
    if name == "springs":
        ends = np.stack([np.arange(n), (np.arange(n) + 1) % n], -1).reshape(-1).astype(np.int32)
        return [v3(), v3(), spirthon.array(ends), spirthon.array(np.full(n, 0.1, np.float32)),
                spirthon.zeros(n, vec3), 100.0, 1.0]
    if name == "integrate":
        return [v3(), v3(), v3(), spirthon.zeros(n, vec3), spirthon.zeros(n, vec3), 0.01]
    if name == "field":
        return [spirthon.array(rng.uniform(-1, 1, n).astype(np.float32)), spirthon.zeros(n), 0.7]
    return [v3(), v3(), spirthon.zeros(1)]


def launch_times(kernel, n, rounds, rng):
    args = arguments(kernel.name, n, rng)
    adj = kernel.adjoint
    extra = [spirthon.zeros(a.shape, a.elem) for p, a in zip(kernel.params, args)
             if p.kind == "array" and p.name in adj.info.adjoints]
    fwd = min(gpu.time_launches(kernel, n, args, 200) for _ in range(rounds)) / 200
    back = min(gpu.time_launches(adj, n, args + extra, 200) for _ in range(rounds)) / 200
    return fwd, back


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 16)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    spirthon.set_device(None)
    rng = np.random.default_rng(0)
    print("device: %s, %d threads" % (spirthon.device(), a.n))
    print("%-10s %10s %10s %10s %6s | %10s %10s %6s | %10s %10s %6s | %10s %10s %6s" % (
        "kernel", "compile", "make adj", "compile adj", "ratio", "library", "adj lib", "ratio",
        "ready", "adj ready", "ratio", "launch", "adj launch", "ratio"))
    for k in (K.springs, K.integrate, K.field, K.loss):
        fwd, write, back = compile_times(k, 20)
        lf_, lb_ = library_times(k, 20)
        rf, rb = ready_times(k, 5)
        lf, lb = launch_times(k, a.n, a.rounds, rng)
        print("%-10s %7.3f ms %7.3f ms %8.3f ms %6.2f | %7.3f ms %7.3f ms %6.2f | %7.2f ms %7.2f ms %6.2f | %7.1f us %7.1f us %6.2f" % (
            k.name, fwd * 1e3, write * 1e3, back * 1e3, (write + back) / fwd, lf_ * 1e3, lb_ * 1e3, lb_ / lf_,
            rf * 1e3, rb * 1e3, rb / rf, lf * 1e6, lb * 1e6, lb / lf))


if __name__ == "__main__":
    main()

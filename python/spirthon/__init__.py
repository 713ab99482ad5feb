"""spirthon's CPython side: the kernel language's names, and the reference executor.

A kernel file imports its names from here (``from spirthon import kernel, Array, f32, ...``),
so the same file runs under CPython and compiles to SPIR-V. Under CPython a kernel runs one
invocation at a time (see ``spirthon.runtime``); calling it with ``.launch`` is how you debug
it with ``print()`` and ``pdb``::

    from saxpy import saxpy
    y = Array(f32, [1.0, 2.0, 3.0])
    saxpy.launch(3, 2.0, Array(f32, [1.0, 1.0, 1.0]), y)
    print(y)            # Array(f32, [3.0, 4.0, 5.0])

Standard library only; CPython 3.9 or newer.
"""

from .types import Array, Array2D, Array3D, f32, i32, u32
from .vectors import (
    vec2, vec3, vec4, ivec2, ivec3, ivec4, uvec2, uvec3, uvec4,
    dot, cross, length, distance, normalize, clamp, mix, step, smoothstep,
)
from .runtime import (
    kernel, func, Kernel, global_id, local_id, workgroup_id, num_workgroups, local_index,
    num_threads, shared_array, barrier, atomic_add, atomic_sub, atomic_min, atomic_max,
    atomic_and, atomic_or, atomic_xor, atomic_exchange, atomic_compare_exchange, DeadlockError,
    CheckError,
)
from .gpu import CompileError, DeviceArray, array, zeros, set_device, device, devices, synchronize

__all__ = [
    "Array", "Array2D", "Array3D", "f32", "i32", "u32", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2",
    "uvec3", "uvec4", "kernel", "func", "Kernel", "global_id", "local_id", "workgroup_id",
    "num_workgroups", "local_index", "shared_array", "barrier", "dot", "cross", "length",
    "distance", "normalize", "clamp", "mix", "step", "smoothstep", "num_threads", "atomic_add",
    "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor",
    "atomic_exchange", "atomic_compare_exchange", "DeadlockError", "CheckError",
    "CompileError", "DeviceArray", "array", "zeros", "set_device", "device", "devices",
    "synchronize",
]

__version__ = "0.1.0"

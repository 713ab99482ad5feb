"""spirthon's Python side: the kernel language's names, launches on the GPU, and the
CPython reference executor.

A kernel file imports its names from here (``from spirthon import kernel, Array, f32, ...``),
so the same file runs under CPython and compiles to SPIR-V. ``kernel.launch(threads, *args)``
(or ``kernel[griddim, blockdim](*args)``, griddim workgroups of blockdim threads, as in
Numba-CUDA) runs a kernel on the current device: a GPU through the native module ``spirthon._native``
(compiled in-process, see ``spirthon.gpu``), with NumPy arrays, device arrays
(``spirthon.array``, ``spirthon.zeros``) or ``Array`` values::

    import numpy as np
    from saxpy import saxpy
    y = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    saxpy.launch(3, 2.0, np.ones(3, dtype=np.float32), y)
    print(y)            # [3. 4. 5.]

``spirthon.set_device("python")`` (or ``SPIRTHON_DEVICE=python``, or a package without its
native module) runs launches on the reference executor instead (``spirthon.runtime``): one
invocation at a time, so ``print()`` and ``pdb`` work inside kernels.

The pure-Python part needs the standard library only (CPython 3.9 or newer); NumPy arrays
need NumPy.
"""

from .types import f32, f64, f16, i32, u32, i8, u8, i16, u16, i64, u64  # noqa: F401 (exported: __all__ below)
from .arrays import Array, Array2D, Array3D  # noqa: F401
from .vectors import (  # noqa: F401
    vec2, vec3, vec4, ivec2, ivec3, ivec4, uvec2, uvec3, uvec4, dvec2, dvec3, dvec4, quat,
    i8vec2, i8vec3, i8vec4, u8vec2, u8vec3, u8vec4, i16vec2, i16vec3, i16vec4, u16vec2, u16vec3, u16vec4,
    i64vec2, i64vec3, i64vec4, u64vec2, u64vec3, u64vec4, f16vec2, f16vec3, f16vec4,
    dot, cross, length, distance, normalize, clamp, mix, step, smoothstep,
)
from .matrices import (  # noqa: F401
    mat22, mat33, mat44, dmat22, dmat33, dmat44, transpose, determinant, inverse, outer, diag, identity, quat_identity,
    quat_inverse, quat_from_axis_angle, quat_rotate, quat_rotate_inv, quat_to_matrix,
)
from .structs import struct  # noqa: F401
from .rand import (  # noqa: F401
    Rand, rand_init, randu, randi, randf, randn, sample_unit_disk, sample_unit_sphere_surface,
    sample_unit_sphere,
)
from .api import kernel, func, Kernel  # noqa: F401
from .runtime import (  # noqa: F401
    global_id, local_id, workgroup_id, num_workgroups, local_index, num_threads, shared_array,
    local_array, barrier, atomic_add, atomic_sub, atomic_min, atomic_max, atomic_and, atomic_or, atomic_xor,
    atomic_exchange, atomic_compare_exchange, set_subgroup_size, subgroup_size, subgroup_invocation_id,
    subgroup_add, subgroup_mul, subgroup_min, subgroup_max, subgroup_and, subgroup_or, subgroup_xor,
    subgroup_inclusive_add, subgroup_exclusive_add, subgroup_inclusive_mul, subgroup_exclusive_mul,
    subgroup_broadcast, subgroup_broadcast_first, subgroup_shuffle, subgroup_shuffle_down,
    subgroup_shuffle_up, subgroup_shuffle_xor, subgroup_ballot, subgroup_all, subgroup_any, subgroup_elect,
)
from .errors import CheckError, CompileError, DeadlockError  # noqa: F401
from .gpu import (  # noqa: F401
    DeviceArray, array, zeros, set_device, device, devices, synchronize, set_timeout, get_timeout,
)
from .tape import Tape  # noqa: F401
from .autodiff import AdjointError  # noqa: F401
from . import _library

# The kernel language's names (the compiler's table, ``_library.SPIRTHON``: a test checks
# that each is imported above), then the library's own.
__all__ = list(_library.SPIRTHON) + [
    "Kernel", "DeadlockError", "CheckError", "CompileError", "DeviceArray", "array", "zeros",
    "set_device", "device", "devices", "synchronize", "set_timeout", "get_timeout", "set_subgroup_size",
    "Tape", "AdjointError",
]

__version__ = "0.1.0"

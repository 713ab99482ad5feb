# print from the GPU: numbers, vectors, matrices, quaternions and structs, with f-strings,
# conversions, format specs, `=`, sep and end. The lines are compared with what CPython
# prints for the same invocations.
from spirthon import (kernel, func, struct, Array, global_id, vec2, vec3, ivec2, uvec3, dvec2,
                      mat22, quat, f16, f32, f64, i64, u64, i8, u8, u16, u32)


@struct
class Body:
    pos: vec2
    mass: float
    alive: bool


@func
def describe(b: Body, k: int):
    print(f"{b}", f"{b!r:>40}", f"{k=}")


@kernel(workgroup_size=4)
def values(x: Array[float], d: Array[f64], n: Array[int], out: Array[float]):
    i = global_id().x
    v = x[i]
    w = d[i]
    k = n[i]
    print(i, v, w, k, True, i == 2, sep=" | ")
    print(f"[{v:.3f}] [{v:10.4e}] [{v:<9g}] [{v:+08.2f}] [{v:%}] [{v:^12}] [{v:.0f}] [{v:#.0e}] [{v:G}]")
    print(f"[{w:.10f}] [{w:_.2f}] [{w:,.3e}] [{w!r}] [{w:=+14.5}] [{w:.17g}] [{w*1e20:f}]")
    print(f"[{k:d}] [{k:+}] [{k: }] [{k:#x}] [{k:#010b}] [{k:o}] [{k:X}] [{k:,}] [{k:_}] [{k:*^9}] [{k:.2f}] [{k:e}]")
    big = i64(k) * 1234567891011
    print(f"{big} {big:,} {u64(big):x} {i8(k)} {u8(k)} {u16(k):05} {u32(k)} {f16(v)} {f16(v):.6f}")
    print(f"{vec3(v, f32(w), 1.5)} {vec3(v, 2.0, 0.25):.2f} {ivec2(k, -k)} {uvec3(u32(i), 7, 8):>4} {dvec2(w, 0.1)}")
    m = mat22(v, 1.0, 2.0, v * 3.0)
    print(f"{m} {m:.1f} {quat(0.0, 0.0, v, 1.0)}")
    print(f"{i=}", f"{v = :.2f}", f"{k=!s}", f"{w!a}", "{literal}", 12, 2.5, 10**19, sep=";", end="|\n")
    print(f"{3.25:>8.3f}|{7:03d}|{'x'}|{1e300 * 10:f}|{-0.0}|{0.1 + 0.2}")
    describe(Body(pos=vec2(v, -v), mass=f32(w * 0.5), alive=k > 0), k)
    print()
    out[i] = v


@kernel(workgroup_size=4)
def specials(x: Array[float]):
    i = global_id().x
    v = x[i]
    print(f"{v} {v:f} {v:e} {v:g} {v:F} {v:+} {v:010} {v:.3} {v!r}")

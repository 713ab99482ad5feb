"""i64 and u64 in memory: struct fields at 8-byte offsets, local arrays, atomics (add, max,
min on 64-bit words), a `range` counting in i64, an i64 index, and conversions to f32 and
from f64/f32 that wrap at 64 bits."""
from spirthon import kernel, Array, i64, u64, i32, u32, f32, f64, global_id, atomic_add, atomic_max, atomic_min, local_array, struct

@struct
class Rec:
    id: i64
    w: f32
    h: u64

@kernel(workgroup_size=(64, 1, 1))
def more(a: Array[i64], n: i64, tot: Array[i64], mx: Array[u64], recs: Array[Rec], f: Array[f32], g: Array[i64]):
    i = global_id().x
    if i >= len(a):
        return
    j = a[i] % n
    s = i64(0)
    for k in range(j):
        s += k
    atomic_add(tot, 0, s)
    h = u64(0xcbf29ce484222325)
    x = u64(a[i])
    for b in range(8):
        h = (h ^ ((x >> (8 * b)) & 0xff)) * 0x100000001b3
    atomic_max(mx, 0, h)
    atomic_min(mx, 1, h)
    st = local_array(i64, 4)
    st[0] = a[i]
    st[1] = st[0] * 3
    r = recs[i]
    r.id = r.id + st[1]
    r.h = r.h ^ h
    r.w = f32(r.id)
    recs[i] = r
    f[i] = f32(a[i] * 1000000007)
    g[i * 3] = i64(f64(a[i]) * 1e10)
    g[i * 3 + 1] = i64(f32(a[i]) * 3.0e19)
    g[i * 3 + 2] = a[j]

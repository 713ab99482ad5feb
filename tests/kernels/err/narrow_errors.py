"""i8 u8 i16 u16 do not mix with each other or with i32/u32 (convert one side), a literal
must fit the type, and atomics on them do not exist (atomics work on words)."""
from spirthon import kernel, Array, i32, u8, i8, u16, global_id, atomic_add


@kernel
def k(a: Array[u8], b: Array[i8], c: Array[u16], n: i32):
    i = global_id().x
    x = a[i] + b[i]
    y = a[i] * n
    z = a[i] + 300
    w = b[i] < -200
    atomic_add(a, i, 1)
    c[i] = a[i]
    a[i] = -1
    b[i] = 1.5

"""`a if c else b` of structs: elements read at run-time indices (one hidden variable per
leaf), and names and a constructor (each leaf selected; a matrix entry by entry); a zero
matrix field of a constructor."""
from spirthon import kernel, struct, Array, f32, i32, vec3, mat22, global_id

@struct
class P:
    pos: vec3
    m: mat22
    k: i32

@kernel
def k(a: Array[P], out: Array[P]):
    i = global_id().x
    p = a[i] if i % 2 == 0 else a[len(a) - 1 - i]
    q = p if p.k > 2 else P(k=-1)
    out[i] = q

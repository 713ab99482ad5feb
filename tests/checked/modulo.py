"""`%=` on an int vector whose second component is zero."""
from spirthon import Array, i32, ivec2, global_id, kernel


@kernel(workgroup_size=4)
def wrap(x: Array[i32], m: i32, out: Array[i32]):
    i = global_id().x
    v = ivec2(x[i], x[i] + 1)
    v %= ivec2(3, m - i)
    out[i] = v.x + v.y

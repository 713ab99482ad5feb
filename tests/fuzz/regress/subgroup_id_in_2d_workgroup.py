"""`//` and `%` whose dividend is a local or subgroup id and whose divisor is a positive
constant or the subgroup size: one `OpSDiv`/`OpSRem` each, without Python's sign fixups
(floor and truncation agree there); a global id keeps them."""
from spirthon import kernel, Array, i32, global_id, local_id, local_index, subgroup_size, subgroup_invocation_id


@kernel(workgroup_size=64)
@kernel(workgroup_size=(8, 8))
def k(out: Array[i32]):
    i = global_id().x
    lid = local_id().x
    n = subgroup_size()
    out[i] = lid // n + local_index() % 4 * 100 + subgroup_invocation_id() // 2 * 10000 + i // n * 1000000

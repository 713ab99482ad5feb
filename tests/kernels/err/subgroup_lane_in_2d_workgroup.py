"""The subgroup invocation index in a kernel of a two-dimensional workgroup, read directly
and through a func's shuffle: naga refuses the built-in there, so each kernel that reaches
it is refused at the place it does (a 1-D kernel calling the same func is fine; a given
lane's shuffle, a broadcast and `subgroup_elect` need no index and compile in 2-D)."""
from spirthon import kernel, func, Array, i32, global_id, subgroup_invocation_id, subgroup_shuffle_down
from spirthon import subgroup_shuffle, subgroup_elect


@func
def neighbour(v: i32) -> i32:
    return subgroup_shuffle_down(v, 1)


@kernel(workgroup_size=64)
def flat(out: Array[i32]):
    i = global_id().x
    out[i] = neighbour(i)


@kernel(workgroup_size=(8, 8))
def square(out: Array[i32]):
    i = global_id().x
    out[i] = neighbour(i) + subgroup_shuffle(i, 3) + (1 if subgroup_elect() else 0)


@kernel(workgroup_size=(4, 4, 4))
def cube(out: Array[i32]):
    i = global_id().x
    out[i] = subgroup_invocation_id()

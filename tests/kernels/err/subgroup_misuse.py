from spirthon import (
    kernel, Array, f32, f64, i32, vec3, global_id, subgroup_add, subgroup_and, subgroup_ballot,
    subgroup_shuffle, subgroup_inclusive_add, subgroup_size,
)


@kernel
def k(x: Array[f64], y: Array[f32], out: Array[i32]):
    i = global_id().x
    a = subgroup_add(x[i])
    b = subgroup_and(y[i])
    c = subgroup_ballot(i)
    d = subgroup_shuffle(y[i], 1.5)
    e = subgroup_inclusive_add(y[i], 2)
    f = subgroup_size(1)
    g = subgroup_add(vec3(1.0) > 0.0)

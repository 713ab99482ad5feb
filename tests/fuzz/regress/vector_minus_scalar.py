from spirthon import kernel, Array, i32, global_id, local_id, workgroup_id, num_workgroups, local_index


@kernel(workgroup_size=(4, 4, 2))
def threads(out: Array[i32]):
    x, y, z = global_id()
    lx, ly, _ = local_id()-1
    wg = workgroup_id()
    nw = num_workgroups()
    flat = (z * nw.y * 4 + y) * nw.x * 4 + x
    out[flat] = lx + ly * 10 + wg.x * 100 + local_index() * 1000

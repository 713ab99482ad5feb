from spirthon import Array, f32, func, global_id, i32, kernel, local_id, workgroup_id
@func
def blend(half: f32, nxt: i32) -> int:
    return 7
@kernel(workgroup_size=(8, 8))
def simulate(factor: f32, steps: i32, iout: Array[i32]):
    px, py, _ = global_id()
    gid2 = py * 15 + px
    base = gid2 * 6
    fuel = steps
    tot = 3
    if factor > 1.0:
        tries = steps
        while tries > 0 and (gid2 <= 140 or blend(4.0, tries & 0x7FFF) == blend(float(py), iout[base + 1] & 0x7FFF)):
            if (round(factor) << 2) - tot % max(local_id().y, 1):
                break
            elif fuel == 65535:
                fuel = iout[base] % (tries % 3 + 1) ^ 5
        else:
            fuel = gid2 * workgroup_id().y % 13
    iout[base] = fuel

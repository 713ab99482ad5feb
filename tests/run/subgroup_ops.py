"""Every subgroup operation on ints, on 13 invocations of 16-wide workgroups (the last
three invocations of the second workgroup are past the launch and inactive): reductions and
scans, broadcasts, shuffles at the subgroup's edges (an inactive or out-of-range lane gives
the invocation's own value), ballots and votes, elect, inside a func too, and one in a conditional expression, which
runs in the invocations that take its side only. The reference
executor runs with the device's subgroup size."""

from spirthon import (
    kernel, func, Array, i32, u32, uvec4, ivec2, global_id, subgroup_size, subgroup_invocation_id,
    subgroup_add, subgroup_mul, subgroup_min, subgroup_max, subgroup_and, subgroup_or,
    subgroup_xor, subgroup_inclusive_add, subgroup_exclusive_add, subgroup_inclusive_mul,
    subgroup_exclusive_mul, subgroup_broadcast, subgroup_broadcast_first, subgroup_shuffle,
    subgroup_shuffle_down, subgroup_shuffle_up, subgroup_shuffle_xor, subgroup_ballot,
    subgroup_all, subgroup_any, subgroup_elect,
)


@func
def neighbours(v: i32) -> ivec2:
    return ivec2(subgroup_shuffle_down(v, 1), subgroup_shuffle_up(v, 1))


@kernel(workgroup_size=16)
def ops(x: Array[i32], reduced: Array[i32], scanned: Array[i32], moved: Array[i32],
        votes: Array[u32], lanes: Array[i32]):
    i = global_id().x
    v = x[i]
    small = v % 5 + 1
    reduced[8 * i] = subgroup_add(v)
    reduced[8 * i + 1] = subgroup_mul(small)
    reduced[8 * i + 2] = subgroup_min(v)
    reduced[8 * i + 3] = subgroup_max(v)
    reduced[8 * i + 4] = subgroup_and(v | 256)
    reduced[8 * i + 5] = subgroup_or(v)
    reduced[8 * i + 6] = subgroup_xor(v)
    reduced[8 * i + 7] = subgroup_add(ivec2(v, 1)).y
    scanned[4 * i] = subgroup_inclusive_add(v)
    scanned[4 * i + 1] = subgroup_exclusive_add(v)
    scanned[4 * i + 2] = subgroup_inclusive_mul(small)
    scanned[4 * i + 3] = subgroup_exclusive_mul(small)
    nb = neighbours(v)
    moved[6 * i] = nb.x
    moved[6 * i + 1] = nb.y
    moved[6 * i + 2] = subgroup_shuffle_xor(v, 1)
    moved[6 * i + 3] = subgroup_shuffle(v, subgroup_size() - 1 - subgroup_invocation_id())
    moved[6 * i + 4] = subgroup_broadcast(v, 1)
    moved[6 * i + 5] = subgroup_broadcast_first(v * 10)
    b = subgroup_ballot(v % 2 == 0)
    votes[6 * i] = b.x
    votes[6 * i + 1] = b.y | b.z | b.w
    votes[6 * i + 2] = u32(subgroup_all(v > 0))
    votes[6 * i + 3] = u32(subgroup_any(v > 90))
    votes[6 * i + 4] = u32(subgroup_elect())
    # Only the chosen side runs: the ballot has the elected invocation alone.
    votes[6 * i + 5] = subgroup_ballot(v != 0).x if subgroup_elect() else u32(7)
    lanes[i] = subgroup_invocation_id()

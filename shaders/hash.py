"""FNV-1a hashes of each thread's index bytes, on u32 with wrapping arithmetic."""
from spirthon import kernel, func, Array, u32, global_id

FNV_OFFSET = 2166136261
FNV_PRIME = 16777619


@func
def fnv1a(value: u32) -> u32:
    h = u32(FNV_OFFSET)
    for k in range(4):
        h ^= (value >> (8 * k)) & 0xFF
        h *= FNV_PRIME
    return h


@kernel(workgroup_size=128)
def hash_ids(seed: u32, out: Array[u32]):
    i = global_id().x
    out[i] = fnv1a(u32(i) ^ seed)

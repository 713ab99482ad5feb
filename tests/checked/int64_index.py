"""An i64 index past the i32 range: checked as the end of that range, which no array
reaches, and reported as such on both devices."""
from spirthon import Array, i64, global_id, kernel


@kernel
def gather(src: Array[i64], at: Array[i64], out: Array[i64]):
    i = global_id().x
    out[i] = src[at[i]]

"""Monte Carlo estimate of pi with a 64-bit generator (SplitMix64, as NumPy's SeedSequence
and Java's SplittableRandom use): each invocation draws points in the unit square from its
own stream, counts those inside the quarter circle, and adds its count to one `u64` total
with a 64-bit atomic. The per-invocation final states are kept, so a run can resume."""
from spirthon import kernel, func, Array, u64, f32, i32, global_id, atomic_add


@func
def splitmix64(state: u64) -> (u64, u64):
    """The next state and the 64-bit output drawn from it."""
    s = state + 0x9E3779B97F4A7C15
    z = s
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return s, z ^ (z >> 31)


@func
def unit(bits: u64) -> f32:
    """The top 24 bits as a float in [0, 1)."""
    return f32(bits >> 40) * (1.0 / 16777216.0)


@kernel(workgroup_size=(64, 1, 1))
def estimate(seeds: Array[u64], states: Array[u64], hits: Array[u64], samples: i32):
    i = global_id().x
    if i >= len(seeds):
        return
    state = seeds[i] * 0x2545F4914F6CDD1D + u64(i)
    inside = u64(0)
    for _ in range(samples):
        state, a = splitmix64(state)
        state, b = splitmix64(state)
        x = unit(a)
        y = unit(b)
        if x * x + y * y < 1.0:
            inside += 1
    states[i] = state
    atomic_add(hits, 0, inside)

"""Random streams: one per invocation from a seed, resumed from an array of states, drawn
through a field and an element in place, and copied into a func (which leaves the caller's
stream where it was)."""

from spirthon import (
    kernel, func, Array, f32, i32, u32, vec2, vec3, global_id, struct, Rand, rand_init, randf,
    randi, randu, randn, sample_unit_disk, sample_unit_sphere, sample_unit_sphere_surface,
)


@struct
class Walker:
    pos: vec3
    rng: Rand


@func
def jitter(r: Rand) -> vec2:
    return sample_unit_disk(r) * 0.5


@kernel
def walk(seed: i32, states: Array[Rand], walkers: Array[Walker], words: Array[u32],
         uniform: Array[f32], ints: Array[i32], normal: Array[f32], points: Array[vec3],
         inside: Array[i32]):
    i = global_id().x
    if i >= len(words):
        return
    rng = states[i]
    words[i] = randu(rng)
    uniform[i] = randf(rng) + randf(states[i], -1.0, 1.0)
    ints[i] = randi(rng, -3, 4) + randi(rng) % 7
    j = jitter(rng)
    normal[i] = randn(rng) + j.x - jitter(rng).x
    w = walkers[i]
    w.pos += sample_unit_sphere_surface(w.rng) * 0.1
    walkers[i] = w
    points[i] = sample_unit_sphere(walkers[i].rng)
    hits = 0
    fresh = rand_init(seed, i)
    for _ in range(64):
        p = vec2(randf(fresh), randf(fresh))
        if p.x * p.x + p.y * p.y < 1.0:
            hits += 1
    inside[i] = hits
    states[i] = rng

from spirthon import kernel, func, Array, f32, global_id, rand_init, randf, randi, Rand, vec3


@func
def draw_twice(r: Rand) -> Rand:
    return r


@kernel
def bad(out: Array[f32]):
    i = global_id().x
    rng = rand_init(1, i)
    out[i] = randf(rand_init(1, i))
    out[i] = randf(i)
    out[i] = f32(randi(rng, 1))
    out[i] = randf(rng, 1.0, vec3(1.0))
    r2 = rand_init(1.5)
    out[i] = randf(rng.state)
    out[i] = randf(draw_twice(rng))
    out[i] = randf(rng, 2)

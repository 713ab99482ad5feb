"""A vector indexed at run time, `v[k]`, as Python indexes a tuple: reads, writes and
augmented assignments, negative indices counting from the end, `i32` and `u32` indices."""
from spirthon import kernel, Array, ivec4, vec3, vec4, u32, global_id


@kernel
def pick(v: Array[vec4], k: Array[int], out: Array[vec4], s: Array[float]):
    i = global_id().x
    a = v[i]
    j = k[i]
    # Read at a run-time index, negative ones from the end.
    s[i] = a[j] + a[-1 - (j % 4)] * 0.5
    # Write and update at one.
    a[j] = 10.0
    a[(j + 1) % 4] += 1.5
    b = vec3(0.0)
    for c in range(3):
        b[c] = float(c) * a[c]
    counts = ivec4(0)
    for c in range(4):
        counts[u32(c)] += c * j
    out[i] = vec4(b, float(counts[j % 4]))

"""A module's constant tuple unpacked into names (`xmin, ymin, xmax, ymax = BOX`), inside a
loop too: its items, typed as its table is (all f32 when one is a float)."""
from spirthon import kernel, Array, f32, i32, vec4, global_id, clamp

GRAVITY = -9.8
DT = 0.01
BOX = (0, 0.0, 10, 5.0)
STEPS = (3, 7)


@kernel
def bounce(state: Array[vec4], steps: Array[i32]):
    i = global_id().x
    s = state[i]
    lo, hi = STEPS
    n = min(max(steps[i], lo), hi * 20)
    for _ in range(n):
        s.w += GRAVITY * DT
        s.x += s.z * DT
        s.y += s.w * DT
        xmin, ymin, xmax, ymax = BOX
        if s.x < xmin or s.x > xmax:
            s.z = -s.z * 0.9
            s.x = clamp(s.x, xmin, xmax)
        if s.y < ymin or s.y > ymax:
            s.w = -s.w * 0.8
            s.y = clamp(s.y, ymin, ymax)
    state[i] = s
    steps[i] = n

"""A separable 5-tap binomial blur over a width x height image: the horizontal pass (the one
the corpus runs) and the vertical pass, the weights a module-level constant tuple; the edges
clamp."""
from spirthon import kernel, Array, f32, i32, global_id

WEIGHTS = (0.0625, 0.25, 0.375, 0.25, 0.0625)
RADIUS = len(WEIGHTS) // 2


@kernel(workgroup_size=(16, 4))
def conv_rows(width: i32, height: i32, img: Array[f32], out: Array[f32]):
    x, y, _ = global_id()
    acc = 0.0
    for k, w in enumerate(WEIGHTS):
        sx = min(max(x + k - RADIUS, 0), width - 1)
        acc += w * img[y * width + sx]
    out[y * width + x] = acc


@kernel(workgroup_size=(16, 4))
def conv_cols(width: i32, height: i32, img: Array[f32], out: Array[f32]):
    x, y, _ = global_id()
    acc = 0.0
    for k in range(len(WEIGHTS)):
        sy = min(max(y + k - RADIUS, 0), height - 1)
        acc += WEIGHTS[k] * img[sy * width + x]
    out[y * width + x] = acc

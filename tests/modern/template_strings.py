# requires Python 3.14
"""PEP 750 template strings around a kernel."""
import numpy as np

from spirthon import kernel, Array, f32, global_id


def render(name, value):
    template = t"{name} = {value:.2f}"
    return "".join(
        part if isinstance(part, str) else format(part.value, part.format_spec)
        for part in template
    )


@kernel
def scale(x: Array[f32], out: Array[f32]):
    i = global_id().x
    out[i] = x[i] * 0.5 - 1.0


if __name__ == "__main__":
    x = np.arange(32, dtype=np.float32)
    out = np.zeros(32, dtype=np.float32)
    scale.launch(32, x, out)
    assert np.array_equal(out, x * np.float32(0.5) - np.float32(1.0)), out
    assert render("v", 1.5) == "v = 1.50"
    print("ok template_strings.py")

# print from the GPU: non-finite floats and signed zeros, under every float format.
from spirthon import kernel, Array, global_id


@kernel(workgroup_size=4)
def specials(x: Array[float]):
    i = global_id().x
    v = x[i]
    print(f"{v} {v:f} {v:e} {v:g} {v:F} {v:+} {v:010} {v:.3} {v!r} {v:E} {v:%} {v:G}")

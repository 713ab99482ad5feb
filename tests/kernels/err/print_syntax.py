"""print from the GPU: strings are print's alone, and a spec is written out."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32], n: int):
    i = global_id().x
    print(x[i], sep=", " + "")
    print(f"{x[i]:{n}}")
    w = f"{n}"

"""CPU-side code that CPython's compiler refuses ('break' outside loop, in a loop's `else`):
the file cannot be imported, so it is refused, though the kernel is fine."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    x[i] = 1.0


def retry(n):
    for _ in range(n):
        pass
    else:
        break

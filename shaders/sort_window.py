"""Bubble-sorts each window of WINDOW elements in place, one window per thread."""
from spirthon import kernel, Array, f32, global_id

WINDOW = 8


@kernel(workgroup_size=16)
def sort_window(data: Array[f32]):
    base = global_id().x * WINDOW
    for n in range(WINDOW, 1, -1):
        swapped = False
        for j in range(base, base + n - 1):
            if data[j] > data[j + 1]:
                data[j], data[j + 1] = data[j + 1], data[j]
                swapped = True
        if not swapped:
            break

# Strings and f-strings are arguments of `print` themselves: inside a conditional
# expression (or any other) the error says so and how to print either line, once per
# argument, and not that f-strings are unsupported.
from spirthon import kernel, Array, f32, global_id


@kernel
def k(a: Array[f32]):
    i = global_id().x
    print(f"big {a[i]}" if a[i] > 1.0 else f"small {a[i]}")
    print("x =", a[i], "big" if a[i] > 1.0 else "small")

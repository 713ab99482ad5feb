"""print from the GPU: what it cannot print as CPython does is an error at the argument."""
from spirthon import kernel, func, struct, Array, f32, i32, global_id, vec2


@struct
class P:
    at: vec2
    m: f32


@func
def nothing(a: f32):
    return


@kernel
def k(x: Array[f32], n: i32, p: P):
    i = global_id().x
    print(x[i], file=x)
    print(x[i], sep=n)
    print(x[i], end=None, flush=n > 0)
    print(x[i], colour="red")
    print(f"{x[i]:.2d}", f"{n:.3}", f"{n:n}", f"{x[i]:z.2f}", f"{n:,x}", f"{'a':05}")
    print(f"{p:>10}", f"{'text'!r}", f"{x[i]:.2000f}", f"{nothing(1.0)}", f"{nothing(1.0):4}")
    print((x[i], n), x)
    y = print(n)

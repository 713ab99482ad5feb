# requires Python 3.12
"""PEP 695 type parameters on kernels and funcs, as `TypeVar`s are: `def scale[T](...)` is a
generic kernel whose `T` comes from each launch (one specialization per type), `def
twice[U](x: U)` and `def total[S](xs: Array[S], n: i32)` generic funcs specialized at each
call; a type parameter is the def's own (the module's `T = 3` is another name, which a plain
kernel reads), and a bound (`[V: (f32, i32)]`) is the type checker's."""
import spirthon
from spirthon import kernel, func, Array, f32, i32, global_id

T = 3


@func
def twice[U](x: U):
    return x + x


@func
def total[S](xs: Array[S], n: i32):
    acc = xs[0] - xs[0]
    for k in range(n):
        acc += xs[k]
    return acc


@kernel
def scale[T](a: Array[T], k: T, out: Array[T]):
    i = global_id().x
    out[i] = twice(a[i]) * k + total(a, 2)


@kernel
def shift[V: (f32, i32)](a: Array[V], out: Array[V]):
    i = global_id().x
    out[i] = a[i] + a[i] * T


if __name__ == "__main__":
    for device in (None, "python"):
        spirthon.set_device(device)
        a = Array(f32, [1.0, 2.0, 3.0, 4.5])
        out = Array(f32, 4)
        scale.launch(4, a, f32(0.5), out)
        assert out.tolist() == [4.0, 5.0, 6.0, 7.5], (device, out.tolist())
        ai = Array(i32, [1, 2, 3, 4])
        oi = Array(i32, 4)
        scale.launch(4, ai, 3, oi)
        assert oi.tolist() == [9, 15, 21, 27], (device, oi.tolist())
        shift.launch(4, ai, oi)
        assert oi.tolist() == [4, 8, 12, 16], (device, oi.tolist())
    print("ok pep695_generics.py")

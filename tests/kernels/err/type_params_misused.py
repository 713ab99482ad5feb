# PEP 695 type parameters are generic as `TypeVar`s are, and held to the same rules: one
# stands only for a parameter's type (not a func's return: leave it out), it belongs to its
# def alone (another def's annotation does not know it), and only plain ones (`[T]`, bounded
# or not) are supported.
from spirthon import kernel, func, Array, f32, global_id


@func
def returns[T](x: T) -> T:
    return x


@kernel
def elsewhere(a: Array[T]):
    a[0] = 1.0


@kernel
def variadic[*Ts](a: Array[f32]):
    a[0] = 1.0

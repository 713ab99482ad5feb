# A PEP 695 type parameter in its def's body is no type for a local (as a `TypeVar` is not):
# the error is the specialization's, at the annotation.
from spirthon import kernel, func, Array, f32, global_id


@func
def copy[T](x: T):
    y: T = x
    return y


@kernel
def k(a: Array[f32]):
    i = global_id().x
    a[i] = copy(a[i])

# A message about a generic func's specialization names the func as the source writes it
# (`cnd_cuda`), not the specialization's mangled entry (`cnd_cuda__f64`).
from spirthon import kernel, func, Array, f32, f64, i32, global_id


@func
def cnd_cuda(x) -> i32:
    return x


@func
def reaches_end(x) -> f32:
    if x > 0:
        return 1.0


@kernel
def k(a: Array[f64], b: Array[i32], c: Array[f32]):
    i = global_id().x
    b[i] = cnd_cuda(a[i])
    c[i] = reaches_end(a[i])

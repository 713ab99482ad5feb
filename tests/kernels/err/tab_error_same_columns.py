# A tab where spaces indented the block before it is CPython's TabError, also where the
# columns agree when a tab is 8 of them.
from spirthon import kernel, Array, f32, global_id


@kernel
def k(a: Array[f32]):
        i = global_id().x
	a[i] = 1.0

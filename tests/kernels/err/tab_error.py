# Mixed tabs and spaces in indentation: CPython's TabError, not an indentation level
# that does not match.
from spirthon import kernel, Array, f32, global_id


@kernel
def k(a: Array[f32]):
    i = global_id().x
	if i > 0:
        a[i] = 1.0

"""A constant tuple's negative index counts from the end only when written as a constant:
one held in a variable is out of range (as an array's is), and one past the start is out of
range either way (Python raises IndexError)."""
from spirthon import kernel, Array, f32, global_id

W = (0.5, 1.5, -2.0)


@kernel
def k(o: Array[f32]):
    i = global_id().x
    o[i] = W[-1] + W[-3]
    j = -1
    o[i] += W[j]
    o[i] += W[-4]

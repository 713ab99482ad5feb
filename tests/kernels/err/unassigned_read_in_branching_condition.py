"""A fuzz regression: a name first read in a while condition that branches (a conditional
expression), never assigned before the loop. The unassigned-read analysis looked up the
lowering's flags past the variables SSA construction had seen (a panic), and each read
was its own error; now one located error for the name."""
from spirthon import kernel, Array, i32, global_id


@kernel
def k(xs: Array[i32], out: Array[i32]):
    i = global_id().x
    n = len(xs)
    w = 0
    for jj in range(3):
        while (v < 5 if jj != 1 else v < 2) and xs[v % n] >= 0:
            v += 1
        w += jj
    out[i] = w

"""Control characters in a line a diagnostic shows (ESC, BEL, an OSC sequence) are printed
as pictures, never sent to the terminal."""
from spirthon import kernel, Array, f32, global_id


@kernel
def k(x: Array[f32]):
    i = global_id().x
    x[i] = "\x1b]0;title\x07\x1b[31mred" + 1
    x[i] = "]0;title[31mred" + 1

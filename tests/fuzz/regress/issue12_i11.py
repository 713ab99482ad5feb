from spirthon import kernel, Array, i32, f32, global_id
@kernel
def k(x: Array[i32], count: i32, score: f32):
    todo = 3
    k = 0
    while todo > 0 and count:
        todo -= 1
        k += 1
    if score or x[k]:
        x[0] = k
    y = 1 if todo and score else 2
    if not (todo or score):
        x[1] = y

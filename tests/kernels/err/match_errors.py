from spirthon import kernel, Array, f32, i32, vec2, global_id


@kernel
def match_errors(x: Array[f32], n: Array[i32]):
    i = global_id().x
    match x[i]:
        case 1:
            n[i] = 1
    match n[i]:
        case (1, 2):
            n[i] = 2
        case 1.5:
            n[i] = 3
    match n[i]:
        case other:
            n[i] = other
        case 3:
            n[i] = 4
    match = 5
    n[i] += match

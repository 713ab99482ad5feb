from spirthon import kernel, Array, i32, global_id


@kernel
def opcodes(code: Array[i32], out: Array[i32]):
    i = global_id().x
    match code[i]:
        case 0:
            out[i] = 1
        case 1 | 1:
            out[i] = 2
        case -1 if i > 0:
            out[i] = 3
        case other:
            out[i] = other

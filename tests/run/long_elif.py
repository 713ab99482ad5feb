"""An elif chain longer than 16 links is lowered flat; each branch still runs alone, and a
variable assigned in every branch and the else needs no earlier value."""
from spirthon import kernel, Array, i32, global_id


@kernel
def long_elif(x: Array[i32], out: Array[i32]):
    i = global_id().x
    v = x[i]
    n = 0
    if v < 0:
        r = -v
    elif v == 1:
        r = 3
        n += 1
    elif v == 2:
        r = 6
        n += 1
    elif v == 3 and x[0] >= 0:
        r = 9
        n += 1
    elif v == 4:
        r = 12
        n += 1
    elif v == 5:
        r = 0
        for k in range(5):
            if k * k > 5:
                break
            r += k
    elif v == 6:
        r = 18
        n += 1
    elif v == 7:
        r = 21
        n += 1
    elif v == 8:
        r = 24
        n += 1
    elif v == 9:
        r = 27
        n += 1
    elif v == 10 and x[0] >= 0:
        r = 30
        n += 1
    elif v == 11:
        r = 33
        n += 1
    elif v == 12:
        r = 36
        n += 1
    elif v == 13:
        r = 39
        n += 1
    elif v == 14:
        r = 42
        n += 1
    elif v == 15:
        r = 0
        for k in range(15):
            if k * k > 15:
                break
            r += k
    elif v == 16:
        r = 48
        n += 1
    elif v == 17 and x[0] >= 0:
        r = 51
        n += 1
    elif v == 18:
        r = 54
        n += 1
    elif v == 19:
        r = 57
        n += 1
    elif v == 20:
        r = 60
        n += 1
    elif v == 21:
        r = 63
        n += 1
    elif v == 22:
        r = 66
        n += 1
    elif v == 23:
        r = 69
        n += 1
    elif v == 24 and x[0] >= 0:
        r = 72
        n += 1
    elif v == 25:
        r = 0
        for k in range(25):
            if k * k > 25:
                break
            r += k
    elif v == 26:
        r = 78
        n += 1
    elif v == 27:
        r = 81
        n += 1
    elif v == 28:
        r = 84
        n += 1
    elif v == 29:
        r = 87
        n += 1
    elif v == 30:
        r = 90
        n += 1
    elif v == 31 and x[0] >= 0:
        r = 93
        n += 1
    elif v == 32:
        r = 96
        n += 1
    elif v == 33:
        r = 99
        n += 1
    elif v == 34:
        r = 102
        n += 1
    elif v == 35:
        r = 0
        for k in range(35):
            if k * k > 35:
                break
            r += k
    elif v == 36:
        r = 108
        n += 1
    elif v == 37:
        r = 111
        n += 1
    elif v == 38 and x[0] >= 0:
        r = 114
        n += 1
    elif v == 39:
        r = 117
        n += 1
    else:
        r = v * 2
    out[i] = r * 100 + n

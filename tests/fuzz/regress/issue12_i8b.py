from spirthon import Array, func, i32, kernel
@func
def f(n: i32) -> int:
    return 7
@kernel
def k(steps: i32, iout: Array[i32]):
    fuel = steps
    tries = steps
    while tries > 0 and f(tries) == 3:
        if fuel:
            break
    else:
        fuel = 13
    iout[0] = fuel

"""A local array used as a stack overflows in a func for the invocations that push too much."""
from spirthon import Array, func, global_id, i32, kernel, local_array

DEPTH = 4


@func
def push(stack: Array[i32], top: i32, v: i32) -> i32:
    stack[top] = v
    return top + 1


@kernel
def digits(x: Array[i32], out: Array[i32]):
    i = global_id().x
    stack = local_array(i32, DEPTH)
    top = 0
    n = x[i]
    while n > 0:
        top = push(stack, top, n % 10)
        n //= 10
    s = 0
    while top > 0:
        top -= 1
        s = s * 10 + stack[top]
    out[i] = s

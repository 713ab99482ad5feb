"""Writes cases.rs: CPython's results for every folded binary operator at the sign and
overflow edges, which the folding tests (tests.rs) compare against.

    python3 cases.py > cases.rs
"""
import math
import struct


def wrap(v):
    return (v + 2**31) % 2**32 - 2**31


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def bits(x):
    return struct.unpack("I", struct.pack("f", x))[0]


INTS = [-2**31, -2**31 + 1, -7, -1, 0, 1, 7, 2**31 - 1]
UINTS = [0, 1, 7, 2**31, 2**32 - 1]
FLOATS = [-0.0, 0.0, 1.5, -7.0, f32(0.1), f32(3e38), f32(-3e38), f32(1e-45)]
INT_OPS = {
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "FloorDiv": lambda a, b: a // b,
    "Mod": lambda a, b: a % b,
    "BitAnd": lambda a, b: a & b,
    "BitOr": lambda a, b: a | b,
    "BitXor": lambda a, b: a ^ b,
}
FLOAT_OPS = {
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "Div": lambda a, b: a / b,
    "FloorDiv": lambda a, b: a // b,
    "Mod": lambda a, b: a % b,
}
DIVIDES = ("Div", "FloorDiv", "Mod")

print("// Written by cases.py from CPython's arithmetic; do not edit.")
print("")
print("/// `(op, a, b, CPython's a op b wrapped to i32)`.")
print("pub const I32_CASES: &[(BinOp, i32, i32, i32)] = &[")
for name, fn in INT_OPS.items():
    for a in INTS:
        for b in INTS:
            if not (name in DIVIDES and b == 0):
                print(f"    ({name}, {a}, {b}, {wrap(fn(a, b))}),")
for a in INTS:
    for b in [0, 1, 7, 31]:
        print(f"    (Shl, {a}, {b}, {wrap(a << b)}),")
        print(f"    (Shr, {a}, {b}, {wrap(a >> b)}),")
print("];")
print("")
print("/// `(op, a, b, CPython's a op b modulo 2**32)`.")
print("pub const U32_CASES: &[(BinOp, u32, u32, u32)] = &[")
for name, fn in INT_OPS.items():
    for a in UINTS:
        for b in UINTS:
            if not (name in DIVIDES and b == 0):
                print(f"    ({name}, {a}, {b}, {fn(a, b) % 2**32}),")
print("];")
print("")
print("/// `(op, a, b, CPython's a op b rounded to f32)` as bit patterns.")
print("pub const F32_CASES: &[(BinOp, u32, u32, u32)] = &[")
for name, fn in FLOAT_OPS.items():
    for a in FLOATS:
        for b in FLOATS:
            if name in DIVIDES and b == 0:
                continue
            r = fn(a, b)
            r32 = f32(r) if abs(r) < 3.4028235e38 else math.copysign(math.inf, r)
            print(f"    ({name}, {bits(a):#010x}, {bits(b):#010x}, {bits(r32):#010x}), // {a!r} {name} {b!r}")
print("];")

"""Random kernels for the differential fuzz test (tests/gpu.rs).

    python3 gen_kernel.py SEED OUT_DIR

writes OUT_DIR/kSEED.py and OUT_DIR/kSEED.inputs.json, a kernel of one of nine kinds by
SEED mod 9 (the reference executor computes in the kernel's types, so every kind must agree
with the GPU: ints exactly, floats within a few ULPs):
0 expressions on i32 (// and % with both signs, shifts, and/or values, chained comparisons,
conditional expressions); 1 control flow (nested if/elif/else, for and while with break,
continue and else, while conditions that branch themselves, variables assigned before every
break and in a loop's else, ranges whose counters would wrap past 2**31, early returns); 2 f32, u32 and bool values mixed, annotated constants,
funcs over arrays, tuple assignment and mixed-type and/or tests; 3 vectors: ivec2/ivec4
expressions (element-wise // and % with both signs, bitwise operators, broadcasting,
swizzles, constructors, component and index assignment, dot, min/max/clamp, ==) and vec2
+ - * with mix, abs and length (a third of them in dvec2, `in_f64`), or, a third of the time,
the same in another width (`i8vec4` … `u64vec4` wrapping per component, and `f16vec4`
rounding: `width_vector_kernel`); 4 f32 arithmetic on inputs that are not binary-exact, with
literals and constants meeting f32 values and thresholds into ints, a third of them in f64
(`float_kernel`); 5 u32
and i32 hashing that overflows 32 bits, a narrow int type (i8 u8 i16 u16) wrapping beside it, random
streams, subgroup operations and prints with format specs (`hash_kernel`); 6 matrices (`matrix_kernel`; a third of them dmat33); 7 structs of every field kind in an
`Array[S]` (`struct_kernel`); 8 early returns before barriers: guards, returns in loops with
and without barriers, rounds of shared atomics, a func that takes a barrier
(`barrier_kernel`). Every kind sometimes spells array
elements `int`/`float` and indexes by a `u32` (`spellings`).
"""

import json
import os
import random
import re
import sys


def expression_kernel(rnd):
    def expr(d, vs):
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(vs) if rnd.random() < 0.6 else str(rnd.randint(-9, 9))
        k = rnd.random()
        a, b = expr(d - 1, vs), expr(d - 1, vs)
        if k < 0.45:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "&", "|", "^"]), b)
        if k < 0.6:
            op = rnd.choice(["//", "%"])
            if rnd.random() < 0.5:
                return "(%s %s (abs(%s) + 1))" % (a, op, b)
            return "(%s %s (-abs(%s) - 1))" % (a, op, b)
        if k < 0.65:
            # Counts past 31 too: Python shifts every bit out, SPIR-V leaves it undefined.
            return "(%s %s (abs(%s) %% %d))" % (a, rnd.choice([">>", "<<"]), b, rnd.choice([5, 70]))
        if k < 0.72:
            return "(%s if %s %s %s else %s)" % (a, a, rnd.choice(["<", "<=", ">", ">=", "==", "!="]), b, b)
        if k < 0.8:
            return "(%s %s %s)" % (a, rnd.choice(["and", "or"]), b)
        if k < 0.85:
            return "min(%s, %s)" % (a, b) if rnd.random() < 0.5 else "max(%s, %s, 3)" % (a, b)
        if k < 0.9:
            return "(-%s)" % a
        if k < 0.95:
            return "int(%s < %s < %s)" % (a, b, expr(d - 1, vs))
        return "(~%s)" % a

    vs = ["a[i]", "b[i]"]
    body = ["    x = %s" % expr(3, vs)]
    vs.append("x")
    body.append("    y = %s" % expr(3, vs))
    vs.append("y")
    body += [
        "    if %s > %s:" % (expr(2, vs), expr(2, vs)),
        "        x = %s" % expr(2, vs),
        "    for j in range(abs(y) % 4):",
        "        x += %s" % expr(2, vs + ["j"]),
        "    out[i] = %s" % expr(3, vs),
    ]
    return body


# Values of control-flow kernels stay within this bound after every update: expressions of
# depth 2 over such values stay below 2**24.
BOUND = 1 << 20


def control_flow_kernel(rnd):
    names = ["x", "y", "z"]

    def expr(d, vs):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(vs + [str(rnd.randint(-5, 9))])
        a, b = expr(d - 1, vs), expr(d - 1, vs)
        k = rnd.random()
        if k < 0.06:
            # An assignment expression: `w` takes the (bounded) value wherever Python
            # evaluates it, and the expression is that value.
            return "(w := min(max(%s, -%d), %d))" % (a, BOUND, BOUND)
        if k < 0.5:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "^", "&", "|"]), b)
        if k < 0.65:
            return "(%s %s (abs(%s) %% 7 + 1))" % (a, rnd.choice(["//", "%"]), b)
        if k < 0.75:
            return "(%s %s %s)" % (a, rnd.choice(["and", "or"]), b)
        if k < 0.85:
            return "(%s if %s %s %s else %s)" % (a, a, rnd.choice(["<", ">=", "!="]), b, b)
        return "min(max(%s, -1000), 1000)" % a

    def cond(vs):
        return "%s %s %s" % (expr(1, vs), rnd.choice(["<", "<=", ">", ">=", "==", "!="]), expr(1, vs))

    def branching_cond(vs, c):
        """A loop condition that is control flow itself: a conditional expression in a test,
        `and`/`or` over array loads, a chained comparison with a load, `not` of either."""
        load = "a[(i + %s) %% len(a)]" % c
        return rnd.choice([
            "(%s if %s else %s)" % (cond(vs), cond(vs), cond(vs)),
            "(%s > %d or %s)" % (load, rnd.randint(-20, 20), cond(vs)),
            "%d < %s < %d" % (rnd.randint(-40, 0), load, rnd.randint(0, 40)),
            "not (%s > %d if %s else %s < %d)" % (c, rnd.randint(1, 3), cond(vs), c, rnd.randint(1, 4)),
            "(%s and (%s if %s else %s))" % (cond(vs), cond(vs), cond(vs), cond(vs)),
        ])

    def limit_range(vs):
        """A range whose counter would pass i32's limit if it wrapped."""
        step = rnd.choice([2, 3, 5, 7, 1000000000])
        k = rnd.random()
        if k < 0.4:
            return "range(%d, %d, %d)" % (2**31 - 1 - rnd.randint(5, 40), 2**31 - 1 - rnd.randint(0, 4), step)
        if k < 0.7:
            return "range(%d, %d, %d)" % (-(2**31) + rnd.randint(5, 40), -(2**31) + rnd.randint(0, 4), -step)
        return "range(2147483600 + abs(%s) %% 40, 2147483647, abs(%s) %% 5 + 2)" % (rnd.choice(vs), rnd.choice(vs))

    def loop_else(d, ind, vs):
        """A variable assigned before a loop's every `break` and in its `else` (or the
        `else` continues an enclosing loop), then used: assigned on every path to the use."""
        p = "    " * ind
        m, c, o = "m%d" % d, "c%d" % d, "o%d" % d
        out = [p + "for %s in range(%d):" % (o, rnd.randint(1, 3))]
        if rnd.random() < 0.5:
            out.append(p + "    %s = 0" % c)
            out.append(p + "    while %s < %d and %s:" % (c, rnd.randint(1, 4), branching_cond(vs, c)))
            out.append(p + "        %s += 1" % c)
        else:
            out.append(p + "    for %s in range(%d):" % (c, rnd.randint(0, 4)))
        out.append(p + "        if %s:" % cond(vs + [c]))
        out.append(p + "            %s = %s" % (m, expr(2, vs + [c])))
        out.append(p + "            break")
        out.append(p + "    else:")
        if rnd.random() < 0.5:
            out.append(p + "        continue")
        else:
            out.append(p + "        %s = %s" % (m, expr(2, vs)))
        name = rnd.choice(names)
        out.append(p + "    %s = min(max(%s + %s, -%d), %d)" % (name, name, m, BOUND, BOUND))
        return out

    def block(d, ind, vs, in_loop):
        out = []
        for _ in range(rnd.randint(1, 3)):
            k = rnd.random()
            p = "    " * ind
            if d > 0 and rnd.random() < 0.1:
                # `match` over a bounded int: literals, alternatives, a guarded capture
                # (bound before its guard runs) and a default, tried in order.
                m = "m%d" % d
                out.append(p + "match %s %% 5 - 2:" % expr(1, vs))
                out.append(p + "    case %d:" % rnd.randint(-2, 2))
                out += block(d - 1, ind + 2, vs, in_loop)
                out.append(p + "    case %d | %d:" % (rnd.randint(-2, 0), rnd.randint(1, 2)))
                out += block(d - 1, ind + 2, vs, in_loop)
                out.append(p + "    case %s if %s > %d:" % (m, m, rnd.randint(-2, 1)))
                out += block(d - 1, ind + 2, vs + [m], in_loop)
                if rnd.random() < 0.6:
                    out.append(p + "    case _:")
                    out += block(d - 1, ind + 2, vs, in_loop)
                continue
            if d > 0 and k < 0.2:
                out.append(p + "if %s:" % cond(vs))
                out += block(d - 1, ind + 1, vs, in_loop)
                if rnd.random() < 0.5:
                    out.append(p + "elif %s:" % cond(vs))
                    out += block(d - 1, ind + 1, vs, in_loop)
                if rnd.random() < 0.5:
                    out.append(p + "else:")
                    out += block(d - 1, ind + 1, vs, in_loop)
            elif d > 0 and k < 0.35:
                j = "j%d" % d
                step = rnd.choice(["", ", 2", ", -1"])
                out.append(p + "for %s in range(%s, %s%s):" % (j, rnd.randint(-2, 2), rnd.randint(0, 6), step))
                out += block(d - 1, ind + 1, vs + [j], True)
                if rnd.random() < 0.4:
                    out.append(p + "else:")
                    out += block(d - 1, ind + 1, vs, in_loop)
            elif d > 0 and k < 0.45:
                c = "c%d" % d
                out.append(p + "%s = 0" % c)
                test = branching_cond(vs, c) if rnd.random() < 0.5 else cond(vs)
                out.append(p + "while %s < %d and %s:" % (c, rnd.randint(1, 5), test))
                out.append(p + "    %s += 1" % c)
                out += block(d - 1, ind + 1, vs + [c], True)
                if rnd.random() < 0.4:
                    out.append(p + "else:")
                    out += block(d - 1, ind + 1, vs, in_loop)
            elif d > 0 and k < 0.49 and rnd.random() < 0.5:
                out += loop_else(d, ind, vs)
            elif d > 0 and k < 0.49:
                j = "r%d" % d
                out.append(p + "for %s in %s:" % (j, limit_range(vs)))
                out.append(p + "    z = min(max(z + %s %% 7, -%d), %d)" % (j, BOUND, BOUND))
            elif in_loop and k < 0.52:
                out.append(p + "if %s:" % cond(vs))
                out.append(p + "    " + rnd.choice(["break", "continue"]))
            elif k < 0.56:
                out.append(p + "if %s:" % cond(vs))
                out.append(p + "    out[i] = %s" % expr(2, vs))
                out.append(p + "    return")
            else:
                # A value fed back through a loop can double each trip: bound it after
                # each update so it never reaches 32 bits (where the GPU wraps and CPython
                # does not).
                name = rnd.choice(names)
                if k < 0.8:
                    out.append(p + "%s = %s" % (name, expr(2, vs)))
                else:
                    out.append(p + "%s %s= %s" % (name, rnd.choice(["+", "-", "^"]), expr(2, vs)))
                out.append(p + "%s = min(max(%s, -%d), %d)" % (name, name, BOUND, BOUND))
        return out

    return (["    x = a[i]", "    y = b[i]", "    z = 0", "    w = 0"] + block(3, 1, list(names) + ["w"], False)
            + ["    out[i] = x * 3 + y * 5 + z + w * 7"])


def mixed_kernel(rnd):
    """f32, u32 and bool values, annotated module constants, a func that reads an array,
    tuple assignment, and/or of mixed types in tests, nested loops. Floats stay small and
    away from cancellation, u32 values are only combined by bit operations, `+` of small
    values and shifts, so CPython and the GPU agree within the float tolerance."""
    consts = {
        "SCALE": "%s: f32 = %s" % ("SCALE", rnd.choice(["0.5", "0.25", "1.5", "2.0"])),
        "BIAS": "BIAS = %d" % rnd.randint(-3, 3),
        "MASK": "MASK: u32 = 0x%X" % rnd.choice([0xFF, 0xF0F, 0x7FFF]),
        "STEPS": "STEPS: i32 = %d" % rnd.randint(1, 4),
    }

    def fexpr(d, vs):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(vs + ["SCALE", "%.2f" % rnd.uniform(-2, 2)])
        a, b = fexpr(d - 1, vs), fexpr(d - 1, vs)
        k = rnd.random()
        if k < 0.45:
            return "(%s %s %s)" % (a, rnd.choice(["+", "*"]), b)
        if k < 0.6:
            return "%s(%s, %s)" % (rnd.choice(["min", "max"]), a, b)
        if k < 0.7:
            return "abs(%s)" % a
        if k < 0.8:
            return "float(%s)" % iexpr(1)
        if k < 0.9:
            return "(%s if %s else %s)" % (a, bexpr(1, vs), b)
        return "clampf(%s)" % a

    def iexpr(d):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(["n", "BIAS", "STEPS", str(rnd.randint(-4, 6))])
        a, b = iexpr(d - 1), iexpr(d - 1)
        if rnd.random() < 0.5:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*"]), b)
        return "(%s %s (abs(%s) + 1))" % (a, rnd.choice(["//", "%"]), b)

    def uexpr(d):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(["u", "MASK", "u32(%d)" % rnd.randint(0, 300)])
        a, b = uexpr(d - 1), uexpr(d - 1)
        k = rnd.random()
        if k < 0.6:
            return "(%s %s %s)" % (a, rnd.choice(["&", "|", "^"]), b)
        if k < 0.8:
            return "((%s & 0xFFF) + (%s & 0xFFF))" % (a, b)
        return "(%s >> %d)" % (a, rnd.randint(0, 8))

    def bexpr(d, vs):
        k = rnd.random()
        if d == 0 or k < 0.4:
            return "%s %s %s" % (fexpr(1, vs), rnd.choice(["<", ">", ">="]), fexpr(1, vs))
        if k < 0.6:
            return "(%s %s %s)" % (bexpr(d - 1, vs), rnd.choice(["and", "or"]), bexpr(d - 1, vs))
        if k < 0.75:
            # Mixed types: only truth matters in a test.
            return "(%s %s %s)" % (iexpr(1), rnd.choice(["and", "or"]), fexpr(1, vs))
        if k < 0.85 or not state["flag"]:
            return "not %s" % bexpr(d - 1, vs)
        return "flag"

    state = {"flag": False}

    body = [
        "    f = x[i] * SCALE",
        "    g = x[(i + 1) %% len(x)] - %s" % rnd.choice(["0.5", "1.0"]),
        "    n = i % 7 + BIAS",
        "    u = bits[i] & MASK",
        "    flag = %s %s %s" % (fexpr(1, ["f", "g"]), rnd.choice(["<", ">="]), fexpr(1, ["f", "g"])),
    ]
    state["flag"] = True
    vs = ["f", "g"]
    if rnd.random() < 0.5:
        body.append("    f, g = g, f")
    for depth in range(rnd.randint(1, 2)):
        p = "    " * (depth + 1)
        body.append(p + "for j%d in range(STEPS):" % depth)
        body.append(p + "    if %s:" % bexpr(2, vs))
        body.append(p + "        f = clampf(%s)" % fexpr(2, vs))
        body.append(p + "    elif %s:" % bexpr(1, vs))
        body.append(p + "        u = %s" % uexpr(2))
        if rnd.random() < 0.4:
            body.append(p + "        break")
        body.append(p + "    else:")
        body.append(p + "        g = clampf(%s)" % fexpr(2, vs))
        body.append(p + "        n = %s" % iexpr(2))
    body += [
        "    if flag or %s:" % bexpr(1, vs),
        "        u = u ^ u32(n & 0xFF)",
        "    y[i] = weigh(x, i, %s)" % fexpr(2, vs),
        "    out[i] = n * 2 + int(flag)",
        "    bits[i] = %s" % uexpr(2),
    ]
    head = [
        "from spirthon import kernel, func, Array, f32, i32, u32, global_id",
        "",
    ] + list(consts.values()) + [
        "",
        "",
        "@func",
        "def clampf(v: f32) -> f32:",
        "    return min(max(v, -4.0), 4.0)",
        "",
        "",
        "@func",
        "def weigh(x: Array[f32], i: i32, w: f32) -> f32:",
        "    acc = 0.0",
        "    for k in range(3):",
        "        acc += x[(i + k) % len(x)] * clampf(w)",
        "    return acc",
        "",
        "",
        "@kernel",
        "def k(x: Array[f32], y: Array[f32], bits: Array[u32], out: Array[i32]):",
        "    i = global_id().x",
    ]
    return "\n".join(head + body) + "\n"


def float_kernel(rnd):
    """f32 arithmetic on inputs that are not binary-exact: literals and module constants
    (plain and annotated) meeting f32 values, + - * / // %, ** with literal exponents,
    min/max/abs, conversions (int, round, float of ints, i32 to f32 in a func), locals
    started from literals and carried through loops, thresholds against constants written
    to an int array. The reference executor computes in float32 as the GPU does, so the
    results agree to a few ULPs (tests/gpu.rs). One in three is in f64 instead: arrays,
    annotated constant and func, where constant tables (of f32) become literals."""
    wide = rnd.random() < 0.35
    ft = "f64" if wide else "f32"
    consts = [
        "LIMIT = %s" % rnd.choice(["0.02", "0.1", "0.37", "1.3"]),
        "GAIN: %s = %s" % (ft, rnd.choice(["0.1", "0.3", "1.7", "2.2"])),
        "SHIFT = %s" % rnd.choice(["1e-3", "0.7", "3.3"]),
        "ROUNDS = %d" % rnd.randint(1, 4),
    ]
    # Constant tables: a list or a tuple of numbers, and of rows (tuples or lists), read at a
    # run-time index and a row's item at a constant one.
    taps = ", ".join(rnd.choice(["0.25", "0.5", "1.0 / 3.0", "-0.75", "2"]) for _ in range(3))
    consts.append("TAPS = " + (rnd.choice(["[%s]", "(%s,)"]) % taps))
    row = rnd.choice(["(%s, %s)", "[%s, %s]"])
    # Each column holds a float, so that an item is an f32 (a column of ints is an i32,
    # which does not meet an f32 in an if-else).
    rows = ", ".join(row % (rnd.choice(["0.1", "-1.5", "3.0"]), rnd.choice(["2.5", "-0.3", "1.0"])) for _ in range(2))
    consts.append("OFFS = " + (rnd.choice(["[%s]", "(%s,)"]) % rows))

    def leaf(vs):
        k = rnd.random()
        if k < 0.55:
            return rnd.choice(vs)
        if k < 0.75:
            tables = [] if wide else ["TAPS[i % 3]", "OFFS[i % 2][1]", "OFFS[i % 2][-2]"]
            return rnd.choice(["LIMIT", "GAIN", "SHIFT"] + tables)
        return rnd.choice(["%.3f", "%.1f", "%.5f"]) % rnd.uniform(-3, 3)

    def fexpr(d, vs, powers=True):
        if d == 0 or rnd.random() < 0.25:
            return leaf(vs)
        a, b = fexpr(d - 1, vs, powers), fexpr(d - 1, vs, powers)
        k = rnd.random()
        if k < 0.35:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*"]), b)
        if k < 0.45:
            return "(%s / (abs(%s) + 0.5))" % (a, b)
        if k < 0.55:
            return "(%s %s (abs(%s) + 0.25))" % (a, rnd.choice(["//", "%"]), b)
        if k < 0.62 and powers:
            return "(%s ** %d)" % (a, rnd.choice([2, 3]))
        if k < 0.62:
            return "(%s * %s)" % (a, b)
        if k < 0.72:
            return "%s(%s, %s)" % (rnd.choice(["min", "max"]), a, b)
        if k < 0.78:
            return "abs(%s)" % a
        if k < 0.86:
            return "%s(%s)" % ("f64" if wide else "float", iexpr(1, vs))
        if k < 0.93:
            # Two literals on their own would make an f32 value: an f64 kernel converts.
            pick = "(f64(%s) if %s %s %s else f64(%s))" if wide else "(%s if %s %s %s else %s)"
            return pick % (a, a, rnd.choice(["<", ">="]), leaf(vs), b)
        return "scaled(%s, %s)" % (iexpr(1, vs), a)

    def iexpr(d, vs):
        if d == 0 or rnd.random() < 0.4:
            return rnd.choice(["i", "n", str(rnd.randint(-5, 9))])
        k = rnd.random()
        # Held inside ±1e6: a float out of i32's range converts to whatever the device gives.
        if k < 0.4:
            return "int(max(min(%s, 1e6), -1e6))" % fexpr(1, vs)
        if k < 0.7:
            return "round(max(min(%s, 1e6), -1e6))" % fexpr(1, vs)
        return "(%s %s %s)" % (iexpr(d - 1, vs), rnd.choice(["+", "-", "*"]), iexpr(d - 1, vs))

    vs = ["a", "b"]
    body = [
        "    a = x[i] * GAIN",
        "    b = x[(i + 7) % len(x)] - SHIFT",
        "    n = i % 5",
        "    t%s = %s" % (": f64" if wide else "", rnd.choice(["0.5", "0.1", "1.0", "LIMIT"])),
        "    c%s = %s" % (": f64" if wide else "", fexpr(3, vs)),
    ]
    vs = vs + ["c", "t"]
    body.append("    for r in range(ROUNDS):")
    body.append("        t = %s" % fexpr(2, vs, powers=False))
    body.append("        if %s %s %s:" % (fexpr(1, vs), rnd.choice(["<", ">"]), leaf(vs)))
    body.append("            a = a * %s + %s" % (leaf(vs), leaf(vs)))
    body.append("        else:")
    # No powers in a value carried round the loop: cubing three times multiplies a
    # one-ulp difference of the device's (lavapipe folds `2.678 - (x - 0.7)` into
    # `3.378 - x`, NoContraction or not) by 27.
    body.append("            b = %s" % fexpr(2, vs, powers=False))
    body.append("        t = max(min(t, 1000.0), -1000.0)")
    body.append("        a = max(min(a, 1000.0), -1000.0)")
    body.append("        b = max(min(b, 1000.0), -1000.0)")
    body += [
        "    y[i] = %s" % fexpr(3, vs),
        "    z[i] = t + a * b",
        "    out[i] = (1 if x[i] < LIMIT else 0) + 2 * (1 if c >= %s else 0) + 4 * %s" % (leaf(vs), "int(t > GAIN)"),
        "    out2[i] = %s" % iexpr(2, vs),
    ]
    head = [
        "from spirthon import kernel, func, Array, f32, f64, i32, global_id",
        "",
    ] + consts + [
        "",
        "",
        "@func",
        "def scaled(k: i32, v: %s) -> %s:" % (ft, ft),
        "    s: %s = k" % ft,
        "    return max(min(s * v + 0.1, 1000.0), -1000.0)",
        "",
        "",
        "@kernel",
        "def k(x: Array[%s], y: Array[%s], z: Array[%s], out: Array[i32], out2: Array[i32]):" % (ft, ft, ft),
        "    i = global_id().x",
    ]
    return "\n".join(head + body) + "\n"


def hash_kernel(rnd):
    """u32 and i32 values that overflow 32 bits: linear congruential and PCG steps in
    `-> u32` funcs and in locals started from literals, xorshifts, multiplications past
    2**32, literals past 2**31, i32 products that wrap, conversions both ways, `//` and `%`;
    and one narrow int type (i8 u8 i16 u16) computed in a local carried through the loop and
    stored packed into `small`; and u64/i64 locals (64-bit multiplicative hashes, shifts of
    any count, floored `//` and `%`, conversions from and to the 32-bit values) stored into
    `wide` and `longs`; half of them mix in the words of a random stream seeded from the
    hash, half the results of subgroup operations. CPython must wrap exactly as the GPU
    does."""
    mults = ["1664525", "747796405", "0x9E3779B9", "277803737", "2654435761", "16777619"]
    nt = rnd.choice(["i8", "u8", "i16", "u16"])
    bits = int(nt[1:])
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if nt[0] == "i" else (0, 2 ** bits - 1)

    def nexpr(d):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(["q", "%s(h)" % nt, "%s(i)" % nt, "%s(s)" % nt, "%s(%d)" % (nt, rnd.randint(lo, hi))])
        a, b = nexpr(d - 1), nexpr(d - 1)
        k = rnd.random()
        if k < 0.4:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "^", "&", "|"]), b)
        if k < 0.55:
            return "(%s %s %d)" % (a, rnd.choice(["+", "-", "*"]), rnd.randint(0, min(hi, 100)))
        if k < 0.65:
            return "(%s %s %d)" % (a, rnd.choice([">>", "<<"]), rnd.randint(0, bits + 2))
        if k < 0.8:
            return "(%s %s (%s | %s(1)))" % (a, rnd.choice(["//", "%"]), b, nt)
        if k < 0.9:
            return "(~%s)" % a
        return "abs(%s)" % a if nt[0] == "i" else "(%s ** 2)" % a

    def wexpr(d):
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(["w", "u64(h)", "u64(i)", "u64(s)", "u64(0x%X)" % rnd.randint(0, 2**64 - 1)])
        a, b = wexpr(d - 1), wexpr(d - 1)
        k = rnd.random()
        if k < 0.25:
            return "(%s * %s)" % (a, rnd.choice(["6364136223846793005", "0x100000001b3", "0x9E3779B97F4A7C15"]))
        if k < 0.45:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "^", "&", "|"]), b)
        if k < 0.55:
            return "(%s %s %d)" % (a, rnd.choice([">>", "<<"]), rnd.randint(0, 70))
        if k < 0.62:
            return "(%s %s (h %% 80))" % (a, rnd.choice([">>", "<<"]))
        if k < 0.72:
            return "(%s %s (%s | 1))" % (a, rnd.choice(["//", "%"]), b)
        if k < 0.85:
            return "u64(%s)" % lexpr(d - 1)
        return "(~%s)" % a

    def lexpr(d):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(["l", "i64(s)", "i64(i)", "i64(%d)" % rnd.randint(-2**63, 2**63 - 1)])
        a, b = lexpr(d - 1), lexpr(d - 1)
        k = rnd.random()
        if k < 0.4:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "^"]), b)
        if k < 0.55:
            return "(%s * %d)" % (a, rnd.choice([1000003, -31, 2**33 + 7, -(2**40)]))
        if k < 0.65:
            return "(%s %s %d)" % (a, rnd.choice([">>", "<<"]), rnd.randint(0, 66))
        if k < 0.8:
            return "(%s %s (abs(%s) + 1))" % (a, rnd.choice(["//", "%"]), b)
        if k < 0.9:
            return "i64(%s)" % wexpr(d - 1)
        return "max(%s, %s)" % (a, b) if rnd.random() < 0.5 else "min(%s, -%s)" % (a, b)

    def uexpr(d, vs):
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(vs + ["u32(%d)" % rnd.randint(0, 2**31), "u32(0x%X)" % rnd.randint(2**31, 2**32 - 1)])
        a, b = uexpr(d - 1, vs), uexpr(d - 1, vs)
        k = rnd.random()
        if k < 0.25:
            return "(%s * %s)" % (a, rnd.choice(mults))
        if k < 0.45:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "^", "&", "|"]), b)
        if k < 0.55:
            return "(%s %s %d)" % (a, rnd.choice([">>", "<<"]), rnd.randint(0, 31))
        if k < 0.6:
            return "(%s %s (%s %% 70))" % (a, rnd.choice([">>", "<<"]), b)
        if k < 0.7:
            return "(%s %s (%s | 1))" % (a, rnd.choice(["//", "%"]), b)
        if k < 0.8:
            return "%s(%s)" % (rnd.choice(["lcg", "pcg", "xorshift"]), a)
        if k < 0.9:
            return "u32(%s)" % iexpr(1, vs)
        return "(~%s)" % a

    def iexpr(d, vs):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(["i", "s", "i32(%d)" % rnd.randint(-100000, 100000)])
        a, b = iexpr(d - 1, vs), iexpr(d - 1, vs)
        k = rnd.random()
        if k < 0.5:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*"]), b)
        if k < 0.7:
            return "(%s * %d)" % (a, rnd.choice([1000003, 65599, -31, 2**20 + 7]))
        if k < 0.85:
            return "i32(%s)" % uexpr(1, vs)
        return "(%s %s (abs(%s) + 1))" % (a, rnd.choice(["//", "%"]), b)

    vs = ["h", "v"]
    body = [
        "    h = seeds[i]",
        "    v = %s" % rnd.choice(["u32(12345)", "0x811C9DC5", "u32(i)", "2166136261"]),
        "    s = %d" % rnd.randint(-50, 50),
        "    q = %s(%d)" % (nt, rnd.randint(lo, hi)),
        "    w = u64(h) * 0x9E3779B97F4A7C15",
        "    l = i64(%d)" % rnd.randint(-2**63, 2**63 - 1),
        "    for r in range(%d):" % rnd.randint(1, 5),
        "        v = %s" % uexpr(2, vs),
        "        h = %s" % uexpr(2, vs),
        "        s = %s" % iexpr(2, vs),
        "        q = %s" % nexpr(2),
        "        w = %s" % wexpr(2),
        "        l = %s" % lexpr(2),
    ]
    extra = []
    if rnd.random() < 0.5:
        # A random stream seeded from the hash, its words mixed in.
        extra.append("rand_init, randu, randi")
        body += [
            "    rng = rand_init(%s, i)" % rnd.choice(["i32(h)", "h", "s"]),
            "    h = h ^ randu(rng)",
            "    s = s + randi(rng, %d, %d)" % (rnd.randint(-60, 0), rnd.randint(1, 60)),
        ]
    if rnd.random() < 0.5:
        # Subgroup operations in uniform control flow (the device's subgroup size: the
        # reference executor is given it).
        extra.append("subgroup_add, subgroup_xor, subgroup_shuffle_xor, subgroup_inclusive_add")
        body += [
            "    s = s + subgroup_add(i32(h & u32(255)))",
            "    v = v ^ subgroup_shuffle_xor(v, %d) ^ subgroup_xor(h)" % rnd.randint(0, 9),
            "    s = s - subgroup_inclusive_add(s %% %d)" % rnd.randint(2, 9),
        ]
    body += [
        "    out[i] = %s" % uexpr(3, vs),
        "    wide[i] = %s" % wexpr(3),
        "    longs[i] = %s" % lexpr(3),
        "    ints[i] = %s" % iexpr(3, vs),
        "    small[i] = %s" % nexpr(3),
    ]
    if rnd.random() < 0.5:
        # Some invocations print their values with random format specs: the GPU must print
        # what CPython prints, in its order.
        specs = ["", "x", "#x", "08X", "+d", ",", "_x", ">12", "^9", "*<10", "#b", "o",
                 ".3e", ".2f", "%", "g", "=+8", "_b", "#012_o", " d"]
        fields = " ".join("%s={%s:%s}" % (n, n, rnd.choice(specs)) for n in ("h", "s", "q", "w", "l"))
        body += [
            "    if i %% %d == %d:" % (rnd.randint(1, 5), 0),
            "        print(f%r, sep=%r)" % (fields, rnd.choice([" ", ", "])),
        ]
    head = [
        "from spirthon import kernel, func, Array, i32, u32, i8, u8, i16, u16, i64, u64, global_id%s"
        % "".join(", " + e for e in extra),
        "",
        "",
        "@func",
        "def lcg(x: u32) -> u32:",
        "    return x * 1664525 + 1013904223",
        "",
        "",
        "@func",
        "def pcg(v: u32) -> u32:",
        "    state = v * 747796405 + 2891336453",
        "    word = ((state >> ((state >> 28) + 4)) ^ state) * 277803737",
        "    return (word >> 22) ^ word",
        "",
        "",
        "@func",
        "def xorshift(x: u32) -> u32:",
        "    x ^= x << 13",
        "    x ^= x >> 17",
        "    x ^= x << 5",
        "    return x",
        "",
        "",
        "@kernel",
        "def k(seeds: Array[u32], out: Array[u32], ints: Array[i32], small: Array[%s], wide: Array[u64], longs: Array[i64]):" % nt,
        "    i = global_id().x",
    ]
    return "\n".join(head + body) + "\n"


def vector_kernel(rnd):
    def iv(d):
        """An ivec4 expression."""
        if d == 0 or rnd.random() < 0.2:
            return rnd.choice(["p", "q", "p.wzyx", "ivec4(q.xy, p.zw)", "ivec4(%d)" % rnd.randint(-9, 9),
                               "ivec4(p.x, %d, q.y, p.w)" % rnd.randint(-5, 5)])
        a, b = iv(d - 1), iv(d - 1)
        k = rnd.random()
        if k < 0.35:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "&", "|", "^"]), b)
        if k < 0.5:
            sign = rnd.choice(["", "-"])
            return "(%s %s (%sabs(%s) %s 1))" % (a, rnd.choice(["//", "%"]), sign, b, "-" if sign else "+")
        if k < 0.6:
            return "(%s %s %d)" % (a, rnd.choice(["+", "-", "*", "//", "%"]), rnd.choice([-3, -2, 2, 3, 7]))
        if k < 0.7:
            return "min(%s, %s)" % (a, b) if rnd.random() < 0.5 else "max(%s, %s)" % (a, b)
        if k < 0.78:
            return "clamp(%s, -20, 20)" % a
        if k < 0.86:
            return "(-%s)" % a
        if k < 0.93:
            return "(%s >> 1)" % a
        return "abs(%s)" % a

    def fv(d):
        """A vec2 expression on binary-exact values."""
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(["f", "g", "f.yx", "vec2(%s)" % rnd.choice(["0.5", "1.25", "-2.0"]), "vec2(g.x, 0.75)"])
        a, b = fv(d - 1), fv(d - 1)
        k = rnd.random()
        if k < 0.5:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*"]), b)
        if k < 0.65:
            return "mix(%s, %s, 0.5)" % (a, b)
        if k < 0.8:
            return "abs(%s)" % a
        return "(%s * %s)" % (a, rnd.choice(["2", "0.5", "-1.5"]))

    body = [
        "    p = a[i]",
        "    q = b[i]",
        "    f = vec2(p.xy) * 0.25",
        "    g = vec2(q.zw) * 0.5",
        "    r = ivec4(%s)" % iv(3),
        "    r.%s = %s" % (rnd.choice("xyzw"), rnd.choice(["p.x", "q.w * 2", "r.y - 1"])),
        "    r[%d] += %d" % (rnd.randint(-4, 3), rnd.randint(-9, 9)),
        # A run-time index in -4..3 (negative ones count from the end) and a local array.
        "    j = %s %% 4 - %d" % (rnd.choice(["p.x", "q.y", "r.z", "(p.w + q.x)"]), rnd.randint(0, 4)),
        "    r[j] %s= %s" % (rnd.choice(["+", "-", "*", ""]), rnd.choice(["q[j]", "p[3 - j % 4]", "r[-1 - j % 4]"])),
        "    s = local_array(i32, %d)" % rnd.choice([4, 8]),
        "    for m in range(len(s)):",
        "        s[m] = r[m %% 4] * (m + %d)" % rnd.randint(-2, 2),
        "    s[%s %% len(s)] -= p[j]" % rnd.choice(["q.z", "r.x", "j"]),
    ]
    if rnd.random() < 0.5:
        body.append("    if r == %s:" % iv(1))
        body.append("        r = ivec4(%s)" % iv(2))
    body += [
        "    out[i] = %s" % iv(3),
        "    red[i] = dot(r, %s) + r.x + s[%s %% len(s)]" % (iv(2), rnd.choice(["p.y", "j", "r.w"])),
        "    h = %s" % fv(3),
        "    fo[i] = vec4(h, length(%s), h.x)" % fv(2),
    ]
    head = [
        "from spirthon import kernel, Array, f32, i32, vec2, vec4, ivec4, global_id, dot, length, mix, clamp, local_array",
        "",
        "",
        "@kernel",
        "def k(a: Array[ivec4], b: Array[ivec4], out: Array[ivec4], red: Array[i32], fo: Array[vec4]):",
        "    i = global_id().x",
    ]
    return in_f64("\n".join(head + body) + "\n", rnd, ["vec2", "vec4"])


def width_vector_kernel(rnd):
    """Vectors of another width (``i8vec4 u8vec4 i16vec4 u16vec4 i64vec4 u64vec4``, and an
    ``f16vec4`` beside them): element-wise expressions that wrap at the width, per component
    as the scalar does, and halves that round after every operation. Returns the source
    and the range of the input arrays' components."""
    scalar = rnd.choice(["i8", "u8", "i16", "u16", "i64", "u64"])
    vt = scalar + "vec4"
    signed = scalar.startswith("i")

    def iv(d):
        if d == 0 or rnd.random() < 0.2:
            return rnd.choice(["p", "q", "p.wzyx", "%s(q.xy, p.zw)" % vt, "%s(%d)" % (vt, rnd.randint(0, 9)),
                               "%s(p.x, %d, q.y, p.w)" % (vt, rnd.randint(0, 5))])
        a, b = iv(d - 1), iv(d - 1)
        k = rnd.random()
        if k < 0.4:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*", "&", "|", "^"]), b)
        if k < 0.55:
            return "(%s %s (%s | %s(1)))" % (a, rnd.choice(["//", "%"]), b, vt)
        if k < 0.65:
            return "(%s %s %d)" % (a, rnd.choice(["+", "-", "*", "//", "%"]), rnd.choice([2, 3, 7]))
        if k < 0.75:
            return "min(%s, %s)" % (a, b) if rnd.random() < 0.5 else "max(%s, %s)" % (a, b)
        if k < 0.85:
            return "(%s >> %s(%d))" % (a, scalar, rnd.randint(0, 3))
        if k < 0.93 and signed:
            return "(-%s)" % a
        return "abs(%s)" % a if signed else "(~%s)" % a

    def hv(d):
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(["h", "f16vec4(%s)" % rnd.choice(["0.5", "1.25", "-2.0", "0.1"]), "h.wzyx"])
        a, b = hv(d - 1), hv(d - 1)
        return "(%s %s %s)" % (a, rnd.choice(["+", "-", "*"]), b) if rnd.random() < 0.7 else "abs(%s)" % a

    body = [
        "    p = a[i]",
        "    q = b[i]",
        "    r = %s(%s)" % (vt, iv(3)),
        "    r.%s = %s" % (rnd.choice("xyzw"), rnd.choice(["p.x", "q.w * %s(2)" % scalar, "r.y - %s(1)" % scalar])),
        "    r[%d] += %s(%d)" % (rnd.randint(-4, 3), scalar, rnd.randint(0, 9)),
        "    loc = local_array(%s, 2)" % vt,
        "    loc[i %% 2] = %s" % iv(2),
        "    if r == %s:" % iv(1),
        "        r = %s(%s)" % (vt, iv(2)),
        "    out[i] = r + loc[i % 2]",
        "    red[i] = r.x * r.y + r.z - r.w",
        "    h = f16vec4(vec4(ivec4(p)) * 0.25)",
        "    h = %s" % hv(3),
        "    fo[i] = vec4(h)",
    ]
    head = [
        "from spirthon import kernel, Array, f16vec4, vec4, ivec4, %s, %s, global_id, local_array" % (scalar, vt),
        "",
        "",
        "@kernel",
        "def k(a: Array[%s], b: Array[%s], out: Array[%s], red: Array[%s], fo: Array[vec4]):" % (vt, vt, vt, scalar),
        "    i = global_id().x",
    ]
    return "\n".join(head + body) + "\n", ((-40, 40) if signed else (0, 80))


def in_f64(src, rnd, names):
    """``src`` with its float vectors and matrices (``names``) and ``f32`` in double
    precision a third of the time: ``dvec2``, ``dmat33``, ``f64`` (the values are binary-exact
    either way, and `identity(n)` is converted)."""
    if rnd.random() >= 1 / 3:
        return src
    for name in names:
        src = re.sub(r"\b%s\b" % name, "d" + name, src)
    src = re.sub(r"\bf32\b", "f64", src)
    return re.sub(r"(?<![\w.])identity\(3\)", "dmat33(identity(3))", src)


def matrix_kernel(rnd):
    """Matrices and packed 3-vector arrays on quarter-integer values, small enough that every
    product and sum is exact in f32 (so a driver's reassociation cannot change a bit):
    products with `@` both ways, `transpose`, `outer`, `diag`, `identity`, entries and rows
    read and assigned at run-time indices, and `determinant`."""
    def mexpr(d):
        if d == 0 or rnd.random() < 0.25:
            return rnd.choice(["m", "transpose(m)", "identity(3)", "outer(p, p)", "diag(p)",
                               "mat33(p, p * 2.0, vec3(1.0))", "mat33(%s)" % ", ".join(
                                   str(rnd.randint(-4, 4) / 4) for _ in range(9))])
        a, b = mexpr(d - 1), mexpr(d - 1)
        k = rnd.random()
        if k < 0.3:
            return "(%s @ %s)" % (a, b)
        if k < 0.55:
            return "(%s %s %s)" % (a, rnd.choice(["+", "-"]), b)
        if k < 0.7:
            return "(%s * %s)" % (a, rnd.choice(["0.5", "2.0", "-1.0", "2"]))
        if k < 0.85:
            return "transpose(%s)" % a
        return "(-%s)" % a

    # `n` is assigned into below: a plain `n = m` would give one matrix two names under
    # CPython (the compiler refuses that), so it is a new matrix.
    n = mexpr(2)
    body = [
        "    m = a[i]",
        "    p = b[i]",
        "    n = %s" % ("(m * 1.0)" if n == "m" else n),
        "    j = %s %% 4 - %d" % (rnd.choice(["i", "int(p.x * 4.0)", "i * 7"]), rnd.randint(0, 3)),
        "    n[j %% 3, (j + 1) %% 3] %s= p[j %% 3]" % rnd.choice(["+", "-", ""]),
        "    n[%s] = %s" % (rnd.choice(["j % 3", "-1", "0"]), rnd.choice(["p", "n[1] * 0.5", "m[j % 3]"])),
        "    out[i] = n",
        "    v[i] = %s" % rnd.choice(["n @ p", "p @ n", "n[j % 3] + m @ p", "(n @ m) @ (p * 0.5)"]),
        "    s[i] = determinant(%s) + n[j %% 3][(j + 2) %% 3]" % mexpr(1),
    ]
    head = [
        "from spirthon import kernel, Array, f32, vec3, mat33, global_id, transpose, outer, diag, identity, determinant",
        "",
        "",
        "@kernel",
        "def k(a: Array[mat33], b: Array[vec3], out: Array[mat33], v: Array[vec3], s: Array[f32]):",
        "    i = global_id().x",
    ]
    return in_f64("\n".join(head + body) + "\n", rnd, ["mat33", "vec3"])


# The field types a random struct draws from, with a random JSON value of each (floats on a
# quarter grid, so sums and products stay exact in f32).
STRUCT_FIELDS = {
    "i32": lambda r: r.randint(-1000, 1000),
    "u32": lambda r: r.randint(0, 2**32 - 1),
    "f32": lambda r: r.randint(-40, 40) / 4,
    "u8": lambda r: r.randint(0, 255),
    "i8": lambda r: r.randint(-128, 127),
    "i16": lambda r: r.randint(-32768, 32767),
    "u16": lambda r: r.randint(0, 65535),
    "bool": lambda r: r.random() < 0.5,
    "ivec3": lambda r: [r.randint(-50, 50) for _ in range(3)],
    "vec2": lambda r: [r.randint(-40, 40) / 4 for _ in range(2)],
}


def struct_kernel(rnd):
    """Structs: a random struct of scalar, narrow, bool and vector fields with a nested one,
    read from an `Array[S]`, copied (`q = p`), changed field by field, passed to and returned
    from a func, stored whole and field by field (`out[i].f op= ...`) into another
    `Array[S]`. Returns the source and a maker of one element's JSON."""
    names = rnd.sample(["a", "b", "c", "d", "e", "f", "g", "h"], rnd.randint(3, 6))
    # Half the structs are of whole words only (a buffer of a struct of words); the others
    # share words between narrow ints.
    wide = rnd.random() < 0.5
    kinds = [t for t in STRUCT_FIELDS if not (wide and t in ("u8", "i8", "i16", "u16"))]
    fields = [(n, rnd.choice(kinds)) for n in names]
    inner = [("x", rnd.choice(["f32", "u32"] if wide else ["i8", "u16", "f32", "u8"])),
             ("y", rnd.choice(["i32", "bool"] if wide else ["i32", "bool", "i16"]))]
    ints = [n for n, t in fields if t in ("i32", "u32", "u8", "i8", "i16", "u16")]

    def int_expr(src):
        """An i32 expression of `src`'s fields."""
        parts = ["i32(%s.%s)" % (src, n) for n in ints] + ["%s.inner.y" % src if inner[1][1] == "i32" else "7", str(rnd.randint(-9, 9))]
        a, b = rnd.choice(parts), rnd.choice(parts)
        if rnd.random() < 0.2:
            return a
        op = rnd.choice(["+", "-", "*", "^", "//", "%"])
        # A divisor is never zero (CPython would raise where the GPU gives a value).
        return "(%s %s (abs(%s) + 1))" % (a, op, b) if op in ("//", "%") else "(%s %s %s)" % (a, op, b)

    def value_of(t, src):
        e = int_expr(src)
        if t == "i32":
            return e
        if t in ("u32", "u8", "i8", "i16", "u16"):
            return "%s(%s)" % (t, e)
        if t == "f32":
            return "f32(%s) * 0.25 + %s" % (e, rnd.choice(["1.5", "-0.75", "0.0"]))
        if t == "bool":
            return "%s %s %d" % (e, rnd.choice(["<", ">=", "=="]), rnd.randint(-5, 5))
        if t == "ivec3":
            return "ivec3(%s, %s, 3) %s" % (e, int_expr(src), rnd.choice(["", "* 2", "+ ivec3(1, -1, 0)"]))
        return "vec2(f32(%s), 0.5) * %s" % (e, rnd.choice(["0.25", "-1.0", "2.0"]))

    lines = [
        "from spirthon import kernel, func, struct, Array, f32, i32, u32, i8, u8, i16, u16, ivec3, vec2, global_id",
        "",
        "",
        "@struct",
        "class In:",
    ] + ["    %s: %s" % f for f in inner] + ["", "", "@struct", "class S:"]
    lines += ["    %s: %s" % f for f in fields] + ["    inner: In", "", "", "@func", "def change(s: S, k: i32) -> S:", "    t = s"]
    n, t = rnd.choice(fields)
    lines += ["    t.%s = %s" % (n, value_of(t, "s")), "    if k %% 3 == %d:" % rnd.randint(0, 2),
              "        t.inner = In(%s)" % rnd.choice(["", "y=%s" % value_of(inner[1][1], "s")]), "    return t",
              "", "", "@kernel", "def k(a: Array[S], out: Array[S], red: Array[i32]):", "    i = global_id().x",
              "    p = a[i]", "    q = p"]
    for _ in range(rnd.randint(2, 4)):
        n, t = rnd.choice(fields)
        lines.append("    q.%s = %s" % (n, value_of(t, rnd.choice(["p", "q"]))))
    vecs = [n for n, t in fields if t in ("ivec3", "vec2")]
    if vecs:
        v = rnd.choice(vecs)
        lines.append("    q.%s.y = %s" % (v, rnd.choice(["q.%s.x" % v, "p.%s.y * 2" % v])))
    lines += ["    r = change(q, i)", "    out[i] = r"]
    n, t = rnd.choice(fields)
    if t in ("i32", "f32"):
        lines.append("    out[i].%s %s= %s" % (n, rnd.choice(["+", "-", "*"]), rnd.choice(["2", "p.%s" % n])))
    else:
        lines.append("    out[i].%s = %s" % (n, value_of(t, "p")))
    lines.append("    out[i].inner.x = %s" % value_of(inner[0][1], "q"))
    lines.append("    red[i] = %s" % int_expr(rnd.choice(["p", "q", "r"])))

    def element(r):
        e = {name: STRUCT_FIELDS[t](r) for name, t in fields}
        e["inner"] = {name: STRUCT_FIELDS[t](r) for name, t in inner}
        return e
    return "\n".join(lines) + "\n", element


def shared_kernel(rnd):
    """Checked mode's bounds-check elimination: a shared array indexed by expressions of
    `local_id()` and loop counters, some always in range and some not (the compiler may drop
    only the checks that cannot fail). Writes are atomic adds, so the result does not depend
    on the order of invocations."""
    w = rnd.choice([4, 8, 16])
    size = w * rnd.choice([1, 2, 4, w])

    def index(loop):
        k = "k" if loop else str(rnd.randint(0, 3))
        return rnd.choice([
            "lid * %d + %s" % (rnd.choice([1, size // w, size // w + 1]), k),
            "(lid + %s) %% %d" % (k, rnd.choice([size, size + 1])),
            "lid + %d" % rnd.randint(0, size - w + 2),
            "%d - lid" % rnd.randint(w - 2, size),
            "min(lid + %s, %d)" % (k, rnd.randint(size - 2, size)),
            "(lid * %d) // %d + %s" % (rnd.randint(1, 4), rnd.choice([1, 2, 4]), k),
            "lid & %d" % rnd.choice([size - 1, size, 2 * size - 1]),
            "(lid >> 1) + %s" % k,
        ])

    stop = rnd.randint(1, max(1, size // w + 1))
    lines = [
        "@kernel(workgroup_size=%d)" % w,
        "def k(a: Array[i32], b: Array[i32], out: Array[i32]):",
        "    t = shared_array(i32, %d)" % size,
        "    lid = local_id().x",
        "    g = global_id().x",
        "    for j in range(%d):" % (size // w),
        "        t[lid + j * %d] = 0" % w,
        "    barrier()",
        "    for k in range(%d):" % stop,
        "        atomic_add(t, %s, a[g] + k)" % index(True),
        "    atomic_add(t, %s, 1)" % index(False),
        "    barrier()",
        "    out[g] = t[%s] + t[%s]" % (index(False), index(False)),
    ]
    return (
        "from spirthon import kernel, Array, i32, global_id, local_id, shared_array, barrier, atomic_add\n\n\n"
        + "\n".join(lines) + "\n"
    )


def barrier_kernel(rnd):
    """Early `return`s where barriers follow, as CUDA programs write them: a guard on the
    global id, returns on data inside uniform rounds of barriers, inside loops without
    barriers (their `else` skipped), and calls of a func that takes a barrier. Invocations
    communicate through shared atomics between barriers (every slot zeroed before the first
    return), so what each reads is defined on every device: what the invocations that did
    not return added."""
    w = rnd.choice([4, 8, 16])
    size = w * rnd.choice([1, 2])
    rounds = rnd.randint(1, 4)

    def slot():
        return rnd.choice([
            "lid", "(lid + r) %% %d" % size, "(lid * 3 + r) %% %d" % size,
            "lid // 2", "%d - 1 - lid" % w, "(a[g] & 0xff) %% %d" % size,
        ])

    def cond():
        return rnd.choice([
            "a[g] %% %d == %d" % (rnd.randint(2, 7), rnd.randint(0, 1)),
            "b[g] > %d" % rnd.randint(-10, 30),
            "g >= len(a) - %d" % rnd.randint(1, 9),
            "lid == %d" % rnd.randint(0, w - 1),
            "(a[g] + r) %% %d == 0" % rnd.randint(3, 9),
        ])

    use_func = rnd.random() < 0.4
    lines = []
    if use_func:
        lines += [
            "@func",
            "def add_then_sync(t: Array[i32], j: i32, v: i32, stop: i32):",
            "    if v != stop:",
            "        atomic_add(t, j, v)",
            "    barrier()",
            "",
            "",
        ]
    lines += [
        "@kernel(workgroup_size=%d)" % w,
        "def k(a: Array[i32], b: Array[i32], out: Array[i32]):",
        "    t = shared_array(i32, %d)" % size,
        "    lid = local_id().x",
        "    g = global_id().x",
        "    r = 0",
        "    for j in range(%d):" % (size // w),
        "        t[lid + j * %d] = 0" % w,
        "    barrier()",
        "    acc = a[g] % 5",
    ]
    if rnd.random() < 0.7:
        lines += ["    if %s:" % cond().replace("+ r", "+ 0"), "        return"]
    if rnd.random() < 0.5:
        lines += [
            "    for m in range(%d):" % rnd.randint(1, 4),
            "        if b[g] == m * %d:" % rnd.randint(1, 5),
            "            out[g] = -1",
            "            return",
            "        acc += m",
            "    else:",
            "        acc += 100",
        ]
    loop = rnd.choice(["for", "while"])
    if loop == "for":
        lines.append("    for r in range(%d):" % rounds)
    else:
        lines += ["    r = 0", "    while r < %d:" % rounds]
    body = []
    if rnd.random() < 0.6:
        body += ["if %s:" % cond(), "    out[g] = acc", "    return"]
    if use_func:
        body.append("add_then_sync(t, %s, acc + r, %d)" % (slot(), rnd.randint(0, 6)))
    else:
        body += ["atomic_add(t, %s, acc + r)" % slot(), "barrier()"]
    body += ["acc += t[%s]" % slot(), "barrier()"]
    if rnd.random() < 0.4:
        body += ["if r == %d:" % rnd.randint(0, rounds), "    acc -= 1"]
    if loop == "while":
        body.append("r += 1")
    lines += ["        " + x for x in body]
    lines.append("    out[g] = acc")
    return (
        "from spirthon import kernel, func, Array, i32, global_id, local_id, shared_array, barrier, atomic_add\n\n\n"
        + "\n".join(lines) + "\n"
    )


def faulty(src, rnd):
    """Checked mode's differential test: some divisors that can be zero and some indices
    that can leave the arrays, so that invocations fail at varied points."""
    src = src.replace("% 7 + 1))", "% 7 - 3))")
    src = re.sub(r"(//|%) \(abs\(", r"\1 (-2 + abs(", src, count=2)
    lines = src.split("\n")
    for k, line in enumerate(lines):
        if "a[i]" in line and rnd.random() < 0.5:
            lines[k] = line.replace("a[i]", "a[i + %d]" % rnd.randint(1, 6), 1)
    return "\n".join(lines)


def spellings(src, rnd):
    """The same kernel as Python programmers also write it: `Array[int]`/`Array[float]` for
    some `Array[i32]`/`Array[f32]` parameters, and some arrays indexed by a `u32`."""
    lines = src.split("\n")
    for k, line in enumerate(lines):
        if line.startswith("def k("):
            line = re.sub(r"Array\[i32\]", lambda m: "Array[int]" if rnd.random() < 0.4 else m.group(0), line)
            line = re.sub(r"Array\[f32\]", lambda m: "Array[float]" if rnd.random() < 0.4 else m.group(0), line)
            lines[k] = line
    src = "\n".join(lines)
    if "    i = global_id().x\n" in src and rnd.random() < 0.3:
        src = src.replace("    i = global_id().x\n", "    i = global_id().x\n    iu = u32(i)\n", 1)
        src = re.sub(r"\b(a|out|y|z|out2|bits|x)\[i\]", lambda m: "%s[iu]" % m.group(1) if rnd.random() < 0.5 else m.group(0), src)
        first = src.split("\n", 1)[0]
        if not re.search(r"\bu32\b", first):
            src = src.replace(first, first + ", u32", 1)
    return src


def main():
    seed, out_dir = int(sys.argv[1]), sys.argv[2]
    # A third argument `faulty`: an integer kernel (expression or control flow) that may
    # fail checks (see `faulty`).
    fault = len(sys.argv) > 3 and sys.argv[3] == "faulty"
    kind = seed % 3 if fault else seed % 9
    rnd = random.Random(seed)
    n = 48
    if fault and kind == 2:
        src = shared_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "a": [rnd.randint(-40, 40) for _ in range(n)],
            "b": [0] * n,
            "out": {"zeros": n},
        }}
    elif kind == 8:
        src = barrier_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "a": [rnd.randint(-40, 40) for _ in range(n)],
            "b": [rnd.randint(-5, 25) for _ in range(n)],
            "out": {"zeros": n},
        }}
    elif kind == 7:
        src, element = struct_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "a": [element(rnd) for _ in range(n)],
            "out": {"zeros": n}, "red": {"zeros": n},
        }}
    elif kind == 6:
        src = matrix_kernel(rnd)
        quarter = lambda: rnd.randint(-8, 8) / 4
        inputs = {"threads": [n], "args": {
            "a": [[[quarter() for _ in range(3)] for _ in range(3)] for _ in range(n)],
            "b": [[quarter() for _ in range(3)] for _ in range(n)],
            "out": {"zeros": n}, "v": {"zeros": n}, "s": {"zeros": n},
        }}
    elif kind == 4:
        src = float_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "x": [rnd.uniform(-5, 5) for _ in range(n)],
            "y": {"zeros": n}, "z": {"zeros": n}, "out": {"zeros": n}, "out2": {"zeros": n},
        }}
    elif kind == 5:
        src = hash_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "seeds": [rnd.randint(0, 2**32 - 1) for _ in range(n)],
            "out": {"zeros": n}, "ints": {"zeros": n}, "small": {"zeros": n},
            "wide": {"zeros": n}, "longs": {"zeros": n},
        }}
    elif kind == 3:
        # A third of the vector kernels in another width.
        src, (lo, hi) = width_vector_kernel(rnd) if rnd.random() < 1 / 3 else (vector_kernel(rnd), (-40, 40))
        inputs = {"threads": [n], "args": {
            "a": [[rnd.randint(lo, hi) for _ in range(4)] for _ in range(n)],
            "b": [[rnd.randint(lo, hi) for _ in range(4)] for _ in range(n)],
            "out": {"zeros": n}, "red": {"zeros": n}, "fo": {"zeros": n},
        }}
    elif kind == 2:
        src = mixed_kernel(rnd)
        inputs = {"threads": [n], "args": {
            "x": [round(rnd.uniform(-3, 3), 3) for _ in range(n)],
            "y": {"zeros": n},
            "bits": [rnd.randint(0, 2**32 - 1) for _ in range(n)],
            "out": {"zeros": n},
        }}
    else:
        body = expression_kernel(rnd) if kind == 0 else control_flow_kernel(rnd)
        src = (
            "from spirthon import kernel, Array, i32, global_id\n\n\n@kernel\n"
            "def k(a: Array[i32], b: Array[i32], out: Array[i32]):\n    i = global_id().x\n"
            + "\n".join(body) + "\n"
        )
        if fault:
            src = faulty(src, rnd)
        inputs = {"threads": [n], "args": {
            "a": [rnd.randint(-40, 40) for _ in range(n)],
            "b": [rnd.randint(-40, 40) for _ in range(n)],
            "out": {"zeros": n},
        }}
    src = spellings(src, rnd)
    with open(os.path.join(out_dir, "k%d.py" % seed), "w") as fh:
        fh.write(src)
    with open(os.path.join(out_dir, "k%d.inputs.json" % seed), "w") as fh:
        json.dump(inputs, fh)


if __name__ == "__main__":
    main()

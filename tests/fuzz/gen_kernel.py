"""Random kernels for the differential fuzz test (tests/gpu.rs).

    python3 gen_kernel.py SEED OUT_DIR

writes OUT_DIR/kSEED.py and OUT_DIR/kSEED.inputs.json: an i32 kernel whose values stay far
from 32-bit overflow, so CPython (unbounded ints) and the GPU (wrapping i32) must agree
exactly. Even seeds stress expressions (// and % with both signs, shifts, and/or values,
chained comparisons, conditional expressions); odd seeds stress control flow (nested
if/elif/else, for and while with break, continue and else, early returns).
"""

import json
import os
import random
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
            return "(%s >> (abs(%s) %% 5))" % (a, b)
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


def control_flow_kernel(rnd):
    names = ["x", "y", "z"]

    def expr(d, vs):
        if d == 0 or rnd.random() < 0.3:
            return rnd.choice(vs + [str(rnd.randint(-5, 9))])
        a, b = expr(d - 1, vs), expr(d - 1, vs)
        k = rnd.random()
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

    def block(d, ind, vs, in_loop):
        out = []
        for _ in range(rnd.randint(1, 3)):
            k = rnd.random()
            p = "    " * ind
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
                out.append(p + "while %s < %d and %s:" % (c, rnd.randint(1, 5), cond(vs)))
                out.append(p + "    %s += 1" % c)
                out += block(d - 1, ind + 1, vs + [c], True)
                if rnd.random() < 0.4:
                    out.append(p + "else:")
                    out += block(d - 1, ind + 1, vs, in_loop)
            elif in_loop and k < 0.52:
                out.append(p + "if %s:" % cond(vs))
                out.append(p + "    " + rnd.choice(["break", "continue"]))
            elif k < 0.56:
                out.append(p + "if %s:" % cond(vs))
                out.append(p + "    out[i] = %s" % expr(2, vs))
                out.append(p + "    return")
            elif k < 0.8:
                out.append(p + "%s = %s" % (rnd.choice(names), expr(2, vs)))
            else:
                out.append(p + "%s %s= %s" % (rnd.choice(names), rnd.choice(["+", "-", "^"]), expr(2, vs)))
        return out

    return ["    x = a[i]", "    y = b[i]", "    z = 0"] + block(3, 1, list(names), False) + ["    out[i] = x * 3 + y * 5 + z"]


def main():
    seed, out_dir = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(seed)
    body = expression_kernel(rnd) if seed % 2 == 0 else control_flow_kernel(rnd)
    src = (
        "from spirthon import kernel, Array, i32, global_id\n\n\n@kernel\n"
        "def k(a: Array[i32], b: Array[i32], out: Array[i32]):\n    i = global_id().x\n"
        + "\n".join(body) + "\n"
    )
    n = 48
    inputs = {"threads": [n], "args": {
        "a": [rnd.randint(-40, 40) for _ in range(n)],
        "b": [rnd.randint(-40, 40) for _ in range(n)],
        "out": {"zeros": n},
    }}
    with open(os.path.join(out_dir, "k%d.py" % seed), "w") as fh:
        fh.write(src)
    with open(os.path.join(out_dir, "k%d.inputs.json" % seed), "w") as fh:
        json.dump(inputs, fh)


if __name__ == "__main__":
    main()

"""The kernel language's built-in names, as the compiler's table has them.

Written by `cargo xtask library` from crates/spirthon-ir/src/library.rs; do not edit
(a test of that crate fails when this file is stale).
"""

# `math` functions: name -> (fewest arguments, most arguments, typing, precision).
# typing: "float" (float32 in, float32 out), "float_to_int" (an int out),
# "predicate" (a bool out), "log" (`log(x[, base])`).
# precision: "exact" (every device gives CPython's result rounded to float32),
# "own_exact" (the compiler's own, exact), "own" (the compiler's own, within 4 ULP;
# --fast-math takes the device's), "own_always" (the compiler's own, within 4 ULP,
# also under --fast-math), "device" (the device's precision).
MATH = {
    "sqrt": (1, 1, "float", "device"),
    "sin": (1, 1, "float", "device"),
    "cos": (1, 1, "float", "device"),
    "tan": (1, 1, "float", "device"),
    "asin": (1, 1, "float", "own"),
    "acos": (1, 1, "float", "own"),
    "atan": (1, 1, "float", "own"),
    "atan2": (2, 2, "float", "own"),
    "sinh": (1, 1, "float", "own"),
    "cosh": (1, 1, "float", "own"),
    "tanh": (1, 1, "float", "own"),
    "exp": (1, 1, "float", "own"),
    "exp2": (1, 1, "float", "device"),
    "expm1": (1, 1, "float", "own_always"),
    "log": (1, 2, "log", "own"),
    "log2": (1, 1, "float", "own"),
    "log10": (1, 1, "float", "own"),
    "log1p": (1, 1, "float", "own_always"),
    "pow": (2, 2, "float", "own"),
    "cbrt": (1, 1, "float", "own_always"),
    "erf": (1, 1, "float", "own_always"),
    "erfc": (1, 1, "float", "own_always"),
    "fabs": (1, 1, "float", "exact"),
    "floor": (1, 1, "float_to_int", "exact"),
    "ceil": (1, 1, "float_to_int", "exact"),
    "trunc": (1, 1, "float_to_int", "exact"),
    "copysign": (2, 2, "float", "exact"),
    "hypot": (2, 2, "float", "own"),
    "fmod": (2, 2, "float", "own_exact"),
    "isnan": (1, 1, "predicate", "exact"),
    "isinf": (1, 1, "predicate", "exact"),
    "isfinite": (1, 1, "predicate", "exact"),
}

# `math` constants.
MATH_CONSTANTS = {
    "pi": 3.141592653589793,
    "e": 2.718281828459045,
    "tau": 6.283185307179586,
    "inf": float("inf"),
    "nan": float("nan"),
}

# Every name `spirthon` exports for kernel code.
SPIRTHON = (
    "kernel",
    "func",
    "Array",
    "Array2D",
    "Array3D",
    "i32",
    "u32",
    "f32",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "uvec2",
    "uvec3",
    "uvec4",
    "global_id",
    "local_id",
    "workgroup_id",
    "num_workgroups",
    "local_index",
    "num_threads",
    "shared_array",
    "local_array",
    "barrier",
    "atomic_add",
    "atomic_sub",
    "atomic_min",
    "atomic_max",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "atomic_exchange",
    "atomic_compare_exchange",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "clamp",
    "mix",
    "step",
    "smoothstep",
)

# The operators' typing rules (crates/spirthon-ir/src/operators.rs), which the compiler
# and the reference executor both follow. An operand is typed ("i32", "u32", "f32",
# "bool") or a literal ("int", "negint" for a negative one, "float").
KINDS = ("i32", "u32", "f32", "bool", "int", "negint", "float")

# operator -> left kind -> the result for each right kind (in KINDS' order), None
# where the language refuses it.
BINARY = {
    "+": {
        "i32": ("i32", None, "f32", None, "i32", "i32", "f32"),
        "u32": (None, "u32", "f32", None, "u32", None, "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", "f32", None, "int", "int", "float"),
        "negint": ("i32", None, "f32", None, "int", "int", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "-": {
        "i32": ("i32", None, "f32", None, "i32", "i32", "f32"),
        "u32": (None, "u32", "f32", None, "u32", None, "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", "f32", None, "int", "int", "float"),
        "negint": ("i32", None, "f32", None, "int", "int", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "*": {
        "i32": ("i32", None, "f32", None, "i32", "i32", "f32"),
        "u32": (None, "u32", "f32", None, "u32", None, "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", "f32", None, "int", "int", "float"),
        "negint": ("i32", None, "f32", None, "int", "int", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "/": {
        "i32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "u32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("f32", "f32", "f32", None, "float", "float", "float"),
        "negint": ("f32", "f32", "f32", None, "float", "float", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "//": {
        "i32": ("i32", None, "f32", None, "i32", "i32", "f32"),
        "u32": (None, "u32", "f32", None, "u32", None, "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", "f32", None, "int", "int", "float"),
        "negint": ("i32", None, "f32", None, "int", "int", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "%": {
        "i32": ("i32", None, "f32", None, "i32", "i32", "f32"),
        "u32": (None, "u32", "f32", None, "u32", None, "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", "f32", None, "int", "int", "float"),
        "negint": ("i32", None, "f32", None, "int", "int", "float"),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "**": {
        "i32": (None, None, "f32", None, "i32", "f32", "f32"),
        "u32": (None, None, "f32", None, "u32", "f32", "f32"),
        "f32": ("f32", "f32", "f32", None, "f32", "f32", "f32"),
        "bool": (None, None, None, None, None, None, None),
        "int": (None, None, "f32", None, "int", "float", "float"),
        "negint": (None, None, "f32", None, "int", "float", None),
        "float": ("f32", "f32", "f32", None, "float", "float", "float"),
    },
    "<<": {
        "i32": ("i32", "i32", None, None, "i32", None, None),
        "u32": ("u32", "u32", None, None, "u32", None, None),
        "f32": (None, None, None, None, None, None, None),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", None, None, "int", None, None),
        "negint": ("i32", None, None, None, "int", None, None),
        "float": (None, None, None, None, None, None, None),
    },
    ">>": {
        "i32": ("i32", "i32", None, None, "i32", None, None),
        "u32": ("u32", "u32", None, None, "u32", None, None),
        "f32": (None, None, None, None, None, None, None),
        "bool": (None, None, None, None, None, None, None),
        "int": ("i32", "u32", None, None, "int", None, None),
        "negint": ("i32", None, None, None, "int", None, None),
        "float": (None, None, None, None, None, None, None),
    },
    "&": {
        "i32": ("i32", None, None, None, "i32", "i32", None),
        "u32": (None, "u32", None, None, "u32", None, None),
        "f32": (None, None, None, None, None, None, None),
        "bool": (None, None, None, "bool", None, None, None),
        "int": ("i32", "u32", None, None, "int", "int", None),
        "negint": ("i32", None, None, None, "int", "int", None),
        "float": (None, None, None, None, None, None, None),
    },
    "|": {
        "i32": ("i32", None, None, None, "i32", "i32", None),
        "u32": (None, "u32", None, None, "u32", None, None),
        "f32": (None, None, None, None, None, None, None),
        "bool": (None, None, None, "bool", None, None, None),
        "int": ("i32", "u32", None, None, "int", "int", None),
        "negint": ("i32", None, None, None, "int", "int", None),
        "float": (None, None, None, None, None, None, None),
    },
    "^": {
        "i32": ("i32", None, None, None, "i32", "i32", None),
        "u32": (None, "u32", None, None, "u32", None, None),
        "f32": (None, None, None, None, None, None, None),
        "bool": (None, None, None, "bool", None, None, None),
        "int": ("i32", "u32", None, None, "int", "int", None),
        "negint": ("i32", None, None, None, "int", "int", None),
        "float": (None, None, None, None, None, None, None),
    },
    "<": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
    "<=": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
    ">": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
    ">=": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, None, None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
    "==": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, "bool", None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
    "!=": {
        "i32": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "u32": (None, "bool", "bool", None, "bool", None, "bool"),
        "f32": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "bool": (None, None, None, "bool", None, None, None),
        "int": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
        "negint": ("bool", None, "bool", None, "bool", "bool", "bool"),
        "float": ("bool", "bool", "bool", None, "bool", "bool", "bool"),
    },
}

# operator -> the result for each operand kind (in KINDS' order).
UNARY = {
    "-": ("i32", "u32", "f32", None, "int", "int", "float"),
    "+": ("i32", "u32", "f32", None, "int", "int", "float"),
    "~": ("i32", "u32", None, None, "int", "int", None),
    "not": ("bool", "bool", "bool", "bool", "bool", "bool", "bool"),
}

# The words of a checked launch's report (crates/spirthon-ir/src/checks.rs), with
# str.format fields.
CHECK_REPORT = {
    "report": "{head}\n  in invocation {ids}: {others}",
    "located": "{message} at {path}:{line}:{col}",
    "lost": "a check failed (its record was overwritten by later failures)",
    "only": "the only failing invocation",
    "first_of": "the first of {count} failing invocations",
    "ids": "global_id ({gx}, {gy}, {gz}), workgroup_id ({wx}, {wy}, {wz}), local_id ({lx}, {ly}, {lz})",
}

# The most threads a launch may ask for per axis (crates/spirthon-ir/src/abi.rs).
MAX_THREADS_PER_AXIS = 4294967295

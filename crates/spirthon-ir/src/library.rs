//! The built-in library, one row per name: the module it comes from, its arity, its typing
//! rule, how it folds on literals (in `f64`, as CPython computes) and on device constants (in
//! `f32`, only where the device gives the same bits), and who computes it on the device and
//! how precisely ([`Precision`]). Name resolution and imports (`module`), arity checks, typing
//! and literal folding (lowering), device folding (`spirthon-mid`'s `opt`), emission
//! (`spirthon-spirv`, which maps a row's `MathFn` to its GLSL.std.450 instruction), the
//! differential tests' tolerances, the `--fast-math` help and the Python package's
//! `spirthon/_library.py` (written from [`python_module`] by `cargo xtask library`) all read
//! this table: adding a function is a row here, its computation where the row says, and a test.
//!
//! Invariants: names are unique within a module; a row with `func: Some(f)` is the only row
//! of its module for `f`; every name the `spirthon` package exports for kernels has a row
//! (`Typing::Name` for those kernel code does not call).

use crate::cfg::MathFn;

/// The module a built-in comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Module {
    /// Python's `math`.
    Math,
    /// Python's built-in functions (`abs`, `min`, `max`, `round`, `int`, `len`, …).
    Builtins,
    /// spirthon's own functions (`global_id`, `u32`, …).
    Spirthon,
}

/// How a built-in's arguments and result are typed.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Typing {
    /// Numbers in (ints and bools converted to `f32`), `f32` out.
    Float,
    /// Numbers in, the function on `f32`, then Python's `int` of the result (`math.floor`).
    FloatToInt,
    /// Numbers in, `bool` out.
    Predicate,
    /// `math.isfinite`: `not (isnan(x) or isinf(x))`.
    IsFinite,
    /// `math.log(x)` or `math.log(x, base)`: `log(x) / log(base)`.
    Log,
    /// A constant of the module, not a function.
    Constant(f64),
    /// A name of `spirthon` that kernel code does not call: a decorator (`kernel`), a type
    /// for annotations (`Array`) or a vector type (whose calls lowering builds itself).
    Name,
    /// Typed by lowering's own rule (`abs`, `min`, `max`, `round` keep ints as ints;
    /// conversions; `len`; the invocation ids).
    Own,
}

/// The computation on literal arguments, in `f64`.
#[derive(Copy, Clone, Debug)]
pub enum Host {
    None,
    Unary(fn(f64) -> f64),
    Binary(fn(f64, f64) -> f64),
    Predicate(fn(f64) -> bool),
}

/// Who computes a function on the device, and how close to CPython's result (rounded to
/// `f32`) it comes. The emitter reads it (the module's own helper or the device's
/// instruction), and so do the differential tests (exact comparison or a tolerance), the
/// `--fast-math` help and the Python package's generated table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Precision {
    /// Exact on every device: an instruction Vulkan requires to be exact (`floor`, `abs`,
    /// `min`, …), a sequence over the bits (`copysign`, `isnan`), or no computation at all.
    Exact,
    /// The module's own, exact (`fmod`, from the bits); `--fast-math` takes the device's
    /// instruction.
    OwnExact,
    /// The module's own, within 4 ULP on any device; `--fast-math` takes the device's
    /// instruction (or a short sequence of them).
    Own,
    /// The module's own, within 4 ULP on any device, also under `--fast-math` (no device
    /// instruction computes it).
    OwnAlways,
    /// The device's instruction, within the error Vulkan allows it.
    Device,
}

impl Precision {
    /// Whether the module computes the function itself, with or without `--fast-math`.
    pub fn own(self, fast_math: bool) -> bool {
        match self {
            Precision::OwnExact | Precision::Own => !fast_math,
            Precision::OwnAlways => true,
            Precision::Exact | Precision::Device => false,
        }
    }

    /// Whether a device's result may differ from CPython's rounded to `f32`.
    pub fn inexact(self) -> bool {
        !matches!(self, Precision::Exact | Precision::OwnExact)
    }

    /// The name the Python package's table gives it.
    pub fn python_name(self) -> &'static str {
        match self {
            Precision::Exact => "exact",
            Precision::OwnExact => "own_exact",
            Precision::Own => "own",
            Precision::OwnAlways => "own_always",
            Precision::Device => "device",
        }
    }
}

/// One built-in.
#[derive(Copy, Clone, Debug)]
pub struct Row {
    pub name: &'static str,
    pub module: Module,
    /// The IR operation, for rows that are one.
    pub func: Option<MathFn>,
    /// Fewest and most arguments.
    pub arity: (u8, u8),
    pub typing: Typing,
    pub host: Host,
    /// Folding of `f32` constants, where the device's result is exact (so equal); `None`
    /// from it leaves the call for run time (`fmod` by zero).
    pub device: Option<fn(f32, f32) -> Option<f32>>,
    pub precision: Precision,
}

impl Row {
    /// Whether the function has an `f64` form ([`MathFn::takes_f64`]; `isfinite` is built
    /// from two that do).
    pub fn takes_f64(&self) -> bool {
        self.typing == Typing::IsFinite
            || (self.func.is_some_and(MathFn::takes_f64)
                && !matches!(self.typing, Typing::Constant(_)))
    }
}

const fn math(name: &'static str, f: MathFn, arity: u8, host: Host, precision: Precision) -> Row {
    Row {
        name,
        module: Module::Math,
        func: Some(f),
        arity: (arity, arity),
        typing: Typing::Float,
        host,
        device: None,
        precision,
    }
}

const fn constant(name: &'static str, v: f64) -> Row {
    Row {
        name,
        module: Module::Math,
        func: None,
        arity: (0, 0),
        typing: Typing::Constant(v),
        host: Host::None,
        device: None,
        precision: Precision::Exact,
    }
}

/// A built-in that lowering types by its own rule and that is no `MathFn`.
const fn own(name: &'static str, module: Module, arity: u8) -> Row {
    Row {
        name,
        module,
        func: None,
        arity: (arity, arity),
        typing: Typing::Own,
        host: Host::None,
        device: None,
        precision: Precision::Exact,
    }
}

/// A built-in of spirthon's, typed by lowering's own rule, taking `arity.0..=arity.1`
/// arguments.
const fn own_n(name: &'static str, arity: (u8, u8)) -> Row {
    Row {
        arity,
        ..own(name, Module::Spirthon, 0)
    }
}

/// A name of `spirthon` that is no function of kernel code (a decorator, a type).
const fn name(name: &'static str) -> Row {
    Row {
        typing: Typing::Name,
        ..own(name, Module::Spirthon, 0)
    }
}

/// A built-in of Python's that lowering types by its own rule (`abs`, `min`, `max`, `round`
/// keep ints as ints), exact on the device and folded there.
const fn builtin(
    name: &'static str,
    f: MathFn,
    arity: (u8, u8),
    host: Host,
    device: fn(f32, f32) -> Option<f32>,
) -> Row {
    Row {
        name,
        module: Module::Builtins,
        func: Some(f),
        arity,
        typing: Typing::Own,
        host,
        device: Some(device),
        precision: Precision::Exact,
    }
}

const fn with_device(mut r: Row, device: fn(f32, f32) -> Option<f32>) -> Row {
    r.device = Some(device);
    r
}

const fn typed(mut r: Row, typing: Typing) -> Row {
    r.typing = typing;
    r
}

use Host::{Binary as B, Predicate as P, Unary as U};
use MathFn::*;
use Precision::{Device as Dev, Exact, Own as Mine, OwnAlways, OwnExact};

/// Every built-in function and constant, and every other name `spirthon` exports.
pub const LIBRARY: &[Row] = &[
    math("sqrt", Sqrt, 1, U(f64::sqrt), Dev),
    math("sin", Sin, 1, U(f64::sin), Dev),
    math("cos", Cos, 1, U(f64::cos), Dev),
    math("tan", Tan, 1, U(f64::tan), Dev),
    math("asin", Asin, 1, U(f64::asin), Mine),
    math("acos", Acos, 1, U(f64::acos), Mine),
    math("atan", Atan, 1, U(f64::atan), Mine),
    math("atan2", Atan2, 2, B(f64::atan2), Mine),
    math("sinh", Sinh, 1, U(f64::sinh), Mine),
    math("cosh", Cosh, 1, U(f64::cosh), Mine),
    math("tanh", Tanh, 1, U(f64::tanh), Mine),
    math("exp", Exp, 1, U(f64::exp), Mine),
    math("exp2", Exp2, 1, U(f64::exp2), Dev),
    math("expm1", Expm1, 1, U(f64::exp_m1), OwnAlways),
    typed(
        Row {
            arity: (1, 2),
            ..math("log", Log, 1, U(f64::ln), Mine)
        },
        Typing::Log,
    ),
    math("log2", Log2, 1, U(f64::log2), Mine),
    math("log10", Log10, 1, U(f64::log10), Mine),
    math("log1p", Log1p, 1, U(f64::ln_1p), OwnAlways),
    math("pow", Pow, 2, B(f64::powf), Mine),
    math("cbrt", Cbrt, 1, U(f64::cbrt), OwnAlways),
    math("erf", Erf, 1, U(libm::erf), OwnAlways),
    math("erfc", Erfc, 1, U(libm::erfc), OwnAlways),
    // Emitted and folded as the built-in `abs` (below), which covers ints too.
    math("fabs", Abs, 1, U(f64::abs), Exact),
    with_device(
        typed(
            math("floor", Floor, 1, U(f64::floor), Exact),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.floor()),
    ),
    with_device(
        typed(
            math("ceil", Ceil, 1, U(f64::ceil), Exact),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.ceil()),
    ),
    with_device(
        typed(
            math("trunc", Trunc, 1, U(f64::trunc), Exact),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.trunc()),
    ),
    with_device(
        math("copysign", Copysign, 2, B(f64::copysign), Exact),
        |x, y| Some(x.copysign(y)),
    ),
    math("hypot", Hypot, 2, B(f64::hypot), Mine),
    with_device(math("fmod", Fmod, 2, B(|a, b| a % b), OwnExact), |x, y| {
        (y != 0.0).then(|| x % y)
    }),
    typed(
        math("isnan", IsNan, 1, P(f64::is_nan), Exact),
        Typing::Predicate,
    ),
    typed(
        math("isinf", IsInf, 1, P(f64::is_infinite), Exact),
        Typing::Predicate,
    ),
    Row {
        func: None,
        typing: Typing::IsFinite,
        ..math("isfinite", IsNan, 1, P(f64::is_finite), Exact)
    },
    constant("pi", core::f64::consts::PI),
    constant("e", core::f64::consts::E),
    constant("tau", core::f64::consts::TAU),
    constant("inf", f64::INFINITY),
    constant("nan", f64::NAN),
    builtin("abs", Abs, (1, 1), Host::None, |x, _| Some(x.abs())),
    // Python's picks: the first unless the second compares less (greater), so a NaN first
    // is kept and a NaN second is not, and `min(0.0, -0.0)` is `0.0`.
    builtin("min", Min, (1, u8::MAX), Host::None, |x, y| {
        Some(if y < x { y } else { x })
    }),
    builtin("max", Max, (1, u8::MAX), Host::None, |x, y| {
        Some(if y > x { y } else { x })
    }),
    builtin(
        "round",
        RoundEven,
        (1, 2),
        Host::Unary(f64::round_ties_even),
        |x, _| Some(x.round_ties_even()),
    ),
    own("int", Module::Builtins, 1),
    own("float", Module::Builtins, 1),
    own("bool", Module::Builtins, 1),
    own("len", Module::Builtins, 1),
    name("kernel"),
    name("func"),
    name("struct"),
    name("Array"),
    name("Array2D"),
    name("Array3D"),
    own("i32", Module::Spirthon, 1),
    own("u32", Module::Spirthon, 1),
    own("f32", Module::Spirthon, 1),
    own("f64", Module::Spirthon, 1),
    own("f16", Module::Spirthon, 1),
    own("i8", Module::Spirthon, 1),
    own("u8", Module::Spirthon, 1),
    own("i16", Module::Spirthon, 1),
    own("u16", Module::Spirthon, 1),
    own("i64", Module::Spirthon, 1),
    own("u64", Module::Spirthon, 1),
    name("quat"),
    own("quat_identity", Module::Spirthon, 0),
    own("quat_from_axis_angle", Module::Spirthon, 2),
    own("quat_rotate", Module::Spirthon, 2),
    own("quat_rotate_inv", Module::Spirthon, 2),
    own("quat_inverse", Module::Spirthon, 1),
    own("quat_to_matrix", Module::Spirthon, 1),
    own("subgroup_size", Module::Spirthon, 0),
    own("subgroup_invocation_id", Module::Spirthon, 0),
    own("subgroup_add", Module::Spirthon, 1),
    own("subgroup_mul", Module::Spirthon, 1),
    own("subgroup_min", Module::Spirthon, 1),
    own("subgroup_max", Module::Spirthon, 1),
    own("subgroup_and", Module::Spirthon, 1),
    own("subgroup_or", Module::Spirthon, 1),
    own("subgroup_xor", Module::Spirthon, 1),
    own("subgroup_inclusive_add", Module::Spirthon, 1),
    own("subgroup_exclusive_add", Module::Spirthon, 1),
    own("subgroup_inclusive_mul", Module::Spirthon, 1),
    own("subgroup_exclusive_mul", Module::Spirthon, 1),
    own("subgroup_broadcast", Module::Spirthon, 2),
    own("subgroup_broadcast_first", Module::Spirthon, 1),
    own("subgroup_shuffle", Module::Spirthon, 2),
    own("subgroup_shuffle_down", Module::Spirthon, 2),
    own("subgroup_shuffle_up", Module::Spirthon, 2),
    own("subgroup_shuffle_xor", Module::Spirthon, 2),
    own("subgroup_ballot", Module::Spirthon, 1),
    own("subgroup_all", Module::Spirthon, 1),
    own("subgroup_any", Module::Spirthon, 1),
    own("subgroup_elect", Module::Spirthon, 0),
    name("Rand"),
    own_n("rand_init", (1, 2)),
    own("randu", Module::Spirthon, 1),
    own_n("randi", (1, 3)),
    own_n("randf", (1, 3)),
    own("randn", Module::Spirthon, 1),
    own("sample_unit_disk", Module::Spirthon, 1),
    own("sample_unit_sphere_surface", Module::Spirthon, 1),
    own("sample_unit_sphere", Module::Spirthon, 1),
    name("mat22"),
    name("mat33"),
    name("mat44"),
    name("dmat22"),
    name("dmat33"),
    name("dmat44"),
    own("transpose", Module::Spirthon, 1),
    own("determinant", Module::Spirthon, 1),
    own("inverse", Module::Spirthon, 1),
    own("outer", Module::Spirthon, 2),
    own("diag", Module::Spirthon, 1),
    own("identity", Module::Spirthon, 1),
    name("vec2"),
    name("vec3"),
    name("vec4"),
    name("ivec2"),
    name("ivec3"),
    name("ivec4"),
    name("uvec2"),
    name("uvec3"),
    name("uvec4"),
    name("dvec2"),
    name("dvec3"),
    name("dvec4"),
    name("i8vec2"),
    name("i8vec3"),
    name("i8vec4"),
    name("u8vec2"),
    name("u8vec3"),
    name("u8vec4"),
    name("i16vec2"),
    name("i16vec3"),
    name("i16vec4"),
    name("u16vec2"),
    name("u16vec3"),
    name("u16vec4"),
    name("i64vec2"),
    name("i64vec3"),
    name("i64vec4"),
    name("u64vec2"),
    name("u64vec3"),
    name("u64vec4"),
    name("f16vec2"),
    name("f16vec3"),
    name("f16vec4"),
    own("global_id", Module::Spirthon, 0),
    own("local_id", Module::Spirthon, 0),
    own("workgroup_id", Module::Spirthon, 0),
    own("num_workgroups", Module::Spirthon, 0),
    own("local_index", Module::Spirthon, 0),
    own("num_threads", Module::Spirthon, 0),
    own("shared_array", Module::Spirthon, 2),
    own("local_array", Module::Spirthon, 2),
    own("barrier", Module::Spirthon, 0),
    own("atomic_add", Module::Spirthon, 3),
    own("atomic_sub", Module::Spirthon, 3),
    own("atomic_min", Module::Spirthon, 3),
    own("atomic_max", Module::Spirthon, 3),
    own("atomic_and", Module::Spirthon, 3),
    own("atomic_or", Module::Spirthon, 3),
    own("atomic_xor", Module::Spirthon, 3),
    own("atomic_exchange", Module::Spirthon, 3),
    own("atomic_compare_exchange", Module::Spirthon, 4),
    geometry("dot", Dot, 2, Dev),
    geometry("cross", Cross, 2, Dev),
    geometry("length", Length, 1, Dev),
    geometry("distance", Distance, 2, Dev),
    geometry("normalize", Normalize, 1, Dev),
    // `min(max(x, lo), hi)` in lowering: Python's result also when `lo > hi`.
    own("clamp", Module::Spirthon, 3),
    geometry("mix", Mix, 3, Dev),
    geometry("step", Step, 2, Exact),
    geometry("smoothstep", SmoothStep, 3, Dev),
];

/// spirthon's vector and shading functions (typed by lowering's own rule: scalars and
/// vectors, with scalar arguments broadcast).
const fn geometry(name: &'static str, f: MathFn, arity: u8, precision: Precision) -> Row {
    Row {
        name,
        module: Module::Spirthon,
        func: Some(f),
        arity: (arity, arity),
        typing: Typing::Own,
        host: Host::None,
        device: None,
        precision,
    }
}

/// The row of `name` in `module`.
pub fn lookup(module: Module, name: &str) -> Option<&'static Row> {
    LIBRARY
        .iter()
        .find(|r| r.module == module && r.name == name)
}

/// The row that emits and folds `f` (for `Abs`, the built-in `abs`, which covers ints too).
pub fn of(f: MathFn) -> Option<&'static Row> {
    let fabs = matches!(f, Abs);
    LIBRARY
        .iter()
        .find(|r| r.func == Some(f) && (!fabs || r.module == Module::Builtins))
}

/// The names of `module`, in table order.
pub fn names(module: Module) -> impl Iterator<Item = &'static str> {
    LIBRARY
        .iter()
        .filter(move |r| r.module == module)
        .map(|r| r.name)
}

/// The names of `module` computed with `precision`, in table order.
pub fn with_precision(module: Module, precision: Precision) -> impl Iterator<Item = &'static str> {
    LIBRARY
        .iter()
        .filter(move |r| r.module == module && r.precision == precision)
        .map(|r| r.name)
}

/// The functions (of any module) whose device results may differ from CPython's rounded to
/// `f32`, in table order.
pub fn inexact_names() -> impl Iterator<Item = &'static str> {
    LIBRARY
        .iter()
        .filter(|r| r.precision.inexact())
        .map(|r| r.name)
}

/// The text of the Python package's `spirthon/_library.py`: this table as data, for the
/// reference executor (`math` on float32 values), the package's exports and its tests.
pub fn python_module() -> String {
    use core::fmt::Write;
    let mut out = String::from(
        "\"\"\"The kernel language's built-in names, as the compiler's table has them.\n\n\
         Written by `cargo xtask library` from crates/spirthon-ir/src/library.rs; do not edit\n\
         (a test of that crate fails when this file is stale).\n\"\"\"\n\n",
    );
    out.push_str(
        "# `math` functions: name -> (fewest arguments, most arguments, typing, precision).\n\
         # typing: \"float\" (float32 in, float32 out), \"float_to_int\" (an int out),\n\
         # \"predicate\" (a bool out), \"log\" (`log(x[, base])`).\n\
         # precision: \"exact\" (every device gives CPython's result rounded to float32),\n\
         # \"own_exact\" (the compiler's own, exact), \"own\" (the compiler's own, within 4 ULP;\n\
         # --fast-math takes the device's), \"own_always\" (the compiler's own, within 4 ULP,\n\
         # also under --fast-math), \"device\" (the device's precision).\nMATH = {\n",
    );
    for r in LIBRARY.iter().filter(|r| r.module == Module::Math) {
        let typing = match r.typing {
            Typing::Float => "float",
            Typing::FloatToInt => "float_to_int",
            Typing::Predicate | Typing::IsFinite => "predicate",
            Typing::Log => "log",
            Typing::Constant(_) => continue,
            Typing::Own | Typing::Name => unreachable!("math rows are typed as floats"),
        };
        let _ = writeln!(
            out,
            "    {:?}: ({}, {}, {typing:?}, {:?}),",
            r.name,
            r.arity.0,
            r.arity.1,
            r.precision.python_name()
        );
    }
    out.push_str(
        "}\n\n# The `math` functions that take an f64 (on f64 operands, in f64).\nMATH_F64 = (\n",
    );
    for r in LIBRARY.iter().filter(|r| r.module == Module::Math) {
        if r.takes_f64() {
            let _ = writeln!(out, "    {:?},", r.name);
        }
    }
    out.push_str(")\n\n# `math` constants.\nMATH_CONSTANTS = {\n");
    for r in LIBRARY {
        if let Typing::Constant(v) = r.typing {
            let v = if v.is_nan() {
                "float(\"nan\")".to_string()
            } else if v.is_infinite() {
                "float(\"inf\")".to_string()
            } else {
                format!("{v:?}")
            };
            let _ = writeln!(out, "    {:?}: {v},", r.name);
        }
    }
    out.push_str("}\n\n# Every name `spirthon` exports for kernel code.\nSPIRTHON = (\n");
    for n in names(Module::Spirthon) {
        let _ = writeln!(out, "    {n:?},");
    }
    out.push_str(")\n\n");
    operator_tables(&mut out);
    out.push_str(
        "\n# The words of a checked launch's report (crates/spirthon-ir/src/checks.rs), with\n\
         # str.format fields.\nCHECK_REPORT = {\n",
    );
    for (name, template) in crate::checks::words::ALL {
        let _ = writeln!(out, "    {name:?}: {template:?},");
    }
    let _ = write!(
        out,
        "}}\n\n# The most threads a launch may ask for per axis (crates/spirthon-ir/src/abi.rs).\n\
         MAX_THREADS_PER_AXIS = {}\n",
        crate::abi::MAX_THREADS_PER_AXIS
    );
    out
}

/// The operator table (`crate::operators`) as Python data, for the reference executor's
/// tests.
fn operator_tables(out: &mut String) {
    use crate::operators::{binary, unary, KINDS};
    use core::fmt::Write;
    let result = |k: Option<crate::operators::Kind>| match k {
        Some(k) => format!("{:?}", k.name()),
        None => "None".to_string(),
    };
    out.push_str(
        "# The operators' typing rules (crates/spirthon-ir/src/operators.rs), which the compiler\n\
         # and the reference executor both follow. An operand is typed (\"i32\", \"u32\", \"f32\",\n\
         # \"bool\") or a literal (\"int\", \"negint\" for a negative one, \"float\").\nKINDS = (",
    );
    let names: Vec<String> = KINDS.iter().map(|k| format!("{:?}", k.name())).collect();
    out.push_str(&names.join(", "));
    out.push_str(
        ")\n\n# operator -> left kind -> the result for each right kind (in KINDS' order), None\n\
         # where the language refuses it.\nBINARY = {\n",
    );
    for op in crate::operators::BINARY {
        let _ = writeln!(out, "    {op:?}: {{");
        for a in KINDS {
            let row: Vec<String> = KINDS.iter().map(|&b| result(binary(op, a, b))).collect();
            let _ = writeln!(out, "        {:?}: ({}),", a.name(), row.join(", "));
        }
        out.push_str("    },\n");
    }
    out.push_str(
        "}\n\n# operator -> the result for each operand kind (in KINDS' order).\nUNARY = {\n",
    );
    for op in crate::operators::UNARY {
        let row: Vec<String> = KINDS.iter().map(|&a| result(unary(op, a))).collect();
        let _ = writeln!(out, "    {op:?}: ({}),", row.join(", "));
    }
    out.push_str("}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_math_fn_has_one_row_per_module() {
        for (i, a) in LIBRARY.iter().enumerate() {
            for b in &LIBRARY[i + 1..] {
                assert!(
                    !(a.module == b.module && a.name == b.name),
                    "{} twice",
                    a.name
                );
                assert!(
                    a.func.is_none() || a.module != b.module || a.func != b.func,
                    "{} and {} are both {:?}",
                    a.name,
                    b.name,
                    a.func
                );
            }
        }
    }

    #[test]
    fn lookups_find_their_rows() {
        assert_eq!(lookup(Module::Math, "atan2").map(|r| r.arity), Some((2, 2)));
        assert!(lookup(Module::Math, "abs").is_none());
        assert_eq!(of(Abs).map(|r| r.name), Some("abs"));
        assert_eq!(of(Floor).map(|r| r.name), Some("floor"));
        assert!(names(Module::Math).any(|n| n == "tau"));
    }

    /// docs/language.md lists every `math` name of this table, in its order, and names each
    /// function the module computes itself in its paragraph on precision.
    #[test]
    fn the_language_reference_lists_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/language.md");
        let doc = std::fs::read_to_string(path).expect("docs/language.md");
        let list = doc.split("- `math`: `").nth(1).expect("the `math` list");
        let list = &list[..list.find('`').expect("its end")];
        let listed: Vec<&str> = list.split_whitespace().collect();
        assert_eq!(listed, names(Module::Math).collect::<Vec<_>>());
        let start = doc
            .find("**Precision of some `math` functions.**")
            .expect("the paragraph");
        let paragraph = &doc[start..start + doc[start..].find("\n- **").expect("its end")];
        for p in [Precision::Own, Precision::OwnAlways, Precision::OwnExact] {
            for name in with_precision(Module::Math, p) {
                assert!(
                    paragraph.contains(&format!("`{name}`"))
                        || paragraph.contains(&format!("`math.{name}`")),
                    "docs/language.md does not say that `{name}` is the module's own"
                );
            }
        }
    }

    /// `python/spirthon/_library.py` is this table's current text.
    #[test]
    fn the_python_table_is_current() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../python/spirthon/_library.py"
        );
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == python_module(),
            "python/spirthon/_library.py is stale: run `cargo xtask library`"
        );
    }
}

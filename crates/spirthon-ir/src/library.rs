//! The built-in library, one row per name: the module it comes from, its arity, its typing
//! rule, how it folds on literals (in `f64`, as CPython computes) and on device constants (in
//! `f32`, only where the device gives the same bits), and how it is emitted (a GLSL.std.450
//! extended instruction per operand type, or the emitter's own sequence). Name resolution and
//! imports (`module`), arity checks, typing and literal folding (lowering), device folding
//! (`spirthon-mid`'s `opt`) and emission (`spirthon-spirv`) all read this table.
//!
//! Invariants: names are unique within a module; a row with `func: Some(f)` is the only row
//! of its module for `f`; `glsl` numbers are GLSL.std.450 instruction numbers (the emitter's
//! tests check them against rspirv's enum).

use crate::cfg::MathFn;
use crate::types::Scalar;

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

/// GLSL.std.450 instruction numbers per operand type; `None` where the emitter writes its own
/// sequence (or the type does not occur).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Glsl {
    pub f32: Option<u32>,
    pub i32: Option<u32>,
    pub u32: Option<u32>,
}

impl Glsl {
    const NONE: Glsl = Glsl {
        f32: None,
        i32: None,
        u32: None,
    };
    const fn float(n: u32) -> Glsl {
        Glsl {
            f32: Some(n),
            i32: None,
            u32: None,
        }
    }
    /// The instruction for operands of scalar type `s`.
    pub fn for_scalar(self, s: Scalar) -> Option<u32> {
        match s {
            Scalar::F32 => self.f32,
            Scalar::I32 => self.i32,
            Scalar::U32 => self.u32,
            Scalar::Bool => None,
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
    pub glsl: Glsl,
}

const fn math(name: &'static str, f: MathFn, arity: u8, host: Host, glsl: Option<u32>) -> Row {
    Row {
        name,
        module: Module::Math,
        func: Some(f),
        arity: (arity, arity),
        typing: Typing::Float,
        host,
        device: None,
        glsl: match glsl {
            Some(n) => Glsl::float(n),
            None => Glsl::NONE,
        },
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
        glsl: Glsl::NONE,
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
        glsl: Glsl::NONE,
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

/// Every built-in function and constant.
pub const LIBRARY: &[Row] = &[
    math("sqrt", Sqrt, 1, U(f64::sqrt), Some(31)),
    math("sin", Sin, 1, U(f64::sin), Some(13)),
    math("cos", Cos, 1, U(f64::cos), Some(14)),
    math("tan", Tan, 1, U(f64::tan), Some(15)),
    math("asin", Asin, 1, U(f64::asin), Some(16)),
    math("acos", Acos, 1, U(f64::acos), Some(17)),
    math("atan", Atan, 1, U(f64::atan), Some(18)),
    math("atan2", Atan2, 2, B(f64::atan2), Some(25)),
    math("sinh", Sinh, 1, U(f64::sinh), Some(19)),
    math("cosh", Cosh, 1, U(f64::cosh), Some(20)),
    math("tanh", Tanh, 1, U(f64::tanh), Some(21)),
    math("exp", Exp, 1, U(f64::exp), Some(27)),
    math("exp2", Exp2, 1, U(f64::exp2), Some(29)),
    typed(
        Row {
            arity: (1, 2),
            ..math("log", Log, 1, U(f64::ln), Some(28))
        },
        Typing::Log,
    ),
    math("log2", Log2, 1, U(f64::log2), Some(30)),
    math("log10", Log10, 1, U(f64::log10), None),
    math("pow", Pow, 2, B(f64::powf), Some(26)),
    // Emitted and folded as the built-in `abs` (below), which covers ints too.
    math("fabs", Abs, 1, U(f64::abs), Some(4)),
    with_device(
        typed(
            math("floor", Floor, 1, U(f64::floor), Some(8)),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.floor()),
    ),
    with_device(
        typed(
            math("ceil", Ceil, 1, U(f64::ceil), Some(9)),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.ceil()),
    ),
    with_device(
        typed(
            math("trunc", Trunc, 1, U(f64::trunc), Some(3)),
            Typing::FloatToInt,
        ),
        |x, _| Some(x.trunc()),
    ),
    with_device(
        math("copysign", Copysign, 2, B(f64::copysign), None),
        |x, y| Some(x.copysign(y)),
    ),
    math("hypot", Hypot, 2, B(f64::hypot), None),
    with_device(math("fmod", Fmod, 2, B(|a, b| a % b), None), |x, y| {
        (y != 0.0).then(|| x % y)
    }),
    typed(
        math("isnan", IsNan, 1, P(f64::is_nan), None),
        Typing::Predicate,
    ),
    typed(
        math("isinf", IsInf, 1, P(f64::is_infinite), None),
        Typing::Predicate,
    ),
    Row {
        func: None,
        typing: Typing::IsFinite,
        ..math("isfinite", IsNan, 1, P(f64::is_finite), None)
    },
    constant("pi", core::f64::consts::PI),
    constant("e", core::f64::consts::E),
    constant("tau", core::f64::consts::TAU),
    constant("inf", f64::INFINITY),
    constant("nan", f64::NAN),
    Row {
        name: "abs",
        module: Module::Builtins,
        func: Some(Abs),
        arity: (1, 1),
        typing: Typing::Own,
        host: Host::None,
        device: Some(|x, _| Some(x.abs())),
        glsl: Glsl {
            f32: Some(4),
            i32: Some(5),
            u32: Some(5),
        },
    },
    Row {
        name: "min",
        module: Module::Builtins,
        func: Some(Min),
        arity: (1, u8::MAX),
        typing: Typing::Own,
        host: Host::None,
        device: Some(|x, y| Some(x.min(y))),
        glsl: Glsl {
            f32: Some(37),
            i32: Some(39),
            u32: Some(38),
        },
    },
    Row {
        name: "max",
        module: Module::Builtins,
        func: Some(Max),
        arity: (1, u8::MAX),
        typing: Typing::Own,
        host: Host::None,
        device: Some(|x, y| Some(x.max(y))),
        glsl: Glsl {
            f32: Some(40),
            i32: Some(42),
            u32: Some(41),
        },
    },
    Row {
        name: "round",
        module: Module::Builtins,
        func: Some(RoundEven),
        arity: (1, 2),
        typing: Typing::Own,
        host: Host::Unary(f64::round_ties_even),
        device: Some(|x, _| Some(x.round_ties_even())),
        glsl: Glsl::float(2),
    },
    own("int", Module::Builtins, 1),
    own("float", Module::Builtins, 1),
    own("bool", Module::Builtins, 1),
    own("len", Module::Builtins, 1),
    own("i32", Module::Spirthon, 1),
    own("u32", Module::Spirthon, 1),
    own("f32", Module::Spirthon, 1),
    own("global_id", Module::Spirthon, 0),
    own("local_id", Module::Spirthon, 0),
    own("workgroup_id", Module::Spirthon, 0),
    own("num_workgroups", Module::Spirthon, 0),
    own("local_index", Module::Spirthon, 0),
    own("num_threads", Module::Spirthon, 0),
    own("shared_array", Module::Spirthon, 2),
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
    geometry("dot", Dot, 2, Glsl::NONE),
    geometry("cross", Cross, 2, Glsl::float(68)),
    geometry("length", Length, 1, Glsl::float(66)),
    geometry("distance", Distance, 2, Glsl::float(67)),
    geometry("normalize", Normalize, 1, Glsl::float(69)),
    // `min(max(x, lo), hi)` in lowering: Python's result also when `lo > hi`.
    own("clamp", Module::Spirthon, 3),
    geometry("mix", Mix, 3, Glsl::float(46)),
    geometry("step", Step, 2, Glsl::float(48)),
    geometry("smoothstep", SmoothStep, 3, Glsl::float(49)),
];

/// spirthon's vector and shading functions (typed by lowering's own rule: scalars and
/// vectors, with scalar arguments broadcast).
const fn geometry(name: &'static str, f: MathFn, arity: u8, glsl: Glsl) -> Row {
    Row {
        name,
        module: Module::Spirthon,
        func: Some(f),
        arity: (arity, arity),
        typing: Typing::Own,
        host: Host::None,
        device: None,
        glsl,
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
}

//! The typing rules of the operators on scalars, as one table: for each operator and each
//! pair of operand kinds (a typed `i32`, `u32`, `i64`, `u64`, `f32`, `f64`, `f16`, narrow int or `bool` value, or an int, negative
//! int or float literal), the kind of the result, or `None` where the kernel language
//! refuses it (docs/language.md, "Types" and "Expressions").
//!
//! The compiler (spirthon-frontend's lowering) and the reference executor
//! (`python/spirthon/scalars.py`, which reads this table through the generated
//! `_library.OPERATORS`) are both held to it by tests that enumerate every entry: the
//! compiler's by compiling each expression (`tests/operators.rs`), the executor's by
//! evaluating it (`python/tests/test_reference.py`). Vectors follow the same rules per
//! component (`lower/vectors.rs`).
//!
//! Invariant: a result is a literal kind only when every operand is a literal (the
//! expression folds, as CPython computes it); a typed operand makes the result typed. A
//! literal result is `Int` or `Float`, never `NegInt`.

use crate::types::Scalar;

/// An operand's kind, as the rules see it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    Typed(Scalar),
    /// An int literal (or constant), not negative.
    Int,
    /// A negative int literal.
    NegInt,
    /// A float literal.
    Float,
}

/// Every operand kind, in the order the tables list them.
pub const KINDS: [Kind; 15] = [
    Kind::Typed(Scalar::I32),
    Kind::Typed(Scalar::U32),
    Kind::Typed(Scalar::F32),
    Kind::Typed(Scalar::Bool),
    Kind::Typed(Scalar::F64),
    Kind::Typed(Scalar::I8),
    Kind::Typed(Scalar::U8),
    Kind::Typed(Scalar::I16),
    Kind::Typed(Scalar::U16),
    Kind::Typed(Scalar::F16),
    Kind::Typed(Scalar::I64),
    Kind::Typed(Scalar::U64),
    Kind::Int,
    Kind::NegInt,
    Kind::Float,
];

/// Every binary operator and comparison, by its Python spelling.
pub const BINARY: [&str; 18] = [
    "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==",
    "!=",
];

/// Every unary operator.
pub const UNARY: [&str; 4] = ["-", "+", "~", "not"];

impl Kind {
    /// The name the generated Python table and the tests use.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Typed(s) => s.name(),
            Kind::Int => "int",
            Kind::NegInt => "negint",
            Kind::Float => "float",
        }
    }

    fn literal(self) -> bool {
        !matches!(self, Kind::Typed(_))
    }

    fn int_typed(self) -> bool {
        matches!(self, Kind::Typed(s) if s.is_int())
    }

    fn float_typed(self) -> bool {
        matches!(self, Kind::Typed(s) if s.is_float())
    }
}

const BOOL: Kind = Kind::Typed(Scalar::Bool);
const F32: Kind = Kind::Typed(Scalar::F32);
const F64: Kind = Kind::Typed(Scalar::F64);

/// The float type `a / b` computes in: an operand's float type (two float types do not
/// mix), else `f32`.
fn true_div(a: Kind, b: Kind) -> Option<Kind> {
    if a == BOOL || b == BOOL {
        return None;
    }
    match (a.float_typed().then_some(a), b.float_typed().then_some(b)) {
        (Some(x), Some(y)) if x != y => None,
        (Some(x), _) | (_, Some(x)) => Some(x),
        (None, None) => Some(F32),
    }
}

/// The result of `a op b`, or `None` where the language refuses it. `op` is one of
/// [`BINARY`].
pub fn binary(op: &str, a: Kind, b: Kind) -> Option<Kind> {
    if a.literal() && b.literal() {
        return literal_binary(op, a, b);
    }
    match op {
        "+" | "-" | "*" | "//" | "%" => {
            if a == BOOL || b == BOOL {
                return None;
            }
            unify(a, b)
        }
        "/" => true_div(a, b),
        "**" => power(a, b),
        "<<" | ">>" => shift(a, b),
        "&" | "|" | "^" => match unify(a, b)? {
            k if k.float_typed() => None,
            k => Some(k),
        },
        "==" | "!=" => unify(a, b).map(|_| BOOL),
        "<" | "<=" | ">" | ">=" => match unify(a, b)? {
            k if k == BOOL => None,
            _ => Some(BOOL),
        },
        _ => None,
    }
}

/// The type two operands meet in: a literal takes the typed operand's type (a float literal
/// makes an int value float), int and float values meet in the float's type, two int types
/// do not mix (`i32` and `u32`, `u8` and `i32`, …), nor do `f32` and `f64`, bools meet only
/// bools, and a negative literal does not become an unsigned type.
fn unify(a: Kind, b: Kind) -> Option<Kind> {
    match (a, b) {
        (Kind::Typed(x), Kind::Typed(y)) if x == y => Some(a),
        (Kind::Typed(x), Kind::Typed(y)) => {
            let int_float = |p: Scalar, q: Scalar| p.is_int() && q.is_float();
            if int_float(x, y) {
                Some(b)
            } else {
                int_float(y, x).then_some(a)
            }
        }
        (Kind::Typed(t), lit) | (lit, Kind::Typed(t)) => literal_meets(lit, t),
        _ => None,
    }
}

/// A literal meeting a value of type `t`.
fn literal_meets(lit: Kind, t: Scalar) -> Option<Kind> {
    match (lit, t) {
        (_, Scalar::Bool) => None,
        (Kind::Float, s) if s.is_float() => Some(Kind::Typed(s)),
        (Kind::Float, _) => Some(F32),
        (Kind::NegInt, s) if s.is_int() && !s.is_signed() => None,
        _ => Some(Kind::Typed(t)),
    }
}

/// `a ** b`: a non-negative int literal exponent keeps the base's type (repeated
/// multiplication), a negative one gives the base's float type (`f32` for an int); `int **
/// int` with a run-time exponent is refused (Python's result type would depend on its
/// sign); anything else is `pow`, in `f64` when a side is one (with no `f32` on the other:
/// the two do not mix), else in `f32` (`f16` has no `pow` yet: only int literal exponents).
fn power(a: Kind, b: Kind) -> Option<Kind> {
    if a == BOOL || b == BOOL {
        return None;
    }
    let no_pow = |k: Kind| k == Kind::Typed(Scalar::F16);
    match b {
        Kind::Int => Some(a),
        Kind::NegInt if a.float_typed() => Some(a),
        Kind::NegInt => Some(F32),
        _ if no_pow(a) || no_pow(b) => None,
        _ if b.int_typed() && (a.int_typed() || matches!(a, Kind::Int | Kind::NegInt)) => None,
        _ if a == F64 || b == F64 => (a != F32 && b != F32).then_some(F64),
        _ => Some(F32),
    }
}

/// `a << b`, `a >> b`: integers only, the result the left operand's type (a literal on the
/// left takes the count's); the count may be either int type.
fn shift(a: Kind, b: Kind) -> Option<Kind> {
    let t = match a {
        Kind::Typed(_) => a,
        Kind::Float => return None,
        _ => b,
    };
    if !t.int_typed() {
        return None;
    }
    let Kind::Typed(ts) = t else { return None };
    if a.literal() && literal_meets(a, ts) != Some(t) {
        return None;
    }
    match b {
        Kind::Typed(_) => b.int_typed().then_some(t),
        // A negative constant count: Python raises `ValueError` on every run.
        Kind::NegInt => None,
        lit => literal_meets(lit, ts).filter(|k| *k == t),
    }
}

/// Both operands literals: CPython's result kind (folded); `None` where CPython raises
/// `TypeError` for these kinds (floats in bitwise operators and shifts) or `ValueError` (a
/// negative shift count), or gives a complex number (the literal kinds stand for the values
/// of the tests: a negative int, a fractional float).
fn literal_binary(op: &str, a: Kind, b: Kind) -> Option<Kind> {
    let float = a == Kind::Float || b == Kind::Float;
    match op {
        "/" => Some(Kind::Float),
        // A negative base to a fractional power is complex in Python.
        "**" if a == Kind::NegInt && b == Kind::Float => None,
        "**" if b == Kind::NegInt => Some(Kind::Float),
        "<<" | ">>" if float || b == Kind::NegInt => None,
        "&" | "|" | "^" if float => None,
        "<" | "<=" | ">" | ">=" | "==" | "!=" => Some(BOOL),
        _ if float => Some(Kind::Float),
        _ => Some(Kind::Int),
    }
}

/// The result of `op a` (`-`, `+`, `~`, `not`), or `None` where the language refuses it.
/// A literal's result is a literal (its sign is not a kind of its own among results).
pub fn unary(op: &str, a: Kind) -> Option<Kind> {
    match (op, a) {
        ("not", _) => Some(BOOL),
        (_, k) if k == BOOL => None,
        ("-" | "+", Kind::Int | Kind::NegInt) => Some(Kind::Int),
        ("-" | "+", k) => Some(k),
        ("~", Kind::Float) => None,
        ("~", Kind::Int | Kind::NegInt) => Some(Kind::Int),
        ("~", k) => k.int_typed().then_some(k),
        _ => None,
    }
}

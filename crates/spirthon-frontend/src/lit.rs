//! Compile-time literals: Python's arithmetic on int and float literals and module constants,
//! before they meet a typed operand. Ints are exact as in CPython, within 64 bits (from
//! `-2**63` to `2**64 - 1`, so that an `i64` or a `u64` literal can be written); floats
//! are computed in `f64` as CPython does and rounded to `f32` when they become a value.

use crate::ast::{BinaryOp, UnaryOp};
use spirthon_ir::cfg::CmpOp;
use spirthon_ir::{pyarith, Const, Scalar};

#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Lit {
    Int(i128),
    Float(f64),
    Bool(bool),
}

impl Lit {
    fn as_f64(self) -> f64 {
        match self {
            Lit::Int(i) => i as f64,
            Lit::Float(f) => f,
            Lit::Bool(b) => b as u8 as f64,
        }
    }
    fn as_int(self) -> Option<i128> {
        match self {
            Lit::Int(i) => Some(i),
            Lit::Bool(b) => Some(b as i128),
            Lit::Float(_) => None,
        }
    }
    pub fn truthy(self) -> bool {
        match self {
            Lit::Int(i) => i != 0,
            Lit::Float(f) => f != 0.0,
            Lit::Bool(b) => b,
        }
    }
    /// The type a literal gets on its own: `i32` when it fits, else `u32`; `f32`; `bool`.
    pub fn default_scalar(self) -> Result<Scalar, String> {
        match self {
            Lit::Int(i) if i32::try_from(i).is_ok() => Ok(Scalar::I32),
            Lit::Int(i) if u32::try_from(i).is_ok() => Ok(Scalar::U32),
            Lit::Int(i) => Err(format!(
                "the constant {i} does not fit in 32 bits: write `i64({i})` or `u64({i})` for a 64-bit int"
            )),
            Lit::Float(_) => Ok(Scalar::F32),
            Lit::Bool(_) => Ok(Scalar::Bool),
        }
    }
    /// This literal as a constant of type `s`, or why it cannot be one.
    pub fn to_const(self, s: Scalar) -> Result<Const, String> {
        match (self, s) {
            (Lit::Bool(b), Scalar::Bool) => Ok(Const::Bool(b)),
            (Lit::Int(i), Scalar::I32) => i32::try_from(i)
                .map(Const::I32)
                .map_err(|_| format!("the constant {i} does not fit in i32")),
            (Lit::Int(i), Scalar::U32) => u32::try_from(i)
                .map(Const::U32)
                .map_err(|_| format!("the constant {i} does not fit in u32")),
            (Lit::Int(i), s @ (Scalar::I64 | Scalar::U64)) => match s.int_range() {
                Some((lo, hi)) if (lo..=hi).contains(&i) => Ok(if s == Scalar::I64 {
                    Const::I64(i as i64)
                } else {
                    Const::U64(i as u64)
                }),
                _ => Err(format!("the constant {i} does not fit in {}", s.name())),
            },
            (Lit::Int(i), Scalar::F32) => Ok(Const::f32(i as f32)),
            (Lit::Float(f), Scalar::F32) => Ok(Const::f32(f as f32)),
            (Lit::Int(i), Scalar::F64) => Ok(Const::f64(i as f64)),
            // An int or float meeting an `f16` is rounded to half once, from its value
            // (an int past 2**53 is rounded to a double first, which cannot change the half
            // it rounds to: halves stop at 65504).
            (Lit::Int(i), Scalar::F16) => Ok(Const::float(Scalar::F16, i as f64)),
            (Lit::Float(f), Scalar::F16) => Ok(Const::float(Scalar::F16, f)),
            (Lit::Int(i), s) if s.is_narrow() => match s.int_range() {
                Some((lo, hi)) if (lo..=hi).contains(&i) => Ok(Const::Narrow(s, i as i32)),
                _ => Err(format!("the constant {i} does not fit in {}", s.name())),
            },
            (Lit::Float(f), Scalar::F64) => Ok(Const::f64(f)),
            (Lit::Float(f), _) => Err(format!(
                "the float {f:?} cannot become an integer implicitly: use int()"
            )),
            (_, Scalar::Bool) => Err("a number cannot be used as a bool here: use bool()".into()),
            (Lit::Bool(_), _) => Err("a bool cannot be used as a number here: use int()".into()),
            (Lit::Int(i), s) => Err(format!("the constant {i} cannot be {}", s.name())),
        }
    }
}

impl Lit {
    /// The literal a typed module constant (`GAIN: f32 = 0.1`) stands for in a constant
    /// expression: its value as the kernel holds it (an `f32` rounded to single precision),
    /// as a Python number again. `None` when the value does not have that type.
    pub fn typed(self, s: Scalar) -> Option<Lit> {
        Some(match self.to_const(s).ok()? {
            Const::Bool(b) => Lit::Bool(b),
            Const::I32(i) => Lit::Int(i128::from(i)),
            Const::U32(u) => Lit::Int(i128::from(u)),
            Const::I64(i) => Lit::Int(i128::from(i)),
            Const::U64(u) => Lit::Int(i128::from(u)),
            Const::F32(bits) => Lit::Float(f64::from(f32::from_bits(bits))),
            Const::F64(bits) => Lit::Float(f64::from_bits(bits)),
            Const::Narrow(_, v) => Lit::Int(v.into()),
            Const::F16(h) => Lit::Float(spirthon_ir::half::value(h)),
        })
    }
}

const TOO_BIG: &str =
    "constant expression overflows: integers are at most 64-bit (from -2**63 to 2**64 - 1)";

/// `v` when it lies in the range literals keep (`-2**63` to `2**64 - 1`).
fn in_range(v: i128) -> Option<i128> {
    (i128::from(i64::MIN)..=i128::from(u64::MAX))
        .contains(&v)
        .then_some(v)
}

/// `a op b` on literals, as CPython computes it.
/// Python's position of index `k` in a sequence of `len` items known at compile time: a
/// negative one counts from the end; `None` out of range (Python raises `IndexError`).
pub fn sequence_index(k: i128, len: usize) -> Option<usize> {
    let n = len as i128;
    (-n..n).contains(&k).then(|| k.rem_euclid(n) as usize)
}

pub fn binary(op: BinaryOp, a: Lit, b: Lit) -> Result<Lit, String> {
    use BinaryOp::*;
    if op == MatMul {
        return Err("`@` multiplies matrices and vectors, not numbers".into());
    }
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        let big = || TOO_BIG.to_string();
        let zero = || "division by zero in a constant expression".to_string();
        return Ok(match op {
            Add => Lit::Int(x.checked_add(y).and_then(in_range).ok_or_else(big)?),
            Sub => Lit::Int(x.checked_sub(y).and_then(in_range).ok_or_else(big)?),
            Mul => Lit::Int(x.checked_mul(y).and_then(in_range).ok_or_else(big)?),
            Div if y == 0 => return Err(zero()),
            Div => Lit::Float(x as f64 / y as f64),
            FloorDiv => Lit::Int(pyarith::floor_div(x, y).ok_or_else(zero)?),
            Mod => Lit::Int(pyarith::modulo(x, y).ok_or_else(zero)?),
            Pow if y < 0 => Lit::Float(float_power(x as f64, y as f64)?),
            Pow => Lit::Int(
                u32::try_from(y)
                    .ok()
                    .and_then(|y| x.checked_pow(y))
                    .and_then(in_range)
                    .ok_or_else(big)?,
            ),
            Shl if !(0..65).contains(&y) => return Err(big()),
            Shl => Lit::Int(
                x.checked_shl(y as u32)
                    .filter(|v| v >> y == x)
                    .and_then(in_range)
                    .ok_or_else(big)?,
            ),
            Shr if y < 0 => return Err("negative shift count".into()),
            Shr => Lit::Int(x >> y.min(127)),
            BitOr if matches!((a, b), (Lit::Bool(_), Lit::Bool(_))) => Lit::Bool(x | y != 0),
            BitAnd if matches!((a, b), (Lit::Bool(_), Lit::Bool(_))) => Lit::Bool(x & y != 0),
            BitXor if matches!((a, b), (Lit::Bool(_), Lit::Bool(_))) => Lit::Bool(x ^ y != 0),
            BitOr => Lit::Int(x | y),
            BitAnd => Lit::Int(x & y),
            BitXor => Lit::Int(x ^ y),
            MatMul => unreachable!("refused above"),
        });
    }
    let (x, y) = (a.as_f64(), b.as_f64());
    Ok(Lit::Float(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div | FloorDiv | Mod if y == 0.0 => {
            return Err("division by zero in a constant expression".into())
        }
        Div => x / y,
        FloorDiv => pyarith::float_floor_div(x, y),
        Mod => pyarith::float_mod(x, y),
        Pow => float_power(x, y)?,
        _ => {
            return Err(format!(
                "`{}` needs integer operands, not floats",
                op.symbol()
            ))
        }
    }))
}

/// `x ** y` on float literals, or CPython's error: a negative base with a fractional
/// exponent is a complex number, zero to a negative power raises `ZeroDivisionError`, and a
/// finite result too big for a double raises `OverflowError`.
fn float_power(x: f64, y: f64) -> Result<f64, String> {
    if x < 0.0 && y.is_finite() && y.fract() != 0.0 {
        return Err(format!(
            "`({x:?}) ** {y:?}` is a complex number in Python, which kernels do not have"
        ));
    }
    if x == 0.0 && y < 0.0 {
        return Err("0.0 cannot be raised to a negative power".into());
    }
    let r = x.powf(y);
    if r.is_infinite() && x.is_finite() && y.is_finite() {
        return Err("constant expression overflows a float".into());
    }
    Ok(r)
}

pub fn unary(op: UnaryOp, a: Lit) -> Result<Lit, String> {
    Ok(match (op, a) {
        (UnaryOp::Not, _) => Lit::Bool(!a.truthy()),
        (UnaryOp::Neg, Lit::Float(f)) => Lit::Float(-f),
        (UnaryOp::Neg, _) => {
            Lit::Int(in_range(-a.as_int().unwrap_or(0)).ok_or_else(|| TOO_BIG.to_string())?)
        }
        (UnaryOp::Pos, Lit::Bool(b)) => Lit::Int(b as i128),
        (UnaryOp::Pos, _) => a,
        (UnaryOp::Invert, Lit::Float(_)) => return Err("`~` needs an integer, not a float".into()),
        (UnaryOp::Invert, _) => Lit::Int(!a.as_int().unwrap_or(0)),
    })
}

pub fn compare(op: CmpOp, a: Lit, b: Lit) -> bool {
    let ord = match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64().partial_cmp(&b.as_f64()),
    };
    op.holds(ord)
}

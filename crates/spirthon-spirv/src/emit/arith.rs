//! Python's arithmetic in SPIR-V instructions, where it is not one instruction: integer
//! `//` and `%` (floored, without `OpSRem`/`OpSMod`), float `%` and `//` (CPython's
//! `float_rem` and `float_floor_div`, signed zeros included), comparisons, conversions with
//! Python's semantics, and the `math` functions that GLSL.std.450 lacks. The steps follow
//! spirthon-ir's `pyarith`, which folding uses.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::cfg::*;
use spirthon_ir::{Const, Scalar, Ty};

use super::{EmitError, Emitter, R};

/// `op a` into `id`, for an operand of scalar type `s`.
pub(super) fn unary(e: &mut Emitter, op: UnOp, s: Scalar, rt: Word, id: Word, a: Word) -> R<()> {
    let out = Some(id);
    let s = s.carrier();
    match (op, s) {
        (UnOp::Neg, Scalar::F32 | Scalar::F64) => e.b.op(SOp::FNegate, rt, out, &[a])?,
        // `-u` wraps modulo 2**32 (2**64); naga takes no negation of an unsigned value.
        (UnOp::Neg, Scalar::U32 | Scalar::U64) => {
            let zero = e.konst(Const::zero(s));
            e.b.op(SOp::ISub, rt, out, &[zero, a])?
        }
        (UnOp::Neg, _) => e.b.op(SOp::SNegate, rt, out, &[a])?,
        (UnOp::Not, _) => e.b.op(SOp::LogicalNot, rt, out, &[a])?,
        (UnOp::BitNot, _) => e.b.op(SOp::Not, rt, out, &[a])?,
    };
    Ok(())
}

/// `a op b` into `id`; `b_const` is `b`'s value when it is a constant. Shifts are
/// [`shift`]'s, which needs to know more of the count than whether it is a constant.
#[allow(clippy::too_many_arguments)]
pub(super) fn binary(
    e: &mut Emitter,
    op: BinOp,
    t: Ty,
    rt: Word,
    id: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<()> {
    let out = Some(id);
    let s = t.scalar();
    match (op, s) {
        (BinOp::Add, Scalar::F32 | Scalar::F64) => exact(e, SOp::FAdd, rt, id, a, b)?,
        (BinOp::Add, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::IAdd, rt, out, &[a, b])?
        }
        (BinOp::Sub, Scalar::F32 | Scalar::F64) => exact(e, SOp::FSub, rt, id, a, b)?,
        (BinOp::Sub, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::ISub, rt, out, &[a, b])?
        }
        (BinOp::Mul, Scalar::F32 | Scalar::F64) => exact(e, SOp::FMul, rt, id, a, b)?,
        (BinOp::Mul, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::IMul, rt, out, &[a, b])?
        }
        (BinOp::Div, Scalar::F32 | Scalar::F64) => e.b.op(SOp::FDiv, rt, out, &[a, b])?,
        (BinOp::FloorDiv, Scalar::U32 | Scalar::U64) => e.b.op(SOp::UDiv, rt, out, &[a, b])?,
        (BinOp::Mod, Scalar::U32 | Scalar::U64) => e.b.op(SOp::UMod, rt, out, &[a, b])?,
        (BinOp::FloorDiv, Scalar::I32 | Scalar::I64) => int_floor_div(e, s, rt, id, a, b, b_const)?,
        (BinOp::Mod, Scalar::I32 | Scalar::I64) => int_mod(e, s, rt, id, a, b, b_const)?,
        (BinOp::Mod, Scalar::F32 | Scalar::F64) => float_mod(e, t, rt, id, a, b)?,
        (BinOp::FloorDiv, Scalar::F32 | Scalar::F64) => float_floor_div(e, t, rt, id, a, b)?,
        (BinOp::BitAnd | BinOp::And, Scalar::Bool) => e.b.op(SOp::LogicalAnd, rt, out, &[a, b])?,
        (BinOp::BitOr | BinOp::Or, Scalar::Bool) => e.b.op(SOp::LogicalOr, rt, out, &[a, b])?,
        (BinOp::BitXor, Scalar::Bool) => e.b.op(SOp::LogicalNotEqual, rt, out, &[a, b])?,
        (BinOp::BitAnd, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::BitwiseAnd, rt, out, &[a, b])?
        }
        (BinOp::BitOr, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::BitwiseOr, rt, out, &[a, b])?
        }
        (BinOp::BitXor, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => {
            e.b.op(SOp::BitwiseXor, rt, out, &[a, b])?
        }
        (op, s) => return Err(EmitError(format!("no {op:?} on {s:?}"))),
    };
    Ok(())
}

/// `a << b` or `a >> b` as Python computes them on 32- or 64-bit integers (then wrapped):
/// a count of the width or more shifts every bit out, so `<<` and an unsigned `>>` give 0
/// and a signed `>>` its sign (0 or -1), where SPIR-V leaves such a shift undefined
/// (lavapipe takes the count modulo 32). A count read as unsigned, so a negative one
/// (Python raises `ValueError`) gives the same. `small`: the count is known to be below the
/// width, and the plain instruction does. Per component for int vectors. The count has the
/// operand's type.
#[allow(clippy::too_many_arguments)]
pub(super) fn shift(
    e: &mut Emitter,
    op: BinOp,
    t: Ty,
    rt: Word,
    id: Word,
    a: Word,
    b: Word,
    small: bool,
) -> R<Word> {
    let out = Some(id);
    let s = t.scalar();
    let signed = s.is_signed();
    let (us, width) = if s.is_int64() {
        (Scalar::U64, 64u32)
    } else {
        (Scalar::U32, 32)
    };
    let unsigned_const = |v: u32| {
        if us == Scalar::U64 {
            Const::U64(v.into())
        } else {
            Const::U32(v)
        }
    };
    if small {
        let sop = match (op, signed) {
            (BinOp::Shl, _) => SOp::ShiftLeftLogical,
            (_, true) => SOp::ShiftRightArithmetic,
            (_, false) => SOp::ShiftRightLogical,
        };
        return e.b.op(sop, rt, out, &[a, b]);
    }
    if op == BinOp::Shr && signed {
        // Shifting by the width less one already leaves only the sign.
        let thirty_one = e.splat(unsigned_const(width - 1), t);
        let ut = e.ty(with_scalar(t, us));
        let count = e.b.op(SOp::Bitcast, ut, None, &[b])?;
        let glsl = e.glsl;
        let clamped =
            e.b.ext_inst(ut, None, glsl, GLOp::UMin as u32, &[count, thirty_one])?;
        let clamped = e.b.op(SOp::Bitcast, rt, None, &[clamped])?;
        return e.b.op(SOp::ShiftRightArithmetic, rt, out, &[a, clamped]);
    }
    let sop = if op == BinOp::Shl {
        SOp::ShiftLeftLogical
    } else {
        SOp::ShiftRightLogical
    };
    let shifted = e.b.op(sop, rt, None, &[a, b])?;
    let ut = e.ty(with_scalar(t, us));
    let count = if signed {
        e.b.op(SOp::Bitcast, ut, None, &[b])?
    } else {
        b
    };
    let limit = e.splat(unsigned_const(width), t);
    let bt = e.ty(with_scalar(t, Scalar::Bool));
    let out_of_range = e.b.op(SOp::UGreaterThanEqual, bt, None, &[count, limit])?;
    let zero = e.splat(Const::zero(t.scalar()), t);
    e.b.op(SOp::Select, rt, out, &[out_of_range, zero, shifted])
}

/// `trunc(x)` of an `f64` (of `t`'s shape) as `x < 0 ? ceil(x) : floor(x)`, into `out`.
/// GLSL.std.450's `Trunc` and `RoundEven` of doubles are not trusted: lavapipe's `Trunc`
/// rounds a negative double beyond 2^31 down (`trunc(-1e15 - 0.5)` gives `-1e15 - 1`) and its
/// `RoundEven` rounds 1.5 and 3.5 down, while its `Floor` and `Ceil` are exact.
fn f64_trunc(e: &mut Emitter, t: Ty, x: Word, out: Option<Word>) -> R<Word> {
    let (dt, bt) = (e.ty(t), e.ty(with_scalar(t, Scalar::Bool)));
    let glsl = e.glsl;
    let zero = e.splat(Const::f64(0.0), t);
    let down = e.b.ext_inst(dt, None, glsl, GLOp::Floor as u32, &[x])?;
    let up = e.b.ext_inst(dt, None, glsl, GLOp::Ceil as u32, &[x])?;
    let negative = e.b.op(SOp::FOrdLessThan, bt, None, &[x, zero])?;
    e.b.op(SOp::Select, dt, out, &[negative, up, down])
}

/// `round(x)` of an `f64`, half to even, into `id`: `floor(x)`, plus one above the half and
/// at the half when the floor is odd (`x - floor(x)` is exact; past 2^52 every double is
/// whole, and the fraction is 0).
fn f64_round_even(e: &mut Emitter, t: Ty, x: Word, id: Word) -> R<Word> {
    let (dt, bt) = (e.ty(t), e.ty(with_scalar(t, Scalar::Bool)));
    let glsl = e.glsl;
    let (half, one, two) = (
        e.splat(Const::f64(0.5), t),
        e.splat(Const::f64(1.0), t),
        e.splat(Const::f64(2.0), t),
    );
    let fl = e.b.ext_inst(dt, None, glsl, GLOp::Floor as u32, &[x])?;
    let frac = e.b.op(SOp::FSub, dt, None, &[x, fl])?;
    let above = e.b.op(SOp::FOrdGreaterThan, bt, None, &[frac, half])?;
    let tie = e.b.op(SOp::FOrdEqual, bt, None, &[frac, half])?;
    // `fl` is odd when `fl - 2·floor(fl / 2)` is one (exact below 2^53).
    let halved = e.b.op(SOp::FMul, dt, None, &[fl, half])?;
    let halved =
        e.b.ext_inst(dt, None, glsl, GLOp::Floor as u32, &[halved])?;
    let even = e.b.op(SOp::FMul, dt, None, &[halved, two])?;
    let parity = e.b.op(SOp::FSub, dt, None, &[fl, even])?;
    let odd = e.b.op(SOp::FOrdEqual, bt, None, &[parity, one])?;
    let odd_tie = e.b.op(SOp::LogicalAnd, bt, None, &[tie, odd])?;
    let bump = e.b.op(SOp::LogicalOr, bt, None, &[above, odd_tie])?;
    let next = e.b.op(SOp::FAdd, dt, None, &[fl, one])?;
    e.b.op(SOp::Select, dt, Some(id), &[bump, next, fl])
}

/// The narrow type `t` (a narrow scalar, or a vector of one, component by component) from
/// `value`, computed in its 32-bit carrier, into `id`: for an int (`i8 u8 i16 u16`) the
/// low bits kept, sign-extended for a signed type, as NumPy's fixed-width ints wrap; for
/// `f16` the nearest half.
pub(super) fn wrap_narrow(e: &mut Emitter, t: Ty, value: Word, id: Word) -> R<Word> {
    let s = t.scalar();
    if s == Scalar::F16 {
        return super::half::quantize(e, t, value, id);
    }
    let rt = e.ty(with_scalar(t, s.carrier()));
    let bits = s.bits();
    if s.is_signed() {
        let k = e.splat(Const::U32(32 - bits), with_scalar(t, Scalar::U32));
        let up = e.b.op(SOp::ShiftLeftLogical, rt, None, &[value, k])?;
        e.b.op(SOp::ShiftRightArithmetic, rt, Some(id), &[up, k])
    } else {
        let mask = e.splat(Const::U32((1u32 << bits) - 1), with_scalar(t, Scalar::U32));
        e.b.op(SOp::BitwiseAnd, rt, Some(id), &[value, mask])
    }
}

/// `t`'s shape (scalar, or vector of its size) with components of type `s`.
fn with_scalar(t: Ty, s: Scalar) -> Ty {
    match t.as_vector() {
        Some((_, n)) => Ty::Vector(s, n),
        None => Ty::Scalar(s),
    }
}

/// The signed int constant `v` of type `s` (`i32` or `i64`).
fn signed(s: Scalar, v: i32) -> Const {
    if s == Scalar::I64 {
        Const::I64(v.into())
    } else {
        Const::I32(v)
    }
}

/// Python's `a // b` on a signed int type `s` (`i32`, `i64`): the truncated quotient, minus
/// one when the remainder is non-zero and its sign differs from the divisor's.
#[allow(clippy::too_many_arguments)]
fn int_floor_div(
    e: &mut Emitter,
    s: Scalar,
    rt: Word,
    id: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<Word> {
    let (q, r, minus_one) = int_div_rem(e, s, rt, a, b, b_const)?;
    // `INT_MIN // -1` wraps, as every int result does: the quotient is `-a`.
    let q = match minus_one {
        Some(m1) => {
            let neg = e.b.op(SOp::SNegate, rt, None, &[a])?;
            e.b.op(SOp::Select, rt, None, &[m1, neg, q])?
        }
        None => q,
    };
    let fix = int_fixup(e, s, rt, r, b)?;
    let (one, zero) = (e.konst(signed(s, 1)), e.konst(signed(s, 0)));
    let adj = e.b.op(SOp::Select, rt, None, &[fix, one, zero])?;
    e.b.op(SOp::ISub, rt, Some(id), &[q, adj])
}

/// The float `a op b` (`+ - *`) into `id`, decorated `NoContraction` so that the driver
/// does not fuse a product into a sum (`a * b + c` into an FMA, which SPIR-V otherwise
/// allows): each operation rounds once, as in Python and in the reference executor, whose
/// results then agree to the bit. `--fast-math` leaves the fusing to the driver.
fn exact(e: &mut Emitter, op: SOp, rt: Word, id: Word, a: Word, b: Word) -> R<Word> {
    if !e.fast_math {
        e.b.decorate(id, rspirv::spirv::Decoration::NoContraction, &[]);
    }
    e.b.op(op, rt, Some(id), &[a, b])
}

/// Python's `a % b` on a signed int type `s`: the truncated remainder, plus `b` when its
/// sign is wrong.
#[allow(clippy::too_many_arguments)]
fn int_mod(
    e: &mut Emitter,
    s: Scalar,
    rt: Word,
    id: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<Word> {
    let (_, r, _) = int_div_rem(e, s, rt, a, b, b_const)?;
    let fix = int_fixup(e, s, rt, r, b)?;
    let zero = e.konst(signed(s, 0));
    let adj = e.b.op(SOp::Select, rt, None, &[fix, b, zero])?;
    e.b.op(SOp::IAdd, rt, Some(id), &[r, adj])
}

/// Python's float `a % b` (CPython's `float_rem`).
fn float_mod(e: &mut Emitter, t: Ty, rt: Word, id: Word, a: Word, b: Word) -> R<Word> {
    let s = t.scalar();
    let r = super::accurate::remainder(e, t, rt, a, b)?;
    let fix = float_fixup(e, s, r, b)?;
    let rb = e.b.op(SOp::FAdd, rt, None, &[r, b])?;
    let m = e.b.op(SOp::Select, rt, None, &[fix, rb, r])?;
    // A zero remainder takes the divisor's sign too.
    let b_bits = sign_word(e, s, b)?;
    signed_zero(e, s, rt, id, r, b_bits, m)
}

/// A word whose top bit is the sign of float `x` of scalar type `s`: its bits for an `f32`;
/// for an `f64`, those of the `f32` nearest to it (a conversion keeps the sign, of a zero
/// too), as its own bits need 64-bit ints.
fn sign_word(e: &mut Emitter, s: Scalar, x: Word) -> R<Word> {
    let u = e.ty(Ty::U32);
    let x = if s == Scalar::F64 {
        let ft = e.ty(Ty::F32);
        e.b.op(SOp::FConvert, ft, None, &[x])?
    } else {
        x
    };
    e.b.op(SOp::Bitcast, u, None, &[x])
}

/// Python's float `a // b` (CPython's `float_floor_div`): `(a - fmod(a, b)) / b`, less one
/// when the remainder's sign is wrong, rounded to the nearest integral value.
fn float_floor_div(e: &mut Emitter, t: Ty, rt: Word, id: Word, a: Word, b: Word) -> R<Word> {
    let s = t.scalar();
    let m = super::accurate::remainder(e, t, rt, a, b)?;
    let am = e.b.op(SOp::FSub, rt, None, &[a, m])?;
    let div = e.b.op(SOp::FDiv, rt, None, &[am, b])?;
    let fix = float_fixup(e, s, m, b)?;
    let one = e.konst(Const::float(s, 1.0));
    let dm1 = e.b.op(SOp::FSub, rt, None, &[div, one])?;
    let div = e.b.op(SOp::Select, rt, None, &[fix, dm1, div])?;
    let glsl = e.glsl;
    let fl = e.b.ext_inst(rt, None, glsl, GLOp::Floor as u32, &[div])?;
    let frac = e.b.op(SOp::FSub, rt, None, &[div, fl])?;
    let half = e.konst(Const::float(s, 0.5));
    let bt = e.ty(Ty::BOOL);
    let up = e.b.op(SOp::FOrdGreaterThan, bt, None, &[frac, half])?;
    let fl1 = e.b.op(SOp::FAdd, rt, None, &[fl, one])?;
    let q = e.b.op(SOp::Select, rt, None, &[up, fl1, fl])?;
    // A zero quotient has the sign of a / b (`-0.0 // 1.5` is `-0.0`).
    let u = e.ty(Ty::U32);
    let (ab, bb) = (sign_word(e, s, a)?, sign_word(e, s, b)?);
    let sign_of_quotient = e.b.op(SOp::BitwiseXor, u, None, &[ab, bb])?;
    signed_zero(e, s, rt, id, div, sign_of_quotient, q)
}

/// `value`, or a zero with the sign bit of `sign_bits` when `test` is zero. For an `f32`
/// the choice is made on the bits: Vulkan drivers need not keep the sign of a float zero,
/// and one (NVIDIA's) folds a float `select(x == 0, +0.0, x)` to `x`. An `f64`'s bits need
/// 64-bit ints, so it selects between the two zeros: there the zero's sign is the device's.
fn signed_zero(
    e: &mut Emitter,
    s: Scalar,
    rt: Word,
    id: Word,
    test: Word,
    sign_bits: Word,
    value: Word,
) -> R<Word> {
    let zero = e.konst(Const::float(s, 0.0));
    let (bt, u) = (e.ty(Ty::BOOL), e.ty(Ty::U32));
    let is_zero = e.b.op(SOp::FOrdEqual, bt, None, &[test, zero])?;
    let sign = e.konst(Const::U32(0x8000_0000));
    let signed = e.b.op(SOp::BitwiseAnd, u, None, &[sign_bits, sign])?;
    if s == Scalar::F64 {
        let no_sign = e.konst(Const::U32(0));
        let negative = e.b.op(SOp::INotEqual, bt, None, &[signed, no_sign])?;
        let minus_zero = e.konst(Const::f64(-0.0));
        let z =
            e.b.op(SOp::Select, rt, None, &[negative, minus_zero, zero])?;
        return e.b.op(SOp::Select, rt, Some(id), &[is_zero, z, value]);
    }
    let value_bits = e.b.op(SOp::Bitcast, u, None, &[value])?;
    let bits =
        e.b.op(SOp::Select, u, None, &[is_zero, signed, value_bits])?;
    e.b.op(SOp::Bitcast, rt, Some(id), &[bits])
}

/// The truncated quotient and remainder of signed ints of type `s`, `(q, r, minus_one)`, without `OpSRem` or
/// `OpSMod`: the Vulkan environment leaves their results undefined for negative operands
/// (some drivers do return wrong values), while `OpSDiv` is defined for them. So
/// `r = a - q * b` with `q = a / b`. `OpSDiv` is undefined for `INT_MIN / -1`, so unless `b`
/// is a constant other than -1 the division is by `b == -1 ? 1 : b`; then `r` is 0 for
/// `b == -1` (right), `q` is `a` instead of `-a`, and `minus_one` is the `b == -1` test for
/// the caller to fix `q` with. (A zero divisor is a compile error when it is a constant, and
/// gives the device's result otherwise.)
pub(super) fn int_div_rem(
    e: &mut Emitter,
    s: Scalar,
    rt: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<(Word, Word, Option<Word>)> {
    let (d, minus_one) = match b_const {
        Some(Const::I32(c)) if c != -1 => (b, None),
        Some(Const::I64(c)) if c != -1 => (b, None),
        _ => {
            let bt = e.ty(Ty::BOOL);
            let (m1, one) = (e.konst(signed(s, -1)), e.konst(signed(s, 1)));
            let is_m1 = e.b.op(SOp::IEqual, bt, None, &[b, m1])?;
            (
                e.b.op(SOp::Select, rt, None, &[is_m1, one, b])?,
                Some(is_m1),
            )
        }
    };
    let q = e.b.op(SOp::SDiv, rt, None, &[a, d])?;
    let qd = e.b.op(SOp::IMul, rt, None, &[q, d])?;
    let r = e.b.op(SOp::ISub, rt, None, &[a, qd])?;
    Ok((q, r, minus_one))
}

/// `r != 0 and (r < 0) != (b < 0)` for the truncated remainder `r = a rem b` of signed ints
/// of type `s`, via `(r ^ b) < 0`.
pub(super) fn int_fixup(e: &mut Emitter, s: Scalar, rt: Word, r: Word, b: Word) -> R<Word> {
    let zero = e.konst(signed(s, 0));
    let bt = e.ty(Ty::BOOL);
    let nz = e.b.op(SOp::INotEqual, bt, None, &[r, zero])?;
    let x = e.b.op(SOp::BitwiseXor, rt, None, &[r, b])?;
    let neg = e.b.op(SOp::SLessThan, bt, None, &[x, zero])?;
    e.b.op(SOp::LogicalAnd, bt, None, &[nz, neg])
}

/// `r != 0 and (r < 0) != (b < 0)` for floats of scalar type `s`.
pub(super) fn float_fixup(e: &mut Emitter, s: Scalar, r: Word, b: Word) -> R<Word> {
    let zero = e.konst(Const::float(s, 0.0));
    let bt = e.ty(Ty::BOOL);
    let nz = e.b.op(SOp::FUnordNotEqual, bt, None, &[r, zero])?;
    let rn = e.b.op(SOp::FOrdLessThan, bt, None, &[r, zero])?;
    let bn = e.b.op(SOp::FOrdLessThan, bt, None, &[b, zero])?;
    let differ = e.b.op(SOp::LogicalNotEqual, bt, None, &[rn, bn])?;
    e.b.op(SOp::LogicalAnd, bt, None, &[nz, differ])
}

pub(super) fn compare(
    e: &mut Emitter,
    op: CmpOp,
    s: Scalar,
    rt: Word,
    out: Option<Word>,
    a: Word,
    b: Word,
) -> R<Word> {
    use CmpOp::*;
    let s = s.carrier();
    Ok(match (s, op) {
        (Scalar::Bool, Eq) => e.b.op(SOp::LogicalEqual, rt, out, &[a, b])?,
        (Scalar::Bool, _) => e.b.op(SOp::LogicalNotEqual, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Eq) => e.b.op(SOp::FOrdEqual, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Ne) => e.b.op(SOp::FUnordNotEqual, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Lt) => e.b.op(SOp::FOrdLessThan, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Le) => e.b.op(SOp::FOrdLessThanEqual, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Gt) => e.b.op(SOp::FOrdGreaterThan, rt, out, &[a, b])?,
        (Scalar::F32 | Scalar::F64, Ge) => e.b.op(SOp::FOrdGreaterThanEqual, rt, out, &[a, b])?,
        (_, Eq) => e.b.op(SOp::IEqual, rt, out, &[a, b])?,
        (_, Ne) => e.b.op(SOp::INotEqual, rt, out, &[a, b])?,
        (Scalar::I32 | Scalar::I64, Lt) => e.b.op(SOp::SLessThan, rt, out, &[a, b])?,
        (Scalar::I32 | Scalar::I64, Le) => e.b.op(SOp::SLessThanEqual, rt, out, &[a, b])?,
        (Scalar::I32 | Scalar::I64, Gt) => e.b.op(SOp::SGreaterThan, rt, out, &[a, b])?,
        (Scalar::I32 | Scalar::I64, Ge) => e.b.op(SOp::SGreaterThanEqual, rt, out, &[a, b])?,
        (_, Lt) => e.b.op(SOp::ULessThan, rt, out, &[a, b])?,
        (_, Le) => e.b.op(SOp::ULessThanEqual, rt, out, &[a, b])?,
        (_, Gt) => e.b.op(SOp::UGreaterThan, rt, out, &[a, b])?,
        (_, Ge) => e.b.op(SOp::UGreaterThanEqual, rt, out, &[a, b])?,
    })
}

pub(super) fn convert(e: &mut Emitter, from: Scalar, t: Ty, rt: Word, id: Word, a: Word) -> R<()> {
    let out = Some(id);
    let (from, to) = (from.carrier(), t.scalar().carrier());
    match (from, to) {
        (Scalar::I32 | Scalar::I64, Scalar::F32 | Scalar::F64) => {
            e.b.op(SOp::ConvertSToF, rt, out, &[a])?
        }
        (Scalar::U32 | Scalar::U64, Scalar::F32 | Scalar::F64) => {
            e.b.op(SOp::ConvertUToF, rt, out, &[a])?
        }
        (Scalar::F32 | Scalar::F64, to) if to.is_int() => float_to_int(e, from, t, rt, id, a)?,
        // Rounded to nearest (Vulkan requires conversions to be correctly rounded).
        (Scalar::F32, Scalar::F64) | (Scalar::F64, Scalar::F32) => {
            e.b.op(SOp::FConvert, rt, out, &[a])?
        }
        (Scalar::I32, Scalar::U32)
        | (Scalar::U32, Scalar::I32)
        | (Scalar::I64, Scalar::U64)
        | (Scalar::U64, Scalar::I64) => e.b.op(SOp::Bitcast, rt, out, &[a])?,
        (from, to) if from.is_int() && to.is_int() && from != to => {
            int_width(e, from, to, t, rt, id, a)?
        }
        (Scalar::Bool, s) => {
            let one = e.konst(Const::one(s));
            let zero = e.konst(Const::zero(s));
            e.b.op(SOp::Select, rt, out, &[a, one, zero])?
        }
        (s, Scalar::Bool) => {
            let zero = e.konst(Const::zero(s));
            compare(e, CmpOp::Ne, s, rt, out, a, zero)?
        }
        (s, t) if s == t => e.b.op(SOp::CopyObject, rt, out, &[a])?,
        (s, t) => return Err(EmitError(format!("no conversion {s:?} -> {t:?}"))),
    };
    Ok(())
}

/// An int of 32-bit carrier type `from` as one of the other width `to` (between 32 and 64
/// bits): widened by its own signedness (`OpSConvert` sign-extends, `OpUConvert`
/// zero-extends), narrowed by dropping the high bits, then bit-cast to `to`'s signedness.
/// Python's value modulo `2**width`, as every int conversion wraps.
#[allow(clippy::too_many_arguments)]
fn int_width(
    e: &mut Emitter,
    from: Scalar,
    to: Scalar,
    t: Ty,
    rt: Word,
    id: Word,
    a: Word,
) -> R<Word> {
    let same_sign = match (from.is_signed(), to.is_int64()) {
        (true, true) => Scalar::I64,
        (true, false) => Scalar::I32,
        (false, true) => Scalar::U64,
        (false, false) => Scalar::U32,
    };
    let op = if from.is_signed() {
        SOp::SConvert
    } else {
        SOp::UConvert
    };
    if same_sign == to {
        return e.b.op(op, rt, Some(id), &[a]);
    }
    let st = e.ty(with_scalar(t, same_sign));
    let resized = e.b.op(op, st, None, &[a])?;
    e.b.op(SOp::Bitcast, rt, Some(id), &[resized])
}

/// `int(x)` / `u32(x)` / `i64(x)` of a float `x` (of scalar type `from`, of `t`'s shape) as
/// the kernel's types compute it: truncated toward zero, then wrapped to the result's width
/// (32 or 64 bits), so `int(1e10)` is `1410065408` and `u32(-1.5)` is `4294967295`, where
/// SPIR-V leaves a conversion out of the result's range undefined. Inside `(-2^31, 2^31)`
/// (`(-2^63, 2^63)`) it is `OpConvertFToS` (bit-cast for an unsigned result); outside,
/// `x - 2^32·floor(x / 2^32)` is the wrapped value in `[0, 2^32)` for `OpConvertFToU`:
/// exact in `f32` (`x` is a whole multiple of 256 there, of 2^40 past 2^63) and in `f64`
/// (the truncated `x`, taken first, is whole). NaN and infinities stay the device's.
fn float_to_int(e: &mut Emitter, from: Scalar, t: Ty, rt: Word, id: Word, a: Word) -> R<Word> {
    let (is, us, width) = if t.scalar().is_int64() {
        (Scalar::I64, Scalar::U64, 64)
    } else {
        (Scalar::I32, Scalar::U32, 32)
    };
    let (it, ut, ft, bt) = (
        e.ty(with_scalar(t, is)),
        e.ty(with_scalar(t, us)),
        e.ty(with_scalar(t, from)),
        e.ty(with_scalar(t, Scalar::Bool)),
    );
    let glsl = e.glsl;
    let ftt = with_scalar(t, from);
    // An f64 below 2^32 may have a fraction: truncated first, so that the wrapped value
    // below is whole.
    let a = if from == Scalar::F64 {
        f64_trunc(e, ftt, a, None)?
    } else {
        a
    };
    let fast = e.b.op(SOp::ConvertFToS, it, None, &[a])?;
    let magnitude = e.b.ext_inst(ft, None, glsl, GLOp::FAbs as u32, &[a])?;
    let half_range = 2f64.powi(width - 1);
    let two31 = e.splat(Const::float(from, half_range), ftt);
    let small = e.b.op(SOp::FOrdLessThan, bt, None, &[magnitude, two31])?;
    let inv = e.splat(Const::float(from, 0.5 / half_range), ftt);
    let two32 = e.splat(Const::float(from, 2.0 * half_range), ftt);
    let q = e.b.op(SOp::FMul, ft, None, &[a, inv])?;
    let whole = e.b.ext_inst(ft, None, glsl, GLOp::Floor as u32, &[q])?;
    let m = e.b.op(SOp::FMul, ft, None, &[whole, two32])?;
    let r = e.b.op(SOp::FSub, ft, None, &[a, m])?;
    let wrapped = e.b.op(SOp::ConvertFToU, ut, None, &[r])?;
    if t.scalar() == is {
        let wrapped = e.b.op(SOp::Bitcast, it, None, &[wrapped])?;
        e.b.op(SOp::Select, rt, Some(id), &[small, fast, wrapped])
    } else {
        let fast = e.b.op(SOp::Bitcast, ut, None, &[fast])?;
        e.b.op(SOp::Select, rt, Some(id), &[small, fast, wrapped])
    }
}

/// Python's `min(a, b)` (`less`) or `max(a, b)` of floats: `b if b < a else a` (`>` for
/// `max`), per component. The first operand is kept unless the second compares less
/// (greater), so a NaN first stays and a NaN second is dropped, and `min(0.0, -0.0)` is
/// `0.0`; GLSL's `FMin`/`FMax` leave both undefined (lavapipe's `min(nan, 1.0)` was `1.0`).
fn python_pick(e: &mut Emitter, less: bool, t: Ty, args: &[Word], id: Word) -> R<()> {
    let (rt, bt) = (e.ty(t), e.ty(with_scalar(t, Scalar::Bool)));
    let (a, b) = (args[0], args[1]);
    let cmp = if less {
        SOp::FOrdLessThan
    } else {
        SOp::FOrdGreaterThan
    };
    let second = e.b.op(cmp, bt, None, &[b, a])?;
    e.b.op(SOp::Select, rt, Some(id), &[second, b, a])?;
    Ok(())
}

pub(super) fn math(e: &mut Emitter, mf: MathFn, t: Ty, rt: Word, id: Word, args: &[Word]) -> R<()> {
    use MathFn::*;
    let out = Some(id);
    let glsl = e.glsl;
    // The module's own where the built-in table says so; else the device's GLSL.std.450
    // instruction for this operand type, or the sequences below.
    if super::accurate::math(e, mf, t, id, args)? {
        return Ok(());
    }
    // `trunc` and `round` of an `f64` from `floor` and `ceil` (see `f64_trunc`).
    match (mf, t.scalar()) {
        (Min | Max, s) if s.is_float() => {
            python_pick(e, mf == Min, t, args, id)?;
            return Ok(());
        }
        (Trunc, Scalar::F64) => {
            f64_trunc(e, t, args[0], Some(id))?;
            return Ok(());
        }
        (RoundEven, Scalar::F64) => {
            f64_round_even(e, t, args[0], id)?;
            return Ok(());
        }
        _ => {}
    }
    if let Some(g) = super::glsl::instruction(mf, t.scalar()) {
        e.b.ext_inst(rt, out, glsl, g as u32, args)?;
        return Ok(());
    }
    match mf {
        Log10 => {
            let l2 = e.b.ext_inst(rt, None, glsl, GLOp::Log2 as u32, args)?;
            let k = e.konst(Const::f32(core::f32::consts::LOG10_2));
            e.b.op(SOp::FMul, rt, out, &[l2, k])?;
        }
        Copysign => {
            super::accurate::copysign(e, t, args[0], args[1], id)?;
        }
        Hypot => {
            let xx = e.b.op(SOp::FMul, rt, None, &[args[0], args[0]])?;
            let yy = e.b.op(SOp::FMul, rt, None, &[args[1], args[1]])?;
            let s = e.b.op(SOp::FAdd, rt, None, &[xx, yy])?;
            e.b.ext_inst(rt, out, glsl, GLOp::Sqrt as u32, &[s])?;
        }
        Fmod => {
            e.b.op(SOp::FRem, rt, out, &[args[0], args[1]])?;
        }
        // By the bits: a driver may assume there are no NaNs or infinities (Vulkan without
        // float controls lets it), and fold `OpIsNan` to false; the bits cannot be assumed
        // away. WGSL has no `isNan` either, and naga writes these bit tests everywhere.
        IsNan | IsInf => {
            let ut = e.ty(with_scalar(t, Scalar::U32));
            // An f64 is tested as the f32 nearest to it (NaN stays NaN), scaled by 2^-1000
            // first for `isinf`, which leaves every finite f64 finite in f32 and an
            // infinity infinite.
            let x = if t.scalar() == Scalar::F64 {
                let x = if mf == IsInf {
                    let k = e.splat(Const::f64(2f64.powi(-1000)), t);
                    let ft = e.ty(t);
                    e.b.op(SOp::FMul, ft, None, &[args[0], k])?
                } else {
                    args[0]
                };
                let ft = e.ty(with_scalar(t, Scalar::F32));
                e.b.op(SOp::FConvert, ft, None, &[x])?
            } else {
                args[0]
            };
            let bits = e.b.op(SOp::Bitcast, ut, None, &[x])?;
            let abs_mask = e.splat(Const::U32(0x7fff_ffff), with_scalar(t, Scalar::U32));
            let inf = e.splat(Const::U32(0x7f80_0000), with_scalar(t, Scalar::U32));
            let mag = e.b.op(SOp::BitwiseAnd, ut, None, &[bits, abs_mask])?;
            let test = if mf == IsNan {
                SOp::UGreaterThan
            } else {
                SOp::IEqual
            };
            e.b.op(test, rt, out, &[mag, inf])?;
        }
        Dot => {
            e.b.op(SOp::Dot, rt, out, &[args[0], args[1]])?;
        }
        other => return Err(EmitError(format!("no emission for {other:?}"))),
    }
    Ok(())
}

//! `f16` values, held in `f32` registers (see `Scalar::carrier`): rounding an `f32` to the
//! nearest half after every operation, and a half's 16 bits in a packed buffer to and from
//! its `f32`. Integer and exact float steps only, so every device computes the same
//! halves (`OpQuantizeToF16` may flush subnormals; GLSL's half packing leaves their
//! rounding open), as spirthon-ir's `half` computes them for constants.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::{Const, Scalar, Ty};

use super::{Emitter, R};

/// The `f32` value `x` rounded to the nearest `f16` (ties to even, subnormals kept, past
/// 65504 infinite; NaN stays NaN), as an `f32`, into `id`. With `e` the exponent of `x`'s
/// leading bit, at least -14 (the subnormals' quantum is that of the smallest normal), the
/// result is `roundEven(x · 2^(10-e)) · 2^(e-10)`: both products are by powers of two, so
/// exact, and the rounding is the one rounding.
pub(super) fn quantize(e: &mut Emitter, shape: Ty, x: Word, id: Word) -> R<Word> {
    // Every operation is component-wise: `shape`'s (a scalar, or a vector of its size).
    let of = |s: Scalar| match shape.as_vector() {
        Some((_, n)) => Ty::Vector(s, n),
        None => Ty::Scalar(s),
    };
    let (f, u, b) = (
        e.ty(of(Scalar::F32)),
        e.ty(of(Scalar::U32)),
        e.ty(of(Scalar::Bool)),
    );
    let k = |e: &mut Emitter, c: Const| e.splat(c, of(Scalar::U32));
    let glsl = e.glsl;
    let bits = e.b.op(SOp::Bitcast, u, None, &[x])?;
    let k23 = k(e, Const::U32(23));
    let exp = e.b.op(SOp::ShiftRightLogical, u, None, &[bits, k23])?;
    let byte = k(e, Const::U32(0xFF));
    let exp = e.b.op(SOp::BitwiseAnd, u, None, &[exp, byte])?;
    // The biased exponent of 2^-14.
    let min = k(e, Const::U32(113));
    let exp =
        e.b.ext_inst(u, None, glsl, GLOp::UMax as u32, &[exp, min])?;
    // 2^(10 - e) and 2^(e - 10) as floats: biased exponents 264 - exp and exp - 10.
    let k264 = k(e, Const::U32(264));
    let up = e.b.op(SOp::ISub, u, None, &[k264, exp])?;
    let up = e.b.op(SOp::ShiftLeftLogical, u, None, &[up, k23])?;
    let up = e.b.op(SOp::Bitcast, f, None, &[up])?;
    let k10 = k(e, Const::U32(10));
    let down = e.b.op(SOp::ISub, u, None, &[exp, k10])?;
    let down = e.b.op(SOp::ShiftLeftLogical, u, None, &[down, k23])?;
    let down = e.b.op(SOp::Bitcast, f, None, &[down])?;
    let scaled = e.b.op(SOp::FMul, f, None, &[x, up])?;
    let whole =
        e.b.ext_inst(f, None, glsl, GLOp::RoundEven as u32, &[scaled])?;
    let r = e.b.op(SOp::FMul, f, None, &[whole, down])?;
    // Past the largest half: the infinity of the sign.
    let abs = e.b.ext_inst(f, None, glsl, GLOp::FAbs as u32, &[r])?;
    let max = e.splat(Const::f32(65504.0), of(Scalar::F32));
    let big = e.b.op(SOp::FOrdGreaterThan, b, None, &[abs, max])?;
    let sign = k(e, Const::U32(0x8000_0000));
    let sign = e.b.op(SOp::BitwiseAnd, u, None, &[bits, sign])?;
    let inf = k(e, Const::U32(0x7F80_0000));
    let inf = e.b.op(SOp::BitwiseOr, u, None, &[sign, inf])?;
    let inf = e.b.op(SOp::Bitcast, f, None, &[inf])?;
    e.b.op(SOp::Select, f, Some(id), &[big, inf, r])
}

/// The `f32` of the half whose bits are the low 16 of `h` (a `u32`), into `out`: exact.
pub(super) fn from_bits(e: &mut Emitter, h: Word, out: Option<Word>) -> R<Word> {
    let (f, u, b) = (e.ty(Ty::F32), e.ty(Ty::U32), e.ty(Ty::BOOL));
    let k = |e: &mut Emitter, v: u32| e.konst(Const::U32(v));
    let m15 = k(e, 0x7FFF);
    let em = e.b.op(SOp::BitwiseAnd, u, None, &[h, m15])?;
    let s15 = k(e, 0x8000);
    let sign = e.b.op(SOp::BitwiseAnd, u, None, &[h, s15])?;
    let k16 = k(e, 16);
    let sign = e.b.op(SOp::ShiftLeftLogical, u, None, &[sign, k16])?;
    let k13 = k(e, 13);
    let shifted = e.b.op(SOp::ShiftLeftLogical, u, None, &[em, k13])?;
    // A normal half: its exponent rebiased (127 - 15 = 112) above the same mantissa.
    let rebias = k(e, 112 << 23);
    let normal = e.b.op(SOp::IAdd, u, None, &[shifted, rebias])?;
    // Infinity or NaN: the f32 of the same kind (a NaN keeps its payload's high bits).
    let all = k(e, 0x7F80_0000);
    let special = e.b.op(SOp::BitwiseOr, u, None, &[shifted, all])?;
    // A subnormal half (or zero): its mantissa times 2^-24.
    let m10 = k(e, 0x3FF);
    let mant = e.b.op(SOp::BitwiseAnd, u, None, &[em, m10])?;
    let mf = e.b.op(SOp::ConvertUToF, f, None, &[mant])?;
    let tiny = e.konst(Const::f32(2f32.powi(-24)));
    let sub = e.b.op(SOp::FMul, f, None, &[mf, tiny])?;
    let sub = e.b.op(SOp::Bitcast, u, None, &[sub])?;
    let min_normal = k(e, 0x0400);
    let inf = k(e, 0x7C00);
    let is_sub = e.b.op(SOp::ULessThan, b, None, &[em, min_normal])?;
    let is_special = e.b.op(SOp::UGreaterThanEqual, b, None, &[em, inf])?;
    let mag =
        e.b.op(SOp::Select, u, None, &[is_special, special, normal])?;
    let mag = e.b.op(SOp::Select, u, None, &[is_sub, sub, mag])?;
    let all = e.b.op(SOp::BitwiseOr, u, None, &[sign, mag])?;
    e.b.op(SOp::Bitcast, f, out, &[all])
}

/// The 16 bits (in a `u32`) of the `f32` `x`, which holds a half's value (or an infinity
/// or NaN), into `out`: exact.
pub(super) fn to_bits(e: &mut Emitter, x: Word, out: Option<Word>) -> R<Word> {
    let (f, u, b) = (e.ty(Ty::F32), e.ty(Ty::U32), e.ty(Ty::BOOL));
    let glsl = e.glsl;
    let k = |e: &mut Emitter, v: u32| e.konst(Const::U32(v));
    let bits = e.b.op(SOp::Bitcast, u, None, &[x])?;
    let k16 = k(e, 16);
    let sign = e.b.op(SOp::ShiftRightLogical, u, None, &[bits, k16])?;
    let s15 = k(e, 0x8000);
    let sign = e.b.op(SOp::BitwiseAnd, u, None, &[sign, s15])?;
    let m31 = k(e, 0x7FFF_FFFF);
    let a = e.b.op(SOp::BitwiseAnd, u, None, &[bits, m31])?;
    // A normal half: the f32's exponent rebiased, its mantissa's top ten bits.
    let k13 = k(e, 13);
    let normal = e.b.op(SOp::ShiftRightLogical, u, None, &[a, k13])?;
    let rebias = k(e, 112 << 10);
    let normal = e.b.op(SOp::ISub, u, None, &[normal, rebias])?;
    // A subnormal half (or zero): |x| · 2^24, a whole number below 1024.
    let ax = e.b.ext_inst(f, None, glsl, GLOp::FAbs as u32, &[x])?;
    let big = e.konst(Const::f32(2f32.powi(24)));
    let scaled = e.b.op(SOp::FMul, f, None, &[ax, big])?;
    let sub = e.b.op(SOp::ConvertFToU, u, None, &[scaled])?;
    // Infinity and NaN.
    let inf32 = k(e, 0x7F80_0000);
    let is_nan = e.b.op(SOp::UGreaterThan, b, None, &[a, inf32])?;
    let is_special = e.b.op(SOp::UGreaterThanEqual, b, None, &[a, inf32])?;
    let (inf, nan) = (k(e, 0x7C00), k(e, 0x7E00));
    let special = e.b.op(SOp::Select, u, None, &[is_nan, nan, inf])?;
    let min_normal = k(e, 0x3880_0000);
    let is_sub = e.b.op(SOp::ULessThan, b, None, &[a, min_normal])?;
    // ConvertFToU of an infinity is undefined: the special case is selected last.
    let mag = e.b.op(SOp::Select, u, None, &[is_sub, sub, normal])?;
    let mag = e.b.op(SOp::Select, u, None, &[is_special, special, mag])?;
    e.b.op(SOp::BitwiseOr, u, out, &[sign, mag])
}

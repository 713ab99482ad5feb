//! The inverse trigonometric functions: `asin`, `acos`, `atan` (Cephes' `asinf`, `atanf`:
//! range reduction, then an odd minimax polynomial) and `atan2` from `atan`, with C's
//! special operands.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::cfg::MathFn;

use super::existing;
use super::f::F;
use crate::emit::R;

const PI: f32 = core::f32::consts::PI;
const PI_2: f32 = core::f32::consts::FRAC_PI_2;
const PI_4: f32 = core::f32::consts::FRAC_PI_4;

/// `asin(x)` for `|x| <= 0.5`: `x + x³·P(x²)` (odd, so signed `x` works).
pub(super) fn asin_small(f: &mut F<'_>, x: Word) -> R<Word> {
    f.odd(
        x,
        &[
            4.216_32e-2,
            2.418_131_2e-2,
            4.547_002_6e-2,
            7.495_300_3e-2,
            1.666_675_2e-1,
        ],
    )
}

/// `asin(x)`: the polynomial on `|x| <= 0.5`, else `π/2 - 2·asin(sqrt((1 - |x|) / 2))`.
pub(super) fn asin(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let half = f.c(0.5);
    let big = f.cmp(SOp::FOrdGreaterThan, a, half)?;
    let s = reduced(f, a)?;
    let arg = f.select(big, s, a)?;
    let p = asin_small(f, arg)?;
    let twice = f.add(p, p)?;
    let pi_2 = f.c(PI_2);
    let far = f.sub(pi_2, twice)?;
    let r = f.select(big, far, p)?;
    f.copysign(r, x)
}

/// `sqrt((1 - a) / 2)` for `a = |x|`: the argument that range reduction near ±1 uses.
pub(super) fn reduced(f: &mut F<'_>, a: Word) -> R<Word> {
    let one = f.c(1.0);
    let half = f.c(0.5);
    let d = f.sub(one, a)?;
    let h = f.mul(d, half)?;
    f.glsl(GLOp::Sqrt, h)
}

/// `acos(x)`: `2·asin(s)` above 0.5, `π - 2·asin(s)` below -0.5 (`s = sqrt((1 - |x|) / 2)`),
/// `π/2 - asin(x)` between.
pub(super) fn acos(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let half = f.c(0.5);
    let neg_half = f.c(-0.5);
    let hi = f.cmp(SOp::FOrdGreaterThan, x, half)?;
    let lo = f.cmp(SOp::FOrdLessThan, x, neg_half)?;
    let bt = f.bt;
    let outer = f.e.b.op(SOp::LogicalOr, bt, None, &[hi, lo])?;
    let s = reduced(f, a)?;
    let arg = f.select(outer, s, x)?;
    let p = match existing(f.e, MathFn::Asin, 1) {
        Some(h) => f.call(h, &[arg])?,
        None => asin_small(f, arg)?,
    };
    let twice = f.add(p, p)?;
    let pi = f.c(PI);
    let below = f.sub(pi, twice)?;
    let pi_2 = f.c(PI_2);
    let middle = f.sub(pi_2, p)?;
    let r = f.select(lo, below, middle)?;
    f.select(hi, twice, r)
}

/// `atan(x)`: reduced to `|x| <= tan(π/8)` by `atan(t) = π/2 + atan(-1/t)` above
/// `tan(3π/8)` and `π/4 + atan((t - 1) / (t + 1))` above `tan(π/8)`, then
/// `x + x³·P(x²)`.
pub(super) fn atan(f: &mut F<'_>, x: Word) -> R<Word> {
    let t = f.glsl(GLOp::FAbs, x)?;
    let (k3, k1) = (f.c(2.414_213_7), f.c(0.414_213_57));
    let big = f.cmp(SOp::FOrdGreaterThan, t, k3)?;
    let mid = f.cmp(SOp::FOrdGreaterThan, t, k1)?;
    let (one, minus_one) = (f.c(1.0), f.c(-1.0));
    let inv = f.div(minus_one, t)?;
    let num = f.sub(t, one)?;
    let den = f.add(t, one)?;
    let ratio = f.div(num, den)?;
    let xr = f.select(mid, ratio, t)?;
    let xr = f.select(big, inv, xr)?;
    let (zero, pi_4, pi_2) = (f.c(0.0), f.c(PI_4), f.c(PI_2));
    let y0 = f.select(mid, pi_4, zero)?;
    let y0 = f.select(big, pi_2, y0)?;
    let q = f.odd(
        xr,
        &[
            8.053_744_5e-2,
            -1.387_768_6e-1,
            1.997_771_1e-1,
            -3.333_295e-1,
        ],
    )?;
    let r = f.add(y0, q)?;
    f.copysign(r, x)
}

/// `atan2(y, x)` as C defines it: `atan(y / x)`, plus `±π` (the sign of `y`) when `x` is
/// negative; `y` and `x` both zero give `±0` or `±π`, both infinite `±π/4` or `±3π/4`.
pub(super) fn atan2(f: &mut F<'_>, y: Word, x: Word) -> R<Word> {
    let q = f.div(y, x)?;
    let base = match existing(f.e, MathFn::Atan, 1) {
        Some(h) => f.call(h, &[q])?,
        None => atan(f, q)?,
    };
    let ut = f.ut;
    let xb = f.e.b.op(SOp::Bitcast, ut, None, &[x])?;
    let high = f.cu(0x8000_0000);
    let xs = f.e.b.op(SOp::BitwiseAnd, ut, None, &[xb, high])?;
    let bt = f.bt;
    let no_sign = f.cu(0);
    let x_neg = f.e.b.op(SOp::INotEqual, bt, None, &[xs, no_sign])?;
    let pi = f.c(PI);
    let zero = f.c(0.0);
    let shift = f.select(x_neg, pi, zero)?;
    let shift = f.copysign(shift, y)?;
    let general = f.add(base, shift)?;
    // Both zero: y / x is NaN; the result is 0 or π by the sign of x, with the sign of y.
    let ay = f.glsl(GLOp::FAbs, y)?;
    let ax = f.glsl(GLOp::FAbs, x)?;
    let y0 = f.cmp(SOp::FOrdEqual, ay, zero)?;
    let x0 = f.cmp(SOp::FOrdEqual, ax, zero)?;
    let both0 = f.e.b.op(SOp::LogicalAnd, bt, None, &[y0, x0])?;
    let r = f.select(both0, shift, general)?;
    // Both infinite: π/4 or 3π/4 by the sign of x, with the sign of y.
    let yi = f.is_inf(y)?;
    let xi = f.is_inf(x)?;
    let both_inf = f.e.b.op(SOp::LogicalAnd, bt, None, &[yi, xi])?;
    let (q1, q3) = (f.c(PI_4), f.c(3.0 * PI_4));
    let corner = f.select(x_neg, q3, q1)?;
    let corner = f.copysign(corner, y)?;
    f.select(both_inf, corner, r)
}

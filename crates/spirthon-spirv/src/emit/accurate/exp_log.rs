//! Exponentials and logarithms: `exp` and `log` (natural, base 2, base 10) as Cephes' `expf`
//! and `logf`, `expm1` and `log1p` precise near 0, and the hyperbolic functions from `exp`.
//! Each takes its argument apart from the bits where a float sum would be reassociated by a
//! driver (lavapipe folds `x - ((1 + x) - 1)` to 0).

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::Ty;

use super::f::F;
use crate::emit::R;

/// Which logarithm [`log`] computes.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Base {
    E,
    Two,
    Ten,
}

/// `log(x)` (natural, base 2 or base 10), as Cephes' `logf`, `log2f`, `log10f`: `x = m·2^e`
/// with `m` in `[√½, √2)` (from the bits, subnormals scaled by 2^25 first), a polynomial in
/// `m - 1`, and `e·log(2)` added in two parts. `log(±0)` is `-inf`, a negative `x` NaN,
/// `+inf` and NaN themselves.
pub(super) fn log(f: &mut F<'_>, x: Word, base: Base) -> R<Word> {
    log_corrected(f, x, base, None)
}

/// [`log`], plus `correction` (far below the result's last place, so added to its low part)
/// for the natural logarithm.
pub(super) fn log_corrected(
    f: &mut F<'_>,
    x: Word,
    base: Base,
    correction: Option<Word>,
) -> R<Word> {
    let (e, mr) = log_split(f, x)?;
    let r = log_series(f, base, e, mr, correction)?;
    log_special_operands(f, x, r)
}

/// `x = 2^e·(1 + mr)` with `1 + mr` in `[√½, √2)`, from the bits (a subnormal scaled by 2^25
/// first): `(e, mr)`, `e` a whole `f32`.
fn log_split(f: &mut F<'_>, x: Word) -> R<(Word, Word)> {
    let ut = f.ut;
    // Subnormals: scale into the normal range, and take 25 back off the exponent.
    let tiny = f.c(1.175_494_4e-38);
    let sub = f.cmp(SOp::FOrdLessThan, x, tiny)?;
    let scale = f.c(33_554_432.0);
    let scaled = f.mul(x, scale)?;
    let xs = f.select(sub, scaled, x)?;
    let bits = f.e.b.op(SOp::Bitcast, ut, None, &[xs])?;
    let (c23, cff, c126) = (f.cu(23), f.cu(0xff), f.cu(126));
    let shifted = f.e.b.op(SOp::ShiftRightLogical, ut, None, &[bits, c23])?;
    let biased = f.e.b.op(SOp::BitwiseAnd, ut, None, &[shifted, cff])?;
    let e_u = f.e.b.op(SOp::ISub, ut, None, &[biased, c126])?;
    let it = f.e.ty(Ty::I32);
    let e_i = f.e.b.op(SOp::Bitcast, it, None, &[e_u])?;
    let e0 = f.op(SOp::ConvertSToF, &[e_i])?;
    let (c25, zero) = (f.c(25.0), f.c(0.0));
    let adjust = f.select(sub, c25, zero)?;
    let e0 = f.sub(e0, adjust)?;
    let (mant, half_bits) = (f.cu(0x807f_ffff), f.cu(0x3f00_0000));
    let mbits = f.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, mant])?;
    let mbits = f.e.b.op(SOp::BitwiseOr, ut, None, &[mbits, half_bits])?;
    let m = f.op(SOp::Bitcast, &[mbits])?;
    // m in [0.5, 1): below √½ take m·2 - 1 and e - 1, else m - 1.
    let sqrt_half = f.c(core::f32::consts::FRAC_1_SQRT_2);
    let low = f.cmp(SOp::FOrdLessThan, m, sqrt_half)?;
    let one = f.c(1.0);
    let twice = f.add(m, m)?;
    let mr = f.select(low, twice, m)?;
    let mr = f.sub(mr, one)?;
    let e1 = f.sub(e0, one)?;
    let e = f.select(low, e1, e0)?;
    Ok((e, mr))
}

/// `log(2^e·(1 + mr))` in `base`: Cephes' polynomial in `mr`, and `e` times the logarithm of
/// 2 in two parts.
fn log_series(f: &mut F<'_>, base: Base, e: Word, mr: Word, correction: Option<Word>) -> R<Word> {
    let z = f.mul(mr, mr)?;
    let p = f.horner(
        mr,
        &[
            7.037_683_6e-2,
            -1.151_461e-1,
            1.167_699_84e-1,
            -1.242_014_1e-1,
            1.424_932_3e-1,
            -1.666_805_8e-1,
            2.000_071_4e-1,
            -2.499_999_4e-1,
            3.333_333e-1,
        ],
    )?;
    let pm = f.mul(p, mr)?;
    let y = f.mul(pm, z)?;
    let minus_half = f.c(-0.5);
    let hz = f.mul(minus_half, z)?;
    Ok(match base {
        Base::E => {
            let c2 = f.c(-2.121_944_4e-4);
            let t = f.mul(e, c2)?;
            let y = f.add(y, t)?;
            let y = f.add(y, hz)?;
            let y = match correction {
                Some(c) => f.add(y, c)?,
                None => y,
            };
            let r = f.add(mr, y)?;
            let c1 = f.c(0.693_359_4);
            let t = f.mul(e, c1)?;
            f.add(r, t)?
        }
        Base::Two => {
            let y = f.add(y, hz)?;
            let k = f.c(0.442_695_04);
            let a = f.mul(y, k)?;
            let b = f.mul(mr, k)?;
            let r = f.add(a, b)?;
            let r = f.add(r, y)?;
            let r = f.add(r, mr)?;
            f.add(r, e)?
        }
        Base::Ten => {
            let y = f.add(y, hz)?;
            let (eb, ea, lb, la) = (
                f.c(7.007_319e-4),
                f.c(4.335_937_5e-1),
                f.c(2.487_456_6e-4),
                f.c(3.007_812_5e-1),
            );
            let a = f.mul(y, eb)?;
            let b = f.mul(mr, eb)?;
            let r = f.add(a, b)?;
            let t = f.mul(e, lb)?;
            let r = f.add(r, t)?;
            let t = f.mul(y, ea)?;
            let r = f.add(r, t)?;
            let t = f.mul(mr, ea)?;
            let r = f.add(r, t)?;
            let t = f.mul(e, la)?;
            f.add(r, t)?
        }
    })
}

/// `log`'s special operands over `r`, from the bits (no infinity constants: naga folds them
/// away): `log(±0)` is `-inf`, a negative `x` NaN, `+inf` and NaN themselves.
fn log_special_operands(f: &mut F<'_>, x: Word, r: Word) -> R<Word> {
    let ut = f.ut;
    let zero = f.c(0.0);
    let xbits = f.e.b.op(SOp::Bitcast, ut, None, &[x])?;
    let (neg_inf, nan) = (f.cu(0xff80_0000), f.cu(0x7fc0_0000));
    let to_neg_inf = f.e.b.op(SOp::BitwiseOr, ut, None, &[xbits, neg_inf])?;
    let to_nan = f.e.b.op(SOp::BitwiseOr, ut, None, &[xbits, nan])?;
    let neg_inf = f.op(SOp::Bitcast, &[to_neg_inf])?;
    let nan = f.op(SOp::Bitcast, &[to_nan])?;
    let inf_or_nan = f.not_finite(x)?;
    let r = f.select(inf_or_nan, x, r)?;
    let is_zero = f.cmp(SOp::FOrdEqual, x, zero)?;
    let negative = f.cmp(SOp::FOrdLessThan, x, zero)?;
    let r = f.select(negative, nan, r)?;
    f.select(is_zero, neg_inf, r)
}

/// `exp(x)`, as Cephes' `expf`: `x = n·log(2) + r` (log(2) in two parts), a polynomial in
/// `r`, times `2^n` built from the bits in two halves (so that `2^128` and subnormal results
/// come out right). `x` is first held in `[-104, 89]`, beyond which the result is 0 or
/// infinity anyway.
pub(super) fn exp(f: &mut F<'_>, x: Word) -> R<Word> {
    exp_parts(f, x, None, None)
}

/// `exp(x + lo)` for an argument carried in two floats (`lo` far below `x`), as [`exp`] with
/// `lo` added to the reduced argument: as precise as `exp` of a float. Times `factor` when
/// given, multiplied in before the power of two (`2^n·(g + g·(e^r - 1))`), which rounds once
/// where `g · exp(…)` would round twice.
pub(super) fn exp_parts(f: &mut F<'_>, x: Word, lo: Option<Word>, factor: Option<Word>) -> R<Word> {
    let (n, r) = exp_reduce(f, x, lo)?;
    let pz = f.expm1_series(
        r,
        &[
            1.987_569_1e-4,
            1.398_199_9e-3,
            8.333_452e-3,
            4.166_579_6e-2,
            1.666_666_5e-1,
            0.5,
        ],
    )?;
    let p = match factor {
        None => {
            let one = f.c(1.0);
            f.add(pz, one)?
        }
        Some(g) => {
            let gp = f.mul(g, pz)?;
            f.add(g, gp)?
        }
    };
    // n is in [-150, 128].
    let it = f.e.ty(Ty::I32);
    let ni = f.e.b.op(SOp::ConvertFToS, it, None, &[n])?;
    f.ldexp(p, ni)
}

/// `x = n·log(2) + r` with `|r| <= log(2)/2` (log(2) in two parts, so `r` is exact for the
/// whole `n` here), `x` first held in `[-104, 89]`; `lo` is added to `r` when given. `n` is a
/// whole `f32`.
pub(super) fn exp_reduce(f: &mut F<'_>, x: Word, lo: Option<Word>) -> R<(Word, Word)> {
    let (hi, low) = (f.c(89.0), f.c(-104.0));
    let over = f.cmp(SOp::FOrdGreaterThan, x, hi)?;
    let under = f.cmp(SOp::FOrdLessThan, x, low)?;
    let xc = f.select(over, hi, x)?;
    let xc = f.select(under, low, xc)?;
    let (log2e, half) = (f.c(core::f32::consts::LOG2_E), f.c(0.5));
    let t = f.mul(xc, log2e)?;
    let t = f.add(t, half)?;
    let n = f.glsl(GLOp::Floor, t)?;
    let (c1, c2) = (f.c(0.693_359_4), f.c(-2.121_944_4e-4));
    let a = f.mul(n, c1)?;
    let r = f.sub(xc, a)?;
    let b = f.mul(n, c2)?;
    let r = f.sub(r, b)?;
    let r = match lo {
        Some(lo) => f.add(r, lo)?,
        None => r,
    };
    Ok((n, r))
}

/// `expm1(x) = e^x - 1`: with `x = n·log(2) + r`, `p = e^r - 1` by a polynomial
/// (`r + r²·Q(r)`, fitted to `expm1` on `[-0.35, 0.35]`), then `2^n·p + (2^n - 1)` (exact
/// scalings and one rounded sum) while `2^n - 1` is exact, `2^n·(p + 1) - 1` beyond
/// (`n > 24`, where the 1 no longer matters, and `2^128` needs `ldexp`'s two halves). At
/// most 1 ULP on a sweep; `±0` and NaN are themselves, `-inf` gives `-1`.
pub(super) fn expm1(f: &mut F<'_>, x: Word) -> R<Word> {
    let (n, r) = exp_reduce(f, x, None)?;
    let p = f.expm1_series(
        r,
        &[
            2.481_281_3e-5,
            1.990_035_8e-4,
            1.388_894e-3,
            8.333_297e-3,
            4.166_666_8e-2,
            1.666_666_7e-1,
            0.5,
        ],
    )?;
    let it = f.e.ty(Ty::I32);
    let ni = f.e.b.op(SOp::ConvertFToS, it, None, &[n])?;
    // Near: 2^n·p + (2^n - 1), with 2^n from the bits for n >= -126 (below, 2^n - 1 is -1).
    let least = f.ci(-126);
    let bt = f.bt;
    let below = f.e.b.op(SOp::SLessThan, bt, None, &[ni, least])?;
    let n_pow = f.e.b.op(SOp::Select, it, None, &[below, least, ni])?;
    let scale = f.pow2(n_pow)?;
    let one = f.c(1.0);
    let scaled = f.ldexp(p, ni)?;
    let offset = f.sub(scale, one)?;
    let near = f.add(scaled, offset)?;
    // Far: 2^n·(p + 1) - 1.
    let p1 = f.add(p, one)?;
    let grown = f.ldexp(p1, ni)?;
    let far = f.sub(grown, one)?;
    let c24 = f.ci(24);
    let big = f.e.b.op(SOp::SGreaterThan, bt, None, &[ni, c24])?;
    let r = f.select(big, far, near)?;
    keep_zero_and_nan(f, x, r)
}

/// `x` itself where it is `±0` or NaN (functions with `f(±0) = ±0`), else `r`.
pub(super) fn keep_zero_and_nan(f: &mut F<'_>, x: Word, r: Word) -> R<Word> {
    let zero = f.c(0.0);
    let is_zero = f.cmp(SOp::FOrdEqual, x, zero)?;
    let nan = f.is_nan(x)?;
    let bt = f.bt;
    let keep = f.e.b.op(SOp::LogicalOr, bt, None, &[is_zero, nan])?;
    f.select(keep, x, r)
}

/// `log1p(x) = log(1 + x)`: `x = hi + lo` with `hi` the multiples of the last place of
/// `1 + x` in `x` (cut from the bits), so that `u = 1 + hi` is exact, then `log(u) + lo/u`.
/// The split is made from the bits because a driver may reassociate float sums (lavapipe
/// does, folding the textbook correction `x - ((1 + x) - 1)` to 0). At most 1 ULP on a
/// sweep; `±0` are themselves, `-1` gives `-inf`, below it NaN.
pub(super) fn log1p(f: &mut F<'_>, x: Word) -> R<Word> {
    let one = f.c(1.0);
    let u = f.add(x, one)?;
    let (ut, bt) = (f.ut, f.bt);
    let it = f.e.ty(Ty::I32);
    let exponent = |f: &mut F<'_>, v: Word| -> R<Word> {
        let bits = f.e.b.op(SOp::Bitcast, ut, None, &[v])?;
        let c23 = f.cu(23);
        let cff = f.cu(0xff);
        let shifted = f.e.b.op(SOp::ShiftRightLogical, ut, None, &[bits, c23])?;
        let field = f.e.b.op(SOp::BitwiseAnd, ut, None, &[shifted, cff])?;
        f.e.b.op(SOp::Bitcast, it, None, &[field])
    };
    let ex = exponent(f, x)?;
    let eu = exponent(f, u)?;
    // The low bits of x below u's last place: eu - ex of them, none when x is the larger.
    let n = f.e.b.op(SOp::ISub, it, None, &[eu, ex])?;
    let (zero_i, c23) = (f.ci(0), f.ci(23));
    let negative = f.e.b.op(SOp::SLessThan, bt, None, &[n, zero_i])?;
    let n = f.e.b.op(SOp::Select, it, None, &[negative, zero_i, n])?;
    let all = f.e.b.op(SOp::SGreaterThan, bt, None, &[n, c23])?;
    let n = f.e.b.op(SOp::Select, it, None, &[all, c23, n])?;
    let xbits = f.e.b.op(SOp::Bitcast, ut, None, &[x])?;
    let ones = f.cu(u32::MAX);
    let mask = f.e.b.op(SOp::ShiftLeftLogical, ut, None, &[ones, n])?;
    let hbits = f.e.b.op(SOp::BitwiseAnd, ut, None, &[xbits, mask])?;
    let hi = f.op(SOp::Bitcast, &[hbits])?;
    let zero = f.c(0.0);
    let hi = f.select(all, zero, hi)?;
    let lo = f.sub(x, hi)?;
    let u = f.add(hi, one)?;
    let c = f.div(lo, u)?;
    // Where `u` is 0, negative or not finite, `log`'s special results stand (and `c` is
    // NaN or meaningless): leave the correction out there.
    let positive = f.cmp(SOp::FOrdGreaterThan, u, zero)?;
    let special = f.not_finite(u)?;
    let finite = f.e.b.op(SOp::LogicalNot, bt, None, &[special])?;
    let usable = f.e.b.op(SOp::LogicalAnd, bt, None, &[positive, finite])?;
    let c = f.select(usable, c, zero)?;
    let r = log_corrected(f, u, Base::E, Some(c))?;
    keep_zero_and_nan(f, x, r)
}

/// `e^a / 2` for `a >= 0`, also where `e^a` itself overflows: `(e^(a/2) / 2) · e^(a/2)`
/// above 80.
pub(super) fn half_exp(f: &mut F<'_>, a: Word) -> R<Word> {
    let half = f.c(0.5);
    let whole = exp(f, a)?;
    let whole = f.mul(whole, half)?;
    let ha = f.mul(a, half)?;
    let h = exp(f, ha)?;
    let hh = f.mul(h, half)?;
    let split = f.mul(hh, h)?;
    let big = f.c(80.0);
    let large = f.cmp(SOp::FOrdGreaterThan, a, big)?;
    f.select(large, split, whole)
}

/// `cosh(x) = (e^|x| + e^-|x|) / 2` (Cephes' `coshf`).
pub(super) fn cosh(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let h = half_exp(f, a)?;
    let quarter = f.c(0.25);
    let inv = f.div(quarter, h)?;
    f.add(h, inv)
}

/// `sinh(x)`: `(e^|x| - e^-|x|) / 2` above 1, an odd polynomial below (Cephes' `sinhf`).
pub(super) fn sinh(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let h = half_exp(f, a)?;
    let quarter = f.c(0.25);
    let inv = f.div(quarter, h)?;
    let far = f.sub(h, inv)?;
    let near = f.odd(a, &[2.037_219_1e-4, 8.330_284e-3, 1.666_671_6e-1])?;
    let one = f.c(1.0);
    let beyond = f.cmp(SOp::FOrdGreaterThan, a, one)?;
    let r = f.select(beyond, far, near)?;
    f.copysign(r, x)
}

/// `tanh(x)`: `1 - 2 / (e^(2|x|) + 1)` from 0.625, an odd polynomial below (Cephes'
/// `tanhf`).
pub(super) fn tanh(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let two = f.c(2.0);
    let a2 = f.mul(a, two)?;
    let e = exp(f, a2)?;
    let one = f.c(1.0);
    let d = f.add(e, one)?;
    let q = f.div(two, d)?;
    let far = f.sub(one, q)?;
    let near = f.odd(
        a,
        &[
            -5.704_988_7e-3,
            2.063_908_8e-2,
            -5.373_971_6e-2,
            1.333_144_2e-1,
            -3.333_328e-1,
        ],
    )?;
    let cut = f.c(0.625);
    let beyond = f.cmp(SOp::FOrdGreaterThanEqual, a, cut)?;
    let r = f.select(beyond, far, near)?;
    f.copysign(r, x)
}

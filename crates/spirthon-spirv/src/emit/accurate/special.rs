//! `cbrt`, `erf` and `erfc`: functions no device instruction computes, the module's own on
//! every device and under `--fast-math`. `erfc` far out is `e^(-x²)·g(x)` with `g` by pieces
//! (polynomials fitted to the least relative error) and `e^(-x²)` from an exact split of
//! `x²`, so it stays precise down to its subnormal results.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};

use super::exp_log::exp_parts;
use super::f::F;
use crate::emit::R;

/// `cbrt(x)`, the real cube root: `|x|` scaled into a safe range (by `2^48` below `2^-100`,
/// so that neither `y³` nor the last step's residual `y³ - a` is ever subnormal, which a
/// device that flushes them (NVIDIA's, for `f32`) would zero; by `2^-96` above `2^96`, so
/// that `y³` cannot overflow), a first guess from the bits (the
/// exponent divided by 3, as musl's `cbrtf`), two Halley steps `y·(y³ + 2a)/(2y³ + a)`, a
/// last Newton step `y - (y³ - a)/(3y²)` whose correction is small (so its rounding is), and
/// the scale undone. At most 1 ULP on a sweep; `±0`, `±inf` and NaN are themselves.
pub(super) fn cbrt(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let tiny = f.c(7.888_609e-31);
    let sub = f.cmp(SOp::FOrdLessThan, a, tiny)?;
    let huge_at = f.c(7.922_816_3e28);
    let huge = f.cmp(SOp::FOrdGreaterThan, a, huge_at)?;
    let (up, down) = (f.c(281_474_976_710_656.0), f.c(1.262_177_4e-29));
    let scaled_up = f.mul(a, up)?;
    let scaled_down = f.mul(a, down)?;
    let a = f.select(sub, scaled_up, a)?;
    let a = f.select(huge, scaled_down, a)?;
    let ut = f.ut;
    let bits = f.e.b.op(SOp::Bitcast, ut, None, &[a])?;
    let (three, magic) = (f.cu(3), f.cu(709_958_130));
    let third = f.e.b.op(SOp::UDiv, ut, None, &[bits, three])?;
    let guess = f.e.b.op(SOp::IAdd, ut, None, &[third, magic])?;
    let mut y = f.op(SOp::Bitcast, &[guess])?;
    for _ in 0..2 {
        let yy = f.mul(y, y)?;
        let t = f.mul(yy, y)?;
        let a2 = f.add(a, a)?;
        let num = f.add(t, a2)?;
        let t2 = f.add(t, t)?;
        let den = f.add(t2, a)?;
        let q = f.div(num, den)?;
        y = f.mul(y, q)?;
    }
    let yy = f.mul(y, y)?;
    let t = f.mul(yy, y)?;
    let d = f.sub(t, a)?;
    let three_f = f.c(3.0);
    let y3 = f.mul(three_f, y)?;
    let den = f.mul(y3, y)?;
    let step = f.div(d, den)?;
    let y = f.sub(y, step)?;
    let (back_up, back_down) = (f.c(1.525_878_9e-5), f.c(4_294_967_296.0));
    let y_sub = f.mul(y, back_up)?;
    let y_huge = f.mul(y, back_down)?;
    let y = f.select(sub, y_sub, y)?;
    let y = f.select(huge, y_huge, y)?;
    let r = f.copysign(y, x)?;
    // ±0, ±inf and NaN are their own cube roots.
    let zero = f.c(0.0);
    let is_zero = f.cmp(SOp::FOrdEqual, x, zero)?;
    let special = f.not_finite(x)?;
    let bt = f.bt;
    let keep = f.e.b.op(SOp::LogicalOr, bt, None, &[is_zero, special])?;
    f.select(keep, x, r)
}

/// Where `erf`'s polynomial gives way to `1 - erfc(|x|)`.
pub(super) const ERF_NEAR: f32 = 0.9;
/// Where `erfc`'s `1 - erf(x)` gives way to `exp(-x²)·g(|x|)` (`erf(0.47) < 0.5`, so the
/// subtraction loses nothing).
pub(super) const ERFC_NEAR: f32 = 0.47;
/// Beyond this `erfc(x)` is below half the least subnormal: 0 (and `erf(x)` is ±1).
pub(super) const ERFC_FAR: f32 = 10.1;

/// `erf(x)/x` as a polynomial in `x²` on `|x| <= ERF_NEAR` (fitted to the least relative
/// error; Horner's rule from the highest power).
pub(super) const ERF_SMALL: [f32; 8] = [
    -1.046_417_5e-5,
    1.150_066_4e-4,
    -8.511_173e-4,
    5.222_577_6e-3,
    -2.686_588_1e-2,
    1.128_378_9e-1,
    -3.761_263_8e-1,
    core::f32::consts::FRAC_2_SQRT_PI,
];

/// `g(x) = erfc(x)·e^(x²)` on `[ERFC_NEAR, ERFC_FAR]`, by pieces: from each lower bound, the
/// piece's centre and its polynomial in `x - centre` (degree 9, fitted to the least relative
/// error, Horner's rule from the highest power). `g` is smooth and slowly varying
/// (`1/(x·√π)` far out), where `erfc` itself falls by 44 orders of magnitude.
pub(super) const ERFC_PIECES: [(f32, f32, [f32; 10]); 5] = [
    (
        0.47,
        0.735,
        [
            -1.008_089_3e-3,
            2.633_239_1e-3,
            -6.351_51e-3,
            1.493_621_7e-2,
            -3.321_232_6e-2,
            6.923_189e-2,
            -1.339_162_4e-1,
            2.368_920_1e-1,
            -3.749_9e-1,
            5.125_096_4e-1,
        ],
    ),
    (
        1.0,
        1.5,
        [
            -7.607_85e-5,
            2.380_775_5e-4,
            -6.615_449_7e-4,
            1.882_883_7e-3,
            -5.145_932_5e-3,
            1.337_763_1e-2,
            -3.293_091e-2,
            7.615_103e-2,
            -1.636_229_2e-1,
            3.215_854_2e-1,
        ],
    ),
    (
        2.0,
        2.75,
        [
            -2.407_988_2e-6,
            9.755_027e-6,
            -3.464_528_7e-5,
            1.307_760_1e-4,
            -4.821_961_6e-4,
            1.719_663_5e-3,
            -5.934_339_5e-3,
            1.975_858_8e-2,
            -6.323_764e-2,
            1.936_620_9e-1,
        ],
    ),
    (
        3.5,
        4.75,
        [
            -3.949_313_4e-8,
            2.265_218e-7,
            -1.107_483e-6,
            6.044_559e-6,
            -3.277_671_6e-5,
            1.739_487_9e-4,
            -9.080_993_5e-4,
            4.661_322_6e-3,
            -2.350_344_9e-2,
            1.163_027_1e-1,
        ],
    ),
    (
        6.0,
        8.05,
        [
            -3.781_388_3e-10,
            3.320_015_8e-9,
            -2.454_455_1e-8,
            2.085_067_5e-7,
            -1.778_330_4e-6,
            1.494_771_2e-5,
            -1.247_544_9e-4,
            1.034_162_2e-3,
            -8.512_149e-3,
            6.955_696e-2,
        ],
    ),
];

/// `erf(x)` for `|x| <= ERF_NEAR`: `x·P(x²)` (odd, so signed `x` works; subnormal `x` too).
pub(super) fn erf_near(f: &mut F<'_>, x: Word) -> R<Word> {
    let z = f.mul(x, x)?;
    let p = f.horner(z, &ERF_SMALL)?;
    f.mul(x, p)
}

/// `erfc(a)` for `a` in `[ERFC_NEAR, ERFC_FAR]`: `e^(-a²)·g(a)`, the piece of `g` chosen by
/// selecting its coefficients (one polynomial evaluated, not five), and `e^(-a²)` from `a`
/// cut to 12 significant bits, `h`: `-a² = -h² - (a - h)(a + h)`, the first term exact, the
/// second far smaller, so [`exp_parts`] of the two is as precise as `exp` of a float (a
/// rounded `a²` would cost up to 32 ULP at `a = 9`).
pub(super) fn erfc_far(f: &mut F<'_>, a: Word) -> R<Word> {
    let bounds: Vec<Word> = ERFC_PIECES[1..]
        .iter()
        .map(|&(from, _, _)| {
            let from = f.c(from);
            f.cmp(SOp::FOrdGreaterThanEqual, a, from)
        })
        .collect::<R<_>>()?;
    let pick = |f: &mut F<'_>, value: &dyn Fn(usize) -> f32| -> R<Word> {
        let mut v = f.c(value(0));
        for (k, &at) in bounds.iter().enumerate() {
            let next = f.c(value(k + 1));
            v = f.select(at, next, v)?;
        }
        Ok(v)
    };
    let centre = pick(f, &|k| ERFC_PIECES[k].1)?;
    let u = f.sub(a, centre)?;
    let mut g = pick(f, &|k| ERFC_PIECES[k].2[0])?;
    for j in 1..10 {
        let c = pick(f, &|k| ERFC_PIECES[k].2[j])?;
        let m = f.mul(g, u)?;
        g = f.add(m, c)?;
    }
    let h = f.high_bits(a)?;
    let hh = f.mul(h, h)?;
    let hi = f.op(SOp::FNegate, &[hh])?;
    let diff = f.sub(a, h)?;
    let sum = f.add(a, h)?;
    let prod = f.mul(diff, sum)?;
    let lo = f.op(SOp::FNegate, &[prod])?;
    exp_parts(f, hi, Some(lo), Some(g))
}

/// `|x|` held in `[ERFC_NEAR, ERFC_FAR]` (a NaN stays NaN), for [`erfc_far`].
pub(super) fn erfc_argument(f: &mut F<'_>, a: Word) -> R<Word> {
    let (near, far) = (f.c(ERFC_NEAR), f.c(ERFC_FAR));
    let low = f.cmp(SOp::FOrdLessThan, a, near)?;
    let high = f.cmp(SOp::FOrdGreaterThan, a, far)?;
    let held = f.select(low, near, a)?;
    f.select(high, far, held)
}

/// `erf(x)`: `x·P(x²)` to `|x| = 0.9`, `±(1 - erfc(|x|))` beyond (where `erfc` is below
/// 0.21, so its error shrinks in the subtraction). At most 2 ULP on a sweep; `±0` are
/// themselves, `±inf` give `±1`.
pub(super) fn erf(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let near = erf_near(f, x)?;
    let held = erfc_argument(f, a)?;
    let tail = erfc_far(f, held)?;
    let one = f.c(1.0);
    let far = f.sub(one, tail)?;
    let far = f.copysign(far, x)?;
    let cut = f.c(ERF_NEAR);
    let inside = f.cmp(SOp::FOrdLessThan, a, cut)?;
    let r = f.select(inside, near, far)?;
    let nan = f.is_nan(x)?;
    f.select(nan, x, r)
}

/// `erfc(x)`: `1 - erf(x)` for `|x| < 0.47`, `e^(-x²)·g(x)` beyond ([`erfc_far`]), and
/// `2 - erfc(-x)` for negative `x`. At most 3 ULP on a sweep; `+inf` gives 0, `-inf` 2.
pub(super) fn erfc(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let e = erf_near(f, x)?;
    let one = f.c(1.0);
    let near = f.sub(one, e)?;
    let held = erfc_argument(f, a)?;
    let tail = erfc_far(f, held)?;
    let (zero, two) = (f.c(0.0), f.c(2.0));
    let cut_far = f.c(ERFC_FAR);
    let gone = f.cmp(SOp::FOrdGreaterThan, a, cut_far)?;
    let tail = f.select(gone, zero, tail)?;
    let reflected = f.sub(two, tail)?;
    let negative = f.cmp(SOp::FOrdLessThan, x, zero)?;
    let far = f.select(negative, reflected, tail)?;
    let cut = f.c(ERFC_NEAR);
    let inside = f.cmp(SOp::FOrdLessThan, a, cut)?;
    let r = f.select(inside, near, far)?;
    let nan = f.is_nan(x)?;
    f.select(nan, x, r)
}

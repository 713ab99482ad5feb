//! `cbrt`, `erf` and `erfc` on `f64`: FreeBSD's `s_cbrt.c` (Bruce D. Evans's, within 0.667
//! ULP) and fdlibm's `s_erf.c` (within 1 ULP), as musl keeps them, written branch-free as
//! the rest of [`super`] (every range's formula is computed and `OpSelect` picks one).
//!
//! Invariants: as [`super`]'s; the formulas of ranges not taken may overflow or divide by
//! zero, and their results are never picked.

use rspirv::spirv::{Op as SOp, Word};

use super::{exp, D};
use crate::emit::R;

/// `∛x` (FreeBSD's `s_cbrt.c`): a first guess to 5 bits from the exponent's bits divided by
/// 3, a polynomial step to 23 bits, rounded to 22 bits so that its square is exact, then one
/// Newton step in double precision. Zeros, infinities and NaN are themselves.
pub(super) fn cbrt(d: &mut D<'_>, x: Word) -> R<Word> {
    const B1: u64 = 715_094_163; // (1023 - 1023/3 - 0.03306235651)·2^20
    const B2: u64 = 696_219_795; // (1023 - 1023/3 - 54/3 - 0.03306235651)·2^20
                                 // |1/cbrt(x) - p(x)| < 2^-23.5
    const P: [f64; 5] = [
        1.875_951_824_271_770_096_43,
        -1.884_979_795_433_771_698_75,
        1.621_429_720_105_354_466_140,
        -0.758_397_934_778_766_047_437,
        0.145_996_192_886_612_446_982,
    ];
    let hx = abs_high(d, x)?;
    // A subnormal is scaled by 2^54 first (B2 takes 54/3 off the exponent again).
    let scale = d.c(f64::from_bits(0x4350_0000_0000_0000));
    let xs = d.mul(x, scale)?;
    let hs = abs_high(d, xs)?;
    let three = d.cu(3);
    let (b1, b2) = (d.cu(B1), d.cu(B2));
    let q1 = d.u(SOp::UDiv, hx, three)?;
    let q1 = d.u(SOp::IAdd, q1, b1)?;
    let q2 = d.u(SOp::UDiv, hs, three)?;
    let q2 = d.u(SOp::IAdd, q2, b2)?;
    let normal = d.cu(0x0010_0000);
    let bt = d.bt;
    let sub = d.e.b.op(SOp::ULessThan, bt, None, &[hx, normal])?;
    let ut = d.ut;
    let h = d.pick(ut, sub, q2, q1)?;
    let bits = d.bits(x)?;
    let sign = d.cu(1 << 63);
    let sign = d.u(SOp::BitwiseAnd, bits, sign)?;
    let c32 = d.cu(32);
    let h = d.u(SOp::ShiftLeftLogical, h, c32)?;
    let tb = d.u(SOp::BitwiseOr, sign, h)?;
    let t = d.of_bits(tb)?;
    // r = (t·t)·(t/x); t = t·((P0 + r·(P1 + r·P2)) + ((r·r)·r)·(P3 + r·P4))
    let tt = d.mul(t, t)?;
    let tx = d.div(t, x)?;
    let r = d.mul(tt, tx)?;
    let lowp = d.horner(r, &[P[2], P[1], P[0]])?;
    let highp = d.horner(r, &[P[4], P[3]])?;
    let rr = d.mul(r, r)?;
    let rrr = d.mul(rr, r)?;
    let hp = d.mul(rrr, highp)?;
    let p = d.add(lowp, hp)?;
    let t = d.mul(t, p)?;
    // Round t to 22 bits (away from zero by half an ULP of that width), so t·t is exact.
    let tb = d.bits(t)?;
    let (half, mask) = (d.cu(0x8000_0000), d.cu(0xffff_ffff_c000_0000));
    let tb = d.u(SOp::IAdd, tb, half)?;
    let tb = d.u(SOp::BitwiseAnd, tb, mask)?;
    let t = d.of_bits(tb)?;
    // One Newton step: r = (x/(t·t) - t)/(2t + x/(t·t)); t + t·r.
    let s = d.mul(t, t)?;
    let r = d.div(x, s)?;
    let w = d.add(t, t)?;
    let num = d.sub(r, t)?;
    let den = d.add(w, r)?;
    let r = d.div(num, den)?;
    let tr = d.mul(t, r)?;
    let y = d.add(t, tr)?;
    // Zeros are themselves; infinities and NaN are `x + x`.
    let zero = d.c(0.0);
    let is_zero = d.cmp(SOp::FOrdEqual, x, zero)?;
    let y = d.select(is_zero, x, y)?;
    let inf = d.cu(0x7ff0_0000);
    let special = d.e.b.op(SOp::UGreaterThanEqual, bt, None, &[hx, inf])?;
    let xx = d.add(x, x)?;
    d.select(special, xx, y)
}

/// The high word of `|x|`'s bits (fdlibm's `GET_HIGH_WORD(ix, x); ix &= 0x7fffffff`), as a
/// `u64`.
fn abs_high(d: &mut D<'_>, x: Word) -> R<Word> {
    let b = d.bits(x)?;
    let c32 = d.cu(32);
    let h = d.u(SOp::ShiftRightLogical, b, c32)?;
    let m = d.cu(0x7fff_ffff);
    d.u(SOp::BitwiseAnd, h, m)
}

/// Which of [`erf`]'s functions.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Erf {
    Erf,
    Erfc,
}

// erf(x) = x + x·R(x²)/S(x²) on |x| < 0.84375 (fdlibm's pp/qq).
const PP: [f64; 5] = [
    -2.376_301_665_665_016_260_84e-05,
    -5.770_270_296_489_441_591_57e-03,
    -2.848_174_957_559_851_047_66e-02,
    -3.250_421_072_470_014_993_70e-01,
    1.283_791_670_955_125_585_61e-01,
];
const QQ: [f64; 6] = [
    -3.960_228_278_775_368_123_20e-06,
    1.324_947_380_043_216_445_26e-04,
    5.081_306_281_875_765_627_76e-03,
    6.502_224_998_876_729_444_85e-02,
    3.979_172_239_591_553_528_19e-01,
    1.0,
];
// erf(1 + s) ≈ erx + P(s)/Q(s) on 0.84375 <= |x| < 1.25.
const ERX: f64 = 8.450_629_115_104_675_292_97e-01;
const PA: [f64; 7] = [
    -2.166_375_594_868_790_843_00e-03,
    3.547_830_432_561_823_593_71e-02,
    -1.108_946_942_823_966_774_76e-01,
    3.183_466_199_011_617_536_74e-01,
    -3.722_078_760_357_013_238_47e-01,
    4.148_561_186_837_483_316_66e-01,
    -2.362_118_560_752_659_440_77e-03,
];
const QA: [f64; 7] = [
    1.198_449_984_679_910_741_70e-02,
    1.363_708_391_202_905_073_62e-02,
    1.261_712_198_087_616_421_12e-01,
    7.182_865_441_419_626_628_68e-02,
    5.403_979_177_021_710_489_37e-01,
    1.064_208_804_008_442_282_86e-01,
    1.0,
];
// erfc(x) ≈ exp(-x² - 0.5625 + R(1/x²)/S(1/x²))/x on 1.25 <= |x| < 1/0.35.
const RA: [f64; 8] = [
    -9.814_329_344_169_145_485_92e+00,
    -8.128_743_550_630_659_342_46e+01,
    -1.846_050_929_067_110_359_94e+02,
    -1.623_966_694_625_734_703_55e+02,
    -6.237_533_245_032_600_603_96e+01,
    -1.055_862_622_532_329_098_14e+01,
    -6.938_585_727_071_817_643_72e-01,
    -9.864_944_034_847_148_227_05e-03,
];
const SA: [f64; 9] = [
    -6.042_441_521_485_809_874_38e-02,
    6.570_249_770_319_281_701_35e+00,
    1.086_350_055_417_794_351_34e+02,
    4.290_081_400_275_678_333_86e+02,
    6.453_872_717_332_678_803_36e+02,
    4.345_658_774_752_292_288_21e+02,
    1.376_577_541_435_190_426_00e+02,
    1.965_127_166_743_925_712_92e+01,
    1.0,
];
// The same on 1/0.35 <= |x| < 28.
const RB: [f64; 7] = [
    -4.835_191_916_086_513_970_19e+02,
    -1.025_095_131_611_077_249_54e+03,
    -6.375_664_433_683_896_277_22e+02,
    -1.606_363_848_558_219_160_62e+02,
    -1.775_795_491_775_475_198_89e+01,
    -7.992_832_376_805_230_065_74e-01,
    -9.864_942_924_700_099_285_97e-03,
];
const SB: [f64; 8] = [
    -2.244_095_244_658_581_833_62e+01,
    4.745_285_412_069_553_672_15e+02,
    2.553_050_406_433_164_425_83e+03,
    3.199_858_219_508_595_539_08e+03,
    1.536_729_586_084_436_959_94e+03,
    3.257_925_129_965_739_188_26e+02,
    3.033_806_074_348_245_829_24e+01,
    1.0,
];

/// `erf(x)` or `erfc(x)` (fdlibm's `s_erf.c`): a rational function of `x²` below 0.84375, of
/// `|x| - 1` below 1.25, and past it `exp(-z² - 0.5625)·exp((z - |x|)(z + |x|) + R/S)/|x|`
/// (`z` is `|x|` cut to its high word, so that `z²` is exact) for `erfc(|x|)`, with `R/S`
/// rational in `1/x²` (two forms, below and past 1/0.35); `erf` is 1 (with `x`'s sign) past
/// 6, `erfc` 0 or 2 past 28. NaN is itself.
pub(super) fn erf(d: &mut D<'_>, x: Word, which: Erf) -> R<Word> {
    let (one, two, half) = (d.c(1.0), d.c(2.0), d.c(0.5));
    let ax = d.abs(x)?;
    let neg = d.sign_bit(x)?;
    // |x| < 0.84375: y = R(x²)/S(x²).
    let z = d.mul(x, x)?;
    let r = d.horner(z, &PP)?;
    let s = d.horner(z, &QQ)?;
    let y = d.div(r, s)?;
    let xy = d.mul(x, y)?;
    let small_erf = d.add(x, xy)?;
    // 0.84375 <= |x| < 1.25: erx + P/Q of s = |x| - 1.
    let s1 = d.sub(ax, one)?;
    let p = d.horner(s1, &PA)?;
    let q = d.horner(s1, &QA)?;
    let pq = d.div(p, q)?;
    let erx = d.c(ERX);
    let erf1 = d.add(erx, pq)?; // erf(|x|)
    let a = d.sub(one, erx)?;
    let erfc1 = d.sub(a, pq)?; // erfc(|x|)
                               // 1.25 <= |x|: erfc(|x|) from exp.
    let erfc2 = erfc_tail(d, ax)?;
    let b125 = d.c(1.25);
    let lt125 = d.cmp(SOp::FOrdLessThan, ax, b125)?;
    let erfc_ax = d.select(lt125, erfc1, erfc2)?;
    let b084 = d.c(0.84375);
    let small = d.cmp(SOp::FOrdLessThan, ax, b084)?;
    let r = match which {
        Erf::Erf => {
            // |x| < 2^-28: x + x·efx, written so that it does not underflow.
            let (efx8, eighth, eight) = (d.c(1.027_033_336_764_100_690_53), d.c(0.125), d.c(8.0));
            let a = d.mul(eight, x)?;
            let b = d.mul(efx8, x)?;
            let a = d.add(a, b)?;
            let tiny_r = d.mul(eighth, a)?;
            let tiny = d.c(f64::from_bits(0x3e30_0000_0000_0000));
            let is_tiny = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
            let small_r = d.select(is_tiny, tiny_r, small_erf)?;
            // Past 0.84375: 1 - erfc(|x|) (erx + P/Q below 1.25), 1 past 6; x's sign.
            let big = d.sub(one, erfc_ax)?;
            let big = d.select(lt125, erf1, big)?;
            let six = d.c(6.0);
            let past = d.cmp(SOp::FOrdGreaterThanEqual, ax, six)?;
            let big = d.select(past, one, big)?;
            let nbig = d.neg(big)?;
            let big = d.select(neg, nbig, big)?;
            d.select(small, small_r, big)?
        }
        Erf::Erfc => {
            // |x| < 2^-56: 1 - x. Below 1/4 (or negative): 1 - (x + x·y); else
            // 0.5 - (x - 0.5 + x·y).
            let a = d.add(x, xy)?;
            let low = d.sub(one, a)?;
            let a = d.sub(x, half)?;
            let a = d.add(a, xy)?;
            let high = d.sub(half, a)?;
            let quarter = d.c(0.25);
            let lt_q = d.cmp(SOp::FOrdLessThan, x, quarter)?;
            let small_r = d.select(lt_q, low, high)?;
            let tiny = d.c(f64::from_bits(0x3c70_0000_0000_0000));
            let is_tiny = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
            let omx = d.sub(one, x)?;
            let small_r = d.select(is_tiny, omx, small_r)?;
            // Past 0.84375: erfc(|x|), or 2 - erfc(|x|) for a negative x; 0 or 2 past 28.
            let zero = d.c(0.0);
            let twenty_eight = d.c(28.0);
            let past = d.cmp(SOp::FOrdGreaterThanEqual, ax, twenty_eight)?;
            let pos = d.select(past, zero, erfc_ax)?;
            let m = d.sub(two, erfc_ax)?;
            let negr = d.select(past, two, m)?;
            let big = d.select(neg, negr, pos)?;
            d.select(small, small_r, big)?
        }
    };
    d.nan_through(x, r)
}

/// `erfc(a)` for `a = |x| >= 1.25` (fdlibm's `erfc2`; what it gives elsewhere is not used).
fn erfc_tail(d: &mut D<'_>, a: Word) -> R<Word> {
    let one = d.c(1.0);
    let aa = d.mul(a, a)?;
    let s = d.div(one, aa)?;
    let ra = d.horner(s, &RA)?;
    let sa = d.horner(s, &SA)?;
    let rb = d.horner(s, &RB)?;
    let sb = d.horner(s, &SB)?;
    let lim = d.c(f64::from_bits(0x4006_db6d_0000_0000)); // 1/0.35
    let first = d.cmp(SOp::FOrdLessThan, a, lim)?;
    let r = d.select(first, ra, rb)?;
    let s = d.select(first, sa, sb)?;
    let z = d.high_word(a)?;
    // exp(-z·z - 0.5625)·exp((z - a)·(z + a) + R/S)/a
    let zz = d.mul(z, z)?;
    let nzz = d.neg(zz)?;
    let c = d.c(0.5625);
    let e1 = d.sub(nzz, c)?;
    let e1 = exp(d, e1)?;
    let zm = d.sub(z, a)?;
    let zp = d.add(z, a)?;
    let m = d.mul(zm, zp)?;
    let rs = d.div(r, s)?;
    let e2 = d.add(m, rs)?;
    let e2 = exp(d, e2)?;
    let p = d.mul(e1, e2)?;
    d.div(p, a)
}

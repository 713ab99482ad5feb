//! `pow(x, y)` as C's `powf`: `y·log2|x|` carried as exact products summed in fixed point
//! (a table of `log2` over `[0.75, 1.5)` in private memory), then `2^w`.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, StorageClass, Word};
use spirthon_ir::Ty;

use super::f::F;
use crate::emit::R;

/// The entries of `pow`'s table: `c_k = 0.75 + k/128` for `k < 96` (so `m` in
/// `[0.75, 1.5)` is `c_k + r` with `0 <= r < 1/128`, the subtraction exact).
pub(super) const POW_STEPS: u32 = 96;

/// The values of `pow`'s table, computed once per process.
pub(super) fn pow_table_values() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = Vec::with_capacity(3 * POW_STEPS as usize);
        for k in 0..POW_STEPS {
            let c = 0.75 + f64::from(k) / 128.0;
            let t = c.log2();
            let high = f32::from_bits((t as f32).to_bits() & 0xffff_f000);
            let low = (t - f64::from(high)) as f32;
            v.extend([(1.0 / c) as f32, high, low]);
        }
        v
    })
}

/// `pow`'s table in private memory (made once per module): for each `c_k`, `1/c_k`,
/// `log2(c_k)` cut to 12 significant bits (so that its products with 12-bit halves of `y` are
/// exact) and the rest of `log2(c_k)`; `3·k + j` is entry `j` of `c_k`.
pub(super) fn pow_table(f: &mut F<'_>) -> Word {
    if let Some(t) = f.e.pow_table {
        return t;
    }
    let parts: Vec<Word> = pow_table_values().iter().map(|&v| f.c(v)).collect();
    let ft = f.ft;
    let n = f.cu(parts.len() as u32);
    let at = f.e.b.type_array(ft, n);
    let init = f.e.b.constant_composite(at, &parts);
    let pt = f.e.b.type_pointer(StorageClass::Private, at);
    let var = f.e.b.variable_init(pt, StorageClass::Private, init);
    f.e.name(var, "spirthon_pow_table");
    f.e.pow_table = Some(var);
    var
}

/// `pow(x, y)` as C's `powf` (and CPython's `math.pow` where that does not raise): `2^w`
/// with `w = y·log2|x|` carried as an integer and a fraction. With `|x| = m·2^e`,
/// `m = c_k + r` from the table, `w` is `y·e + y·log2(c_k) + y·log2(1 + r/c_k)`: the
/// first two are sums of exact products (`y` cut into two 12-bit halves), whose integer
/// parts are added as floats (exact) and whose fractions as 29-bit fixed-point integers
/// (exact, whatever order a driver adds them in); only the last term, below `|y|/90`, is
/// rounded. `2^fraction` is Cephes' `exp2f` polynomial on `[-0.5, 0.5]`. Within 4 ULP of the
/// correctly rounded result for `|y| <= 128`; beyond, the rounded term's error grows as
/// about `|y|/40` ULP. Special operands as C: `pow(x, 0)` and `pow(1, y)` are 1, a negative
/// `x` with a non-integer `y` is NaN, zeros and infinities give zeros and infinities with
/// the sign of `x` for odd integer `y` (`pow(-inf, 0.5)` is `inf`).
pub(super) fn pow(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
    let (ax, e, m) = split_exponent(f, x)?;
    let (whole, fraction) = log2_times(f, m, e, y)?;
    let mag = exp2_of(f, whole, fraction)?;
    special_operands(f, x, y, ax, e, mag)
}

/// `|x| = m·2^e` with `m` in `[0.75, 1.5)` (a subnormal scaled by 2^24 first): `(|x|, e, m)`,
/// `e` an `i32`.
fn split_exponent(f: &mut F<'_>, x: Word) -> R<(Word, Word, Word)> {
    let (ut, it) = (f.ut, f.e.ty(Ty::I32));
    let ax = f.glsl(GLOp::FAbs, x)?;
    let min_normal = f.c(f32::MIN_POSITIVE);
    let subnormal = f.cmp(SOp::FOrdLessThan, ax, min_normal)?;
    let two24 = f.c(16_777_216.0);
    let scaled = f.mul(ax, two24)?;
    let a = f.select(subnormal, scaled, ax)?;
    let ab = f.e.b.op(SOp::Bitcast, ut, None, &[a])?;
    let c23 = f.cu(23);
    let ef = f.e.b.op(SOp::ShiftRightLogical, ut, None, &[ab, c23])?;
    let ef = f.e.b.op(SOp::Bitcast, it, None, &[ef])?;
    let (b127, b151) = (f.ci(127), f.ci(151));
    let bias = f.e.b.op(SOp::Select, it, None, &[subnormal, b151, b127])?;
    let e = f.e.b.op(SOp::ISub, it, None, &[ef, bias])?;
    let frac_mask = f.cu(0x007f_ffff);
    let one_bits = f.cu(0x3f80_0000);
    let mb = f.e.b.op(SOp::BitwiseAnd, ut, None, &[ab, frac_mask])?;
    let mb = f.e.b.op(SOp::BitwiseOr, ut, None, &[mb, one_bits])?;
    let m = f.op(SOp::Bitcast, &[mb])?;
    let three_halves = f.c(1.5);
    let upper = f.cmp(SOp::FOrdGreaterThanEqual, m, three_halves)?;
    let half = f.c(0.5);
    let m_half = f.mul(m, half)?;
    let m = f.select(upper, m_half, m)?;
    let (one_i, zero_i) = (f.ci(1), f.ci(0));
    let bump = f.e.b.op(SOp::Select, it, None, &[upper, one_i, zero_i])?;
    let e = f.e.b.op(SOp::IAdd, it, None, &[e, bump])?;
    Ok((ax, e, m))
}

/// `y·log2|x|` for `|x| = m·2^e`, as a whole number (a float) and a fraction in
/// `[-0.5, 0.5)`: its five terms' whole parts added as floats and their fractions as 29-bit
/// fixed-point integers, both exact.
fn log2_times(f: &mut F<'_>, m: Word, e: Word, y: Word) -> R<(Word, Word)> {
    let (it, ft) = (f.e.ty(Ty::I32), f.ft);
    let glsl = f.e.glsl;
    let zero_i = f.ci(0);
    // The table entry: `k = floor((m - 0.75)·128)`, `r = m - c_k` (both exact).
    let three_quarters = f.c(0.75);
    let steps = f.c(128.0);
    let off = f.sub(m, three_quarters)?;
    let kf = f.mul(off, steps)?;
    let k = f.e.b.op(SOp::ConvertFToS, it, None, &[kf])?;
    let last = f.ci(POW_STEPS as i32 - 1);
    let k =
        f.e.b
            .ext_inst(it, None, glsl, GLOp::SClamp as u32, &[k, zero_i, last])?;
    let kf = f.op(SOp::ConvertSToF, &[k])?;
    let step = f.c(1.0 / 128.0);
    let c = f.mul(kf, step)?;
    let c = f.add(c, three_quarters)?;
    let r = f.sub(m, c)?;
    let table = pow_table(f);
    let three = f.ci(3);
    let base = f.e.b.op(SOp::IMul, it, None, &[k, three])?;
    let pf = f.e.b.type_pointer(StorageClass::Private, ft);
    let entry = |f: &mut F<'_>, j: i32| -> R<Word> {
        let jw = f.ci(j);
        let at = f.e.b.op(SOp::IAdd, it, None, &[base, jw])?;
        let ptr = f.e.b.op(SOp::AccessChain, pf, None, &[table, at])?;
        f.op(SOp::Load, &[ptr])
    };
    let inv_c = entry(f, 0)?;
    let log_high = entry(f, 1)?;
    let log_low = entry(f, 2)?;
    // log2(1 + z), z = r/c_k < 1/96: z times the series of log2(1 + z)/z.
    let z = f.mul(r, inv_c)?;
    let series: Vec<f32> = (0..6)
        .rev()
        .map(|n| (core::f64::consts::LOG2_E * (-1f64).powi(n) / f64::from(n + 1)) as f32)
        .collect();
    let q = f.horner(z, &series)?;
    let p = f.mul(z, q)?;
    // The five terms of `w`; `y = yh + yl`, each with at most 12 significant bits.
    let yh = f.high_bits(y)?;
    let yl = f.sub(y, yh)?;
    let e_f = f.op(SOp::ConvertSToF, &[e])?;
    let rest = f.add(log_low, p)?;
    let terms = [
        f.mul(yh, e_f)?,
        f.mul(yl, e_f)?,
        f.mul(yh, log_high)?,
        f.mul(yl, log_high)?,
        f.mul(y, rest)?,
    ];
    fixed_point_sum(f, terms)
}

/// The sum of `terms` as a whole number (a float) and a fraction in `[-0.5, 0.5)`: their
/// whole parts added as floats, their fractions as 29-bit fixed-point integers (both exact,
/// in whatever order a driver adds them).
fn fixed_point_sum(f: &mut F<'_>, terms: [Word; 5]) -> R<(Word, Word)> {
    let ut = f.ut;
    let half = f.c(0.5);
    let mut whole = f.c(0.0);
    let mut fixed = f.cu(0);
    let two29 = f.c(536_870_912.0);
    for t in terms {
        let fl = f.glsl(GLOp::Floor, t)?;
        whole = f.add(whole, fl)?;
        let fr = f.sub(t, fl)?;
        let fr = f.mul(fr, two29)?;
        let fr = f.e.b.op(SOp::ConvertFToU, ut, None, &[fr])?;
        fixed = f.e.b.op(SOp::IAdd, ut, None, &[fixed, fr])?;
    }
    let c29 = f.cu(29);
    let carry = f.e.b.op(SOp::ShiftRightLogical, ut, None, &[fixed, c29])?;
    let carry = f.op(SOp::ConvertUToF, &[carry])?;
    let whole = f.add(whole, carry)?;
    let low29 = f.cu((1 << 29) - 1);
    let fixed = f.e.b.op(SOp::BitwiseAnd, ut, None, &[fixed, low29])?;
    let fraction = f.op(SOp::ConvertUToF, &[fixed])?;
    let inv29 = f.c(1.0 / 536_870_912.0);
    let fraction = f.mul(fraction, inv29)?;
    let one = f.c(1.0);
    let round_up = f.cmp(SOp::FOrdGreaterThanEqual, fraction, half)?;
    let fm1 = f.sub(fraction, one)?;
    let fraction = f.select(round_up, fm1, fraction)?;
    let w1 = f.add(whole, one)?;
    let whole = f.select(round_up, w1, whole)?;
    Ok((whole, fraction))
}

/// `2^(whole + fraction)`: Cephes' `exp2f` polynomial on the fraction, then the power of two
/// in two halves.
fn exp2_of(f: &mut F<'_>, whole: Word, fraction: Word) -> R<Word> {
    let it = f.e.ty(Ty::I32);
    let one = f.c(1.0);
    let poly = f.horner(
        fraction,
        &[
            1.535_336_2e-4,
            1.339_887_4e-3,
            9.618_437e-3,
            5.550_332_5e-2,
            2.402_264_8e-1,
            6.931_472e-1,
        ],
    )?;
    let px = f.mul(fraction, poly)?;
    let mant = f.add(one, px)?;
    let (lo, hi) = (f.c(-252.0), f.c(254.0));
    let n = f.glsl3(GLOp::FClamp, whole, lo, hi)?;
    let n = f.e.b.op(SOp::ConvertFToS, it, None, &[n])?;
    f.ldexp(mant, n)
}

/// C's special operands of `pow` over the magnitude `mag` computed for the rest: zeros,
/// infinities and huge exponents, the sign for an odd integer `y`, NaN for a negative `x`
/// with a non-integer `y`, and 1 for `pow(x, 0)` and `pow(1, y)`.
fn special_operands(f: &mut F<'_>, x: Word, y: Word, ax: Word, e: Word, mag: Word) -> R<Word> {
    let (it, bt) = (f.e.ty(Ty::I32), f.bt);
    let (one_i, zero_i, one) = (f.ci(1), f.ci(0), f.c(1.0));
    // Special operands, from the bits where infinities are involved.
    let inf_bits = f.cu(0x7f80_0000);
    let inf = f.op(SOp::Bitcast, &[inf_bits])?;
    let zero = f.c(0.0);
    let y_pos = f.cmp(SOp::FOrdGreaterThan, y, zero)?;
    let big_or_zero = f.select(y_pos, inf, zero)?;
    let tiny_or_big = f.select(y_pos, zero, inf)?;
    // |y| > 4096 with e != 0: |w| > 1600, past either end.
    let ay = f.glsl(GLOp::FAbs, y)?;
    let huge_y = f.c(4096.0);
    let y_huge = f.cmp(SOp::FOrdGreaterThan, ay, huge_y)?;
    let e_nonzero = f.e.b.op(SOp::INotEqual, bt, None, &[e, zero_i])?;
    let e_pos = f.e.b.op(SOp::SGreaterThan, bt, None, &[e, zero_i])?;
    let saturates = f.e.b.op(SOp::LogicalAnd, bt, None, &[y_huge, e_nonzero])?;
    let same_sign = f.e.b.op(SOp::LogicalEqual, bt, None, &[y_pos, e_pos])?;
    let sat = f.select(same_sign, inf, zero)?;
    let mag = f.select(saturates, sat, mag)?;
    let x_zero = f.cmp(SOp::FOrdEqual, ax, zero)?;
    let mag = f.select(x_zero, tiny_or_big, mag)?;
    let x_inf = f.is_inf(x)?;
    let mag = f.select(x_inf, big_or_zero, mag)?;
    let y_inf = f.is_inf(y)?;
    let above_one = f.cmp(SOp::FOrdGreaterThan, ax, one)?;
    let grows = f.e.b.op(SOp::LogicalEqual, bt, None, &[above_one, y_pos])?;
    let y_inf_value = f.select(grows, inf, zero)?;
    let x_unit = f.cmp(SOp::FOrdEqual, ax, one)?;
    let y_inf_value = f.select(x_unit, one, y_inf_value)?;
    let mag = f.select(y_inf, y_inf_value, mag)?;
    // The sign: negative for a negative `x` (or -0.0) and an odd integer `y`.
    let fy = f.glsl(GLOp::Floor, y)?;
    let y_int = f.cmp(SOp::FOrdEqual, fy, y)?;
    let limit = f.c(16_777_216.0);
    let small = f.cmp(SOp::FOrdLessThan, ay, limit)?;
    let yc = f.select(small, y, zero)?;
    let yi = f.e.b.op(SOp::ConvertFToS, it, None, &[yc])?;
    let parity = f.e.b.op(SOp::BitwiseAnd, it, None, &[yi, one_i])?;
    let odd = f.e.b.op(SOp::IEqual, bt, None, &[parity, one_i])?;
    let odd = f.e.b.op(SOp::LogicalAnd, bt, None, &[odd, y_int])?;
    let signed = f.copysign(mag, x)?;
    let r = f.select(odd, signed, mag)?;
    // NaN: a negative `x` with a non-integer `y`, or a NaN operand; then the two cases that
    // are 1 whatever the other operand.
    let nan_bits = f.cu(0x7fc0_0000);
    let nan = f.op(SOp::Bitcast, &[nan_bits])?;
    let x_neg = f.cmp(SOp::FOrdLessThan, x, zero)?;
    let not_int = f.e.b.op(SOp::LogicalNot, bt, None, &[y_int])?;
    let y_finite_not_int = {
        let y_not_inf = f.e.b.op(SOp::LogicalNot, bt, None, &[y_inf])?;
        f.e.b.op(SOp::LogicalAnd, bt, None, &[not_int, y_not_inf])?
    };
    let x_finite = f.e.b.op(SOp::LogicalNot, bt, None, &[x_inf])?;
    let x_neg = f.e.b.op(SOp::LogicalAnd, bt, None, &[x_neg, x_finite])?;
    let neg_frac =
        f.e.b
            .op(SOp::LogicalAnd, bt, None, &[x_neg, y_finite_not_int])?;
    let x_nan = f.is_nan(x)?;
    let y_nan = f.is_nan(y)?;
    let any_nan = f.e.b.op(SOp::LogicalOr, bt, None, &[x_nan, y_nan])?;
    let bad = f.e.b.op(SOp::LogicalOr, bt, None, &[neg_frac, any_nan])?;
    let r = f.select(bad, nan, r)?;
    let y_zero = f.cmp(SOp::FOrdEqual, y, zero)?;
    let x_one = f.cmp(SOp::FOrdEqual, x, one)?;
    let is_one = f.e.b.op(SOp::LogicalOr, bt, None, &[y_zero, x_one])?;
    f.select(is_one, one, r)
}

//! `math` functions on `f64` computed by the module itself: GLSL.std.450 has no double form
//! of `Exp`, `Log`, `Sin` and the rest. The algorithms are fdlibm's (Sun Microsystems, 1993,
//! as FreeBSD's msun keeps them: `e_exp.c`, `e_log.c`, `e_log2.c`, `e_log10.c`, `k_sin.c`,
//! `k_cos.c`, `k_tan.c`, `e_rem_pio2.c`), within 1 ULP of the correctly rounded result on
//! their ranges, written branch-free (both sides of each test are computed and an
//! `OpSelect` picks one) but for the argument reduction of `sin`, `cos` and `tan`, whose
//! large form (Payne and Hanek's) runs in a branch of its own.
//!
//! Invariants: operands and results are scalar `f64`; every arithmetic instruction is
//! decorated `NoContraction`, which a driver must not reassociate or fuse (the algorithms
//! rely on exact cancellations such as `(x - fn·π/2) - …`); the bits are read through
//! `u64` (so these need `shaderInt64` besides `shaderFloat64`); a NaN operand gives NaN.
//!
//! `sin`, `cos` and `tan` reduce their argument by `π/2` in three parts (fdlibm's "medium"
//! reduction, 118 bits of `π/2`): exact for `|x| < 2^20·π/2` (about 1.6e6), and from there on
//! the error grows with `|x|` (about `|x|·2^-106` absolute; such an argument carries no
//! fraction worth the name anyway, but Python's `math.sin` reduces it exactly).

// The constants are written as fdlibm writes them (digits past a double's precision
// included), so that they can be checked against it.
#![allow(clippy::excessive_precision)]

use rspirv::spirv::{Decoration, GlslStd450Op as GLOp, Op as SOp, StorageClass, Word};
use spirthon_ir::cfg::MathFn;
use spirthon_ir::{Const, Ty};

use crate::emit::{Emitter, R};

mod cbrt_erf;

/// The functions this module computes on `f64` in a helper of its own: those the built-in
/// table gives an `f64` form that the device does not compute exactly
/// ([`MathFn::takes_f64`]), but `fmod` (the `%` helper, [`super::fmod64`]) and `copysign`
/// (inline, [`copysign`]).
pub(super) fn has(mf: MathFn) -> bool {
    mf.takes_f64() && !mf.exact_on_f64() && !matches!(mf, MathFn::Fmod | MathFn::Copysign)
}

/// `math.copysign(mag, sign)` of `f64`s into `id`, from the bits (as `u64`s).
pub(in crate::emit) fn copysign(e: &mut Emitter, mag: Word, sign: Word, id: Word) -> R<()> {
    let mut d = D::new(e);
    let (m, s) = (d.bits(mag)?, d.bits(sign)?);
    let (low, high) = (d.cu(0x7fff_ffff_ffff_ffff), d.cu(1 << 63));
    let m = d.u(SOp::BitwiseAnd, m, low)?;
    let s = d.u(SOp::BitwiseAnd, s, high)?;
    let r = d.u(SOp::BitwiseOr, m, s)?;
    let dt = d.dt;
    d.e.b.op(SOp::Bitcast, dt, Some(id), &[r])?;
    Ok(())
}

/// The body of the helper for `mf` of `args`, in the current block; its result.
pub(super) fn body(e: &mut Emitter, mf: MathFn, args: &[Word]) -> R<Word> {
    let mut d = D::new(e);
    let x = args[0];
    match mf {
        MathFn::Atan => atan(&mut d, x),
        MathFn::Atan2 => atan2(&mut d, x, args[1]),
        MathFn::Asin => asin(&mut d, x),
        MathFn::Acos => acos(&mut d, x),
        MathFn::Hypot => hypot(&mut d, x, args[1]),
        MathFn::Pow => pow(&mut d, x, args[1]),
        MathFn::Expm1 => expm1(&mut d, x),
        MathFn::Sinh => sinh(&mut d, x),
        MathFn::Cosh => cosh(&mut d, x),
        MathFn::Tanh => tanh(&mut d, x),
        MathFn::Log1p => log1p(&mut d, x),
        MathFn::Cbrt => cbrt_erf::cbrt(&mut d, x),
        MathFn::Erf => cbrt_erf::erf(&mut d, x, cbrt_erf::Erf::Erf),
        MathFn::Erfc => cbrt_erf::erf(&mut d, x, cbrt_erf::Erf::Erfc),
        // `2^x` is `pow(2, x)`: exact for whole `x`, within 1 ULP otherwise.
        MathFn::Exp2 => {
            let two = d.c(2.0);
            pow(&mut d, two, x)
        }
        MathFn::Exp => exp(&mut d, x),
        MathFn::Log => log(&mut d, x, LogBase::E),
        MathFn::Log2 => log(&mut d, x, LogBase::Two),
        MathFn::Log10 => log(&mut d, x, LogBase::Ten),
        MathFn::Sin => sin_cos(&mut d, x, Trig::Sin),
        MathFn::Cos => sin_cos(&mut d, x, Trig::Cos),
        MathFn::Tan => sin_cos(&mut d, x, Trig::Tan),
        other => Err(super::super::EmitError(format!("no own f64 {other:?}"))),
    }
}

/// Scalar `f64` arithmetic over the emitter (each instruction `NoContraction`), with the
/// `u64` and `i64` operations that read and build the bits.
struct D<'e> {
    e: &'e mut Emitter,
    dt: Word,
    bt: Word,
    ut: Word,
    it: Word,
}

impl<'e> D<'e> {
    fn new(e: &'e mut Emitter) -> Self {
        let dt = e.ty(Ty::F64);
        let bt = e.ty(Ty::BOOL);
        let ut = e.ty(Ty::Scalar(spirthon_ir::Scalar::U64));
        let it = e.ty(Ty::Scalar(spirthon_ir::Scalar::I64));
        D { e, dt, bt, ut, it }
    }

    fn c(&mut self, v: f64) -> Word {
        self.e.konst(Const::f64(v))
    }

    /// The non-finite `v` (an infinity, NaN), from its bits: naga takes no such literal.
    fn special(&mut self, v: f64) -> R<Word> {
        let bits = self.cu(v.to_bits());
        self.of_bits(bits)
    }

    fn cu(&mut self, v: u64) -> Word {
        self.e.konst(Const::U64(v))
    }

    fn ci(&mut self, v: i64) -> Word {
        self.e.konst(Const::I64(v))
    }

    /// A float instruction, kept exact.
    fn f(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let id = self.e.b.id();
        self.e.b.decorate(id, Decoration::NoContraction, &[]);
        let dt = self.dt;
        self.e.b.op(op, dt, Some(id), &[a, b])
    }

    fn add(&mut self, a: Word, b: Word) -> R<Word> {
        self.f(SOp::FAdd, a, b)
    }

    fn sub(&mut self, a: Word, b: Word) -> R<Word> {
        self.f(SOp::FSub, a, b)
    }

    fn mul(&mut self, a: Word, b: Word) -> R<Word> {
        self.f(SOp::FMul, a, b)
    }

    fn div(&mut self, a: Word, b: Word) -> R<Word> {
        self.f(SOp::FDiv, a, b)
    }

    fn neg(&mut self, a: Word) -> R<Word> {
        let dt = self.dt;
        self.e.b.op(SOp::FNegate, dt, None, &[a])
    }

    fn cmp(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let bt = self.bt;
        self.e.b.op(op, bt, None, &[a, b])
    }

    /// `c ? a : b` of type `ty`.
    fn pick(&mut self, ty: Word, c: Word, a: Word, b: Word) -> R<Word> {
        self.e.b.op(SOp::Select, ty, None, &[c, a, b])
    }

    fn select(&mut self, c: Word, a: Word, b: Word) -> R<Word> {
        let dt = self.dt;
        self.pick(dt, c, a, b)
    }

    fn sqrt(&mut self, a: Word) -> R<Word> {
        let (dt, glsl) = (self.dt, self.e.glsl);
        self.e.b.ext_inst(dt, None, glsl, GLOp::Sqrt as u32, &[a])
    }

    fn and(&mut self, a: Word, b: Word) -> R<Word> {
        let bt = self.bt;
        self.e.b.op(SOp::LogicalAnd, bt, None, &[a, b])
    }

    fn or(&mut self, a: Word, b: Word) -> R<Word> {
        let bt = self.bt;
        self.e.b.op(SOp::LogicalOr, bt, None, &[a, b])
    }

    /// Whether the sign bit of `x` is set (a `-0.0` too).
    fn sign_bit(&mut self, x: Word) -> R<Word> {
        let b = self.bits(x)?;
        let top = self.cu(1 << 63);
        let s = self.u(SOp::BitwiseAnd, b, top)?;
        let zero = self.cu(0);
        let bt = self.bt;
        self.e.b.op(SOp::INotEqual, bt, None, &[s, zero])
    }

    fn floor(&mut self, a: Word) -> R<Word> {
        let (dt, glsl) = (self.dt, self.e.glsl);
        self.e.b.ext_inst(dt, None, glsl, GLOp::Floor as u32, &[a])
    }

    fn abs(&mut self, a: Word) -> R<Word> {
        let (dt, glsl) = (self.dt, self.e.glsl);
        self.e.b.ext_inst(dt, None, glsl, GLOp::FAbs as u32, &[a])
    }

    fn bits(&mut self, a: Word) -> R<Word> {
        let ut = self.ut;
        self.e.b.op(SOp::Bitcast, ut, None, &[a])
    }

    fn of_bits(&mut self, u: Word) -> R<Word> {
        let dt = self.dt;
        self.e.b.op(SOp::Bitcast, dt, None, &[u])
    }

    fn u(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let ut = self.ut;
        self.e.b.op(op, ut, None, &[a, b])
    }

    fn i(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let it = self.it;
        self.e.b.op(op, it, None, &[a, b])
    }

    /// `coeffs[0]·z^(n-1) + … + coeffs[n-1]`, by Horner's rule.
    fn horner(&mut self, z: Word, coeffs: &[f64]) -> R<Word> {
        let mut acc = self.c(coeffs[0]);
        for &k in &coeffs[1..] {
            let m = self.mul(acc, z)?;
            let k = self.c(k);
            acc = self.add(m, k)?;
        }
        Ok(acc)
    }

    /// `2^k` for an `i64` `k` in `[-1022, 1023]`, from the bits.
    fn pow2(&mut self, k: Word) -> R<Word> {
        let (bias, c52) = (self.ci(1023), self.ci(52));
        let b = self.i(SOp::IAdd, k, bias)?;
        let b = self.i(SOp::ShiftLeftLogical, b, c52)?;
        let dt = self.dt;
        self.e.b.op(SOp::Bitcast, dt, None, &[b])
    }

    /// `x·2^k` for an `i64` `k` in `[-2044, 2046]`, as `x·2^(k>>1)·2^(k - (k>>1))` (each
    /// factor normal), so that a subnormal result rounds once.
    fn ldexp(&mut self, x: Word, k: Word) -> R<Word> {
        let one = self.ci(1);
        let k1 = self.i(SOp::ShiftRightArithmetic, k, one)?;
        let k2 = self.i(SOp::ISub, k, k1)?;
        let p1 = self.pow2(k1)?;
        let p2 = self.pow2(k2)?;
        let y = self.mul(x, p1)?;
        self.mul(y, p2)
    }

    /// The whole `f64` `w` (below 2^62 in magnitude) as an `i64`.
    fn whole_to_int(&mut self, w: Word) -> R<Word> {
        let it = self.it;
        self.e.b.op(SOp::ConvertFToS, it, None, &[w])
    }

    /// Whether `x` is NaN, from its bits.
    fn is_nan(&mut self, x: Word) -> R<Word> {
        let b = self.bits(x)?;
        let (low, inf) = (
            self.cu(0x7fff_ffff_ffff_ffff),
            self.cu(0x7ff0_0000_0000_0000),
        );
        let m = self.u(SOp::BitwiseAnd, b, low)?;
        let bt = self.bt;
        self.e.b.op(SOp::UGreaterThan, bt, None, &[m, inf])
    }

    /// `r`, or `x` itself where `x` is NaN (a function's NaN operand is its result).
    fn nan_through(&mut self, x: Word, r: Word) -> R<Word> {
        let nan = self.is_nan(x)?;
        self.select(nan, x, r)
    }

    /// `x` with its low 32 bits cleared (fdlibm's `SET_LOW_WORD(x, 0)`).
    fn high_word(&mut self, x: Word) -> R<Word> {
        let b = self.bits(x)?;
        let mask = self.cu(0xffff_ffff_0000_0000);
        let h = self.u(SOp::BitwiseAnd, b, mask)?;
        self.of_bits(h)
    }
}

/// `e^x` (fdlibm's `e_exp.c`): `x = k·ln2 + r` with `|r| <= ln2/2` (`ln2` in two parts, so
/// `r` is exact), a rational approximation of `e^r` on `r`, and `2^k` from the bits.
fn exp(d: &mut D<'_>, x: Word) -> R<Word> {
    const P: [f64; 5] = [
        4.138_136_797_057_238_460_39e-08,
        -1.653_390_220_546_525_153_90e-06,
        6.613_756_321_437_934_361_17e-05,
        -2.777_777_777_701_559_338_42e-03,
        1.666_666_666_666_660_190_37e-01,
    ];
    // Clamp first, so that `k` stays a small whole number for every operand (the results
    // past the thresholds are chosen below).
    let (lo_lim, hi_lim) = (d.c(-746.0), d.c(710.0));
    let xc = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FClamp as u32, &[x, lo_lim, hi_lim])?
    };
    let invln2 = d.c(std::f64::consts::LOG2_E);
    let half = d.c(0.5);
    let t = d.mul(xc, invln2)?;
    let t = d.add(t, half)?;
    let kf = d.floor(t)?;
    let (hi, lo, r) = ln2_reduce(d, xc, kf)?;
    let rr = d.mul(r, r)?;
    let p = d.horner(rr, &P)?;
    let prr = d.mul(rr, p)?;
    let c = d.sub(r, prr)?;
    // y = 1 - ((lo - (r·c)/(2 - c)) - hi)
    let two = d.c(2.0);
    let rc = d.mul(r, c)?;
    let den = d.sub(two, c)?;
    let q = d.div(rc, den)?;
    let a = d.sub(lo, q)?;
    let a = d.sub(a, hi)?;
    let one = d.c(1.0);
    let y = d.sub(one, a)?;
    let k = d.whole_to_int(kf)?;
    let scaled = d.ldexp(y, k)?;
    // Past the thresholds: `+inf` above (709.78…, where e^x overflows), `0` below
    // (-745.13…, under half the least subnormal); NaN stays NaN.
    let (o_t, u_t) = (
        d.c(7.097_827_128_933_839_730_96e+02),
        d.c(-7.451_332_191_019_411_084_20e+02),
    );
    let over = d.cmp(SOp::FOrdGreaterThan, x, o_t)?;
    let under = d.cmp(SOp::FOrdLessThan, x, u_t)?;
    let (inf, zero) = (d.special(f64::INFINITY)?, d.c(0.0));
    let r = d.select(over, inf, scaled)?;
    let r = d.select(under, zero, r)?;
    d.nan_through(x, r)
}

/// `x - k·ln2` with `ln2` in two parts (its high part has 32 bits, so `k·ln2_hi` is exact
/// for the `k` of `exp` and `expm1`): `(hi, lo, hi - lo)`, `hi = x - k·ln2_hi`, `lo = k·ln2_lo`.
fn ln2_reduce(d: &mut D<'_>, x: Word, kf: Word) -> R<(Word, Word, Word)> {
    let (ln2_hi, ln2_lo) = (
        d.c(6.931_471_803_691_238_164_90e-01),
        d.c(1.908_214_929_270_587_700_02e-10),
    );
    let khi = d.mul(kf, ln2_hi)?;
    let hi = d.sub(x, khi)?;
    let lo = d.mul(kf, ln2_lo)?;
    let r = d.sub(hi, lo)?;
    Ok((hi, lo, r))
}

/// Which logarithm [`log`] computes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum LogBase {
    E,
    Two,
    Ten,
}

/// `log(x)` in base e, 2 or 10 (fdlibm's `e_log.c`, `e_log2.c`, `e_log10.c`): `x = 2^k·(1 +
/// f)` with `1 + f` in `[√½, √2)` from the bits (a subnormal scaled by 2^54 first), `log(1 +
/// f)` as `f - f²/2 + s·(f²/2 + R(s²))` with `s = f/(2 + f)`, and `k·log(2)` added in two
/// parts; for bases 2 and 10 the sum is split in high and low parts, so that it is within 1
/// ULP too. `log(±0)` is `-inf`, a negative `x` NaN, `+inf` and NaN themselves.
fn log(d: &mut D<'_>, x: Word, base: LogBase) -> R<Word> {
    const LG: [f64; 7] = [
        6.666_666_666_666_735_130e-01,
        3.999_999_999_940_941_908e-01,
        2.857_142_874_366_239_149e-01,
        2.222_219_843_214_978_396e-01,
        1.818_357_216_161_805_012e-01,
        1.531_383_769_920_937_332e-01,
        1.479_819_860_511_658_591e-01,
    ];
    // Subnormals: scaled into the normal range, 54 taken back off the exponent.
    let tiny = d.c(f64::MIN_POSITIVE);
    let sub = d.cmp(SOp::FOrdLessThan, x, tiny)?;
    let scale = d.c(18_014_398_509_481_984.0); // 2^54
    let scaled = d.mul(x, scale)?;
    let xs = d.select(sub, scaled, x)?;
    let bits = d.bits(xs)?;
    let (c52, c32) = (d.cu(52), d.cu(32));
    let biased = d.u(SOp::ShiftRightLogical, bits, c52)?;
    let mant_mask = d.cu(0x000f_ffff_ffff_ffff);
    let m = d.u(SOp::BitwiseAnd, bits, mant_mask)?;
    // fdlibm: `i = (hx + 0x95f64) & 0x100000` on the high 20 bits of the significand: set
    // when `1.m >= √2`, which then takes the exponent of `[½, 1)`.
    let high20 = d.u(SOp::ShiftRightLogical, m, c32)?;
    let (k95, bit20) = (d.cu(0x95f64), d.cu(0x10_0000));
    let i = d.u(SOp::IAdd, high20, k95)?;
    let i = d.u(SOp::BitwiseAnd, i, bit20)?;
    let c20 = d.cu(20);
    let carry = d.u(SOp::ShiftRightLogical, i, c20)?;
    let exp_one = d.cu(0x3ff);
    let new_exp = d.u(SOp::ISub, exp_one, carry)?;
    let new_exp = d.u(SOp::ShiftLeftLogical, new_exp, c52)?;
    let nb = d.u(SOp::BitwiseOr, m, new_exp)?;
    let xn = d.of_bits(nb)?;
    let k_u = d.u(SOp::IAdd, biased, carry)?;
    let it = d.it;
    let k_i = d.e.b.op(SOp::Bitcast, it, None, &[k_u])?;
    let (bias, bias_sub) = (d.ci(1023), d.ci(1023 + 54));
    let bias = d.pick(it, sub, bias_sub, bias)?;
    let k_i = d.i(SOp::ISub, k_i, bias)?;
    let dt = d.dt;
    let k = d.e.b.op(SOp::ConvertSToF, dt, None, &[k_i])?;
    let one = d.c(1.0);
    let f = d.sub(xn, one)?;
    // s·(f²/2 + R)
    let two = d.c(2.0);
    let den = d.add(two, f)?;
    let s = d.div(f, den)?;
    let z = d.mul(s, s)?;
    let w = d.mul(z, z)?;
    let t1 = d.horner(w, &[LG[5], LG[3], LG[1]])?;
    let t1 = d.mul(w, t1)?;
    let t2 = d.horner(w, &[LG[6], LG[4], LG[2], LG[0]])?;
    let t2 = d.mul(z, t2)?;
    let rr = d.add(t2, t1)?;
    let half = d.c(0.5);
    let hf = d.mul(half, f)?;
    let hfsq = d.mul(hf, f)?;
    let sum = d.add(hfsq, rr)?;
    let r = d.mul(s, sum)?;
    let result = match base {
        LogBase::E => {
            // k·ln2_hi - ((hfsq - (s·(hfsq + R) + k·ln2_lo)) - f)
            let (ln2_hi, ln2_lo) = (
                d.c(6.931_471_803_691_238_164_90e-01),
                d.c(1.908_214_929_270_587_700_02e-10),
            );
            let klo = d.mul(k, ln2_lo)?;
            let a = d.add(r, klo)?;
            let a = d.sub(hfsq, a)?;
            let a = d.sub(a, f)?;
            let khi = d.mul(k, ln2_hi)?;
            d.sub(khi, a)?
        }
        LogBase::Two | LogBase::Ten => {
            // hi = f - hfsq with its low word cleared; lo = (f - hi) - hfsq + r.
            let hi = d.sub(f, hfsq)?;
            let hi = d.high_word(hi)?;
            let lo = d.sub(f, hi)?;
            let lo = d.sub(lo, hfsq)?;
            let lo = d.add(lo, r)?;
            let lohi = d.add(lo, hi)?;
            let (val_hi, val_lo, y) = if base == LogBase::Two {
                let (ivln2hi, ivln2lo) = (
                    d.c(1.442_695_040_721_446_275_71e+00),
                    d.c(1.675_171_316_488_651_183_53e-10),
                );
                let vh = d.mul(hi, ivln2hi)?;
                let a = d.mul(lohi, ivln2lo)?;
                let b = d.mul(lo, ivln2hi)?;
                let vl = d.add(a, b)?;
                (vh, vl, k)
            } else {
                let (ivln10hi, ivln10lo) = (
                    d.c(4.342_944_818_781_688_809_39e-01),
                    d.c(2.508_294_671_164_527_522_98e-11),
                );
                let (l2hi, l2lo) = (
                    d.c(3.010_299_956_636_117_713_06e-01),
                    d.c(3.694_239_077_158_930_786_16e-13),
                );
                let vh = d.mul(hi, ivln10hi)?;
                let a = d.mul(k, l2lo)?;
                let b = d.mul(lohi, ivln10lo)?;
                let c = d.mul(lo, ivln10hi)?;
                let vl = d.add(a, b)?;
                let vl = d.add(vl, c)?;
                let y2 = d.mul(k, l2hi)?;
                (vh, vl, y2)
            };
            // w = y + val_hi; val_lo += (y - w) + val_hi; return val_lo + w.
            let w = d.add(y, val_hi)?;
            let a = d.sub(y, w)?;
            let a = d.add(a, val_hi)?;
            let vl = d.add(val_lo, a)?;
            d.add(vl, w)?
        }
    };
    // log(±0) = -inf; a negative x (or -inf) NaN; +inf and NaN themselves.
    let zero = d.c(0.0);
    let is_zero = d.cmp(SOp::FOrdEqual, x, zero)?;
    let negative = d.cmp(SOp::FOrdLessThan, x, zero)?;
    let inf = d.special(f64::INFINITY)?;
    let is_inf = d.cmp(SOp::FOrdEqual, x, inf)?;
    let (minus_inf, nan) = (d.special(f64::NEG_INFINITY)?, d.special(f64::NAN)?);
    let r = d.select(is_inf, inf, result)?;
    let r = d.select(negative, nan, r)?;
    let r = d.select(is_zero, minus_inf, r)?;
    d.nan_through(x, r)
}

/// Which of [`sin_cos`]'s functions.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Trig {
    Sin,
    Cos,
    Tan,
}

/// `sin`, `cos` or `tan` of `x` (fdlibm): `x = n·π/2 + (y0 + y1)` (fdlibm's medium
/// reduction, all three rounds), then the kernel on `[-π/4, π/4]` that the quadrant `n mod
/// 4` calls for. `±inf` and NaN give NaN.
fn sin_cos(d: &mut D<'_>, x: Word, which: Trig) -> R<Word> {
    // Below 2^20·π/2 the medium reduction, above it the large one, in a branch of their own
    // (the large one costs four times as much); both give the quadrant and `y0 + y1`.
    let ax = d.abs(x)?;
    let limit = d.c(1_647_099.0);
    let large = d.cmp(SOp::FOrdGreaterThanEqual, ax, limit)?;
    let (large_block, medium_block, merge) = (d.e.b.id(), d.e.b.id(), d.e.b.id());
    d.e.b.void(SOp::SelectionMerge, &[merge, 0])?;
    d.e.b
        .terminate(SOp::BranchConditional, &[large, large_block, medium_block])?;
    d.e.b.begin_block(large_block)?;
    // Both reductions are straight-line code: each ends in the block it began in.
    let (q_l, y0_l, y1_l) = large_reduction(d, x)?;
    let large_end = large_block;
    d.e.b.terminate(SOp::Branch, &[merge])?;
    d.e.b.begin_block(medium_block)?;
    let (q_m, y0_m, y1_m) = medium_reduction(d, x)?;
    let medium_end = medium_block;
    d.e.b.terminate(SOp::Branch, &[merge])?;
    d.e.b.begin_block(merge)?;
    let (q, y0, y1) = (d.e.b.id(), d.e.b.id(), d.e.b.id());
    let (it, dt) = (d.it, d.dt);
    d.e.b.phi(it, q, &[(q_l, large_end), (q_m, medium_end)])?;
    d.e.b
        .phi(dt, y0, &[(y0_l, large_end), (y0_m, medium_end)])?;
    d.e.b
        .phi(dt, y1, &[(y1_l, large_end), (y1_m, medium_end)])?;
    let r = match which {
        Trig::Tan => {
            let one = d.ci(1);
            let odd = d.i(SOp::BitwiseAnd, q, one)?;
            let zero_i = d.ci(0);
            let bt = d.bt;
            let odd = d.e.b.op(SOp::INotEqual, bt, None, &[odd, zero_i])?;
            k_tan(d, y0, y1, odd)?
        }
        _ => {
            let s = k_sin(d, y0, y1)?;
            let c = k_cos(d, y0, y1)?;
            let ns = d.neg(s)?;
            let nc = d.neg(c)?;
            // sin: q = 0 → s, 1 → c, 2 → -s, 3 → -c; cos: q = 0 → c, 1 → -s, 2 → -c, 3 → s.
            let order = if which == Trig::Sin {
                [s, c, ns, nc]
            } else {
                [c, ns, nc, s]
            };
            let bt = d.bt;
            let mut r = order[3];
            for (k, v) in order.iter().enumerate().take(3).rev() {
                let kk = d.ci(k as i64);
                let is = d.e.b.op(SOp::IEqual, bt, None, &[q, kk])?;
                r = d.select(is, *v, r)?;
            }
            r
        }
    };
    // ±inf and NaN give NaN (`x - x`).
    let inf = d.special(f64::INFINITY)?;
    let not_finite = d.cmp(SOp::FUnordGreaterThanEqual, ax, inf)?;
    let nan = d.special(f64::NAN)?;
    d.select(not_finite, nan, r)
}

/// fdlibm's medium reduction of `x` by `π/2` (`|x| < 2^20·π/2`, and NaN): `(n mod 4, y0, y1)`
/// with `x = n·π/2 + y0 + y1`, `|y0 + y1| <= π/4`.
fn medium_reduction(d: &mut D<'_>, x: Word) -> R<(Word, Word, Word)> {
    let invpio2 = d.c(std::f64::consts::FRAC_2_PI);
    let half = d.c(0.5);
    let t = d.mul(x, invpio2)?;
    let t = d.add(t, half)?;
    let fnn = d.floor(t)?;
    // Inside [-π/4, π/4] there is nothing to reduce (fdlibm returns the kernel of x): `n = 0`
    // there, and the reduction below is exact for it as well.
    let quarter = d.c(std::f64::consts::FRAC_PI_4);
    let ax = d.abs(x)?;
    let small = d.cmp(SOp::FOrdLessThanEqual, ax, quarter)?;
    let zero = d.c(0.0);
    let fnn = d.select(small, zero, fnn)?;
    let (pio2_1, pio2_1t) = (
        d.c(1.570_796_326_734_125_614_17e+00),
        d.c(6.077_100_506_506_192_249_32e-11),
    );
    let (pio2_2, pio2_2t) = (
        d.c(6.077_100_506_303_965_976_60e-11),
        d.c(2.022_266_248_795_950_631_54e-21),
    );
    let (pio2_3, pio2_3t) = (
        d.c(2.022_266_248_711_166_455_80e-21),
        d.c(8.478_427_660_368_899_569_97e-32),
    );
    // Round 1: r = x - fn·pio2_1, w = fn·pio2_1t (good to 85 bits). Where `x` and `y0`
    // differ by more than 16 in exponent (cancellation), round 2 with the next 33 bits of
    // π/2; past 49, round 3 with the next. Each round starts again from the last `r`, its
    // `w` the tail and the rounding error of `r` (exact, by Sterbenz, where the round runs).
    let a = d.mul(fnn, pio2_1)?;
    let r1 = d.sub(x, a)?;
    let w1 = d.mul(fnn, pio2_1t)?;
    let (r2, w2) = reduction_round(d, fnn, r1, pio2_2, pio2_2t)?;
    let (r3, w3) = reduction_round(d, fnn, r2, pio2_3, pio2_3t)?;
    let ex = exponent(d, x)?;
    let y01 = d.sub(r1, w1)?;
    let e1 = exponent(d, y01)?;
    let gap1 = d.i(SOp::ISub, ex, e1)?;
    let y02 = d.sub(r2, w2)?;
    let e2 = exponent(d, y02)?;
    let gap2 = d.i(SOp::ISub, ex, e2)?;
    let (c16, c49) = (d.ci(16), d.ci(49));
    let bt = d.bt;
    let use2 = d.e.b.op(SOp::SGreaterThan, bt, None, &[gap1, c16])?;
    let use3 = d.e.b.op(SOp::SGreaterThan, bt, None, &[gap2, c49])?;
    let use3 = d.e.b.op(SOp::LogicalAnd, bt, None, &[use2, use3])?;
    let r = d.select(use2, r2, r1)?;
    let r = d.select(use3, r3, r)?;
    let w = d.select(use2, w2, w1)?;
    let w = d.select(use3, w3, w)?;
    let y0 = d.sub(r, w)?;
    let a = d.sub(r, y0)?;
    let y1 = d.sub(a, w)?;
    // The quadrant `n mod 4`, as a float first (exact, and defined for every `n`).
    let quarter_n = d.c(0.25);
    let four = d.c(4.0);
    let a = d.mul(fnn, quarter_n)?;
    let a = d.floor(a)?;
    let a = d.mul(a, four)?;
    let qf = d.sub(fnn, a)?;
    let q = d.whole_to_int(qf)?;
    Ok((q, y0, y1))
}

/// The bits of `2/π` after the point, 32 to a word, most significant first: word `k` holds
/// bits `32k + 1` to `32k + 32` (`0xA2F9836E` is `floor(2/π · 2^32)`). 1,216 bits, enough for
/// the largest `f64`'s exponent and the [`WINDOW`] words below it.
const TWO_OVER_PI: [u32; 38] = [
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561,
    0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C, 0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484,
    0xE99C7026, 0xB45F7E41, 0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D, 0x7527BAC7, 0xEBE5F17B,
    0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08, 0x56033046, 0xFC7B6BAB,
];

/// How many words of [`TWO_OVER_PI`] the large reduction multiplies by: 224 bits, so that
/// what it leaves out is below `2^-137` of a quarter turn, where the closest an `f64` comes to
/// a multiple of `π/2` is about `2^-61` of one (so at least 70 bits stay right).
const WINDOW: usize = 7;

/// The table [`TWO_OVER_PI`] in private memory (made once per module).
fn two_over_pi_table(d: &mut D<'_>) -> Word {
    if let Some(t) = d.e.two_over_pi {
        return t;
    }
    let u32t = d.e.ty(Ty::U32);
    let words: Vec<Word> = TWO_OVER_PI
        .iter()
        .map(|&w| d.e.konst(Const::U32(w)))
        .collect();
    let n = d.e.konst(Const::U32(TWO_OVER_PI.len() as u32));
    let at = d.e.b.type_array(u32t, n);
    let init = d.e.b.constant_composite(at, &words);
    let pt = d.e.b.type_pointer(StorageClass::Private, at);
    let var = d.e.b.variable_init(pt, StorageClass::Private, init);
    d.e.name(var, "spirthon_two_over_pi");
    d.e.two_over_pi = Some(var);
    var
}

/// Payne and Hanek's reduction of a large `x` (`|x| >= 2^20`; an infinity gives NaN later)
/// by `π/2`: `(n mod 4, y0, y1)`. With `|x| = m·2^s` (`m` the 53-bit significand), `x·2/π`
/// mod 4 is `m` times the [`WINDOW`] words of `2/π` that matter there (the higher ones give
/// multiples of 4, the lower ones less than `2^-137`), an exact product of 32-bit limbs in
/// `u64`s; the 128 bits from the quadrant's two down are rounded to the nearest quadrant,
/// and the signed fraction (at least 64 bits past any cancellation an `f64` can have) times
/// `π/2` in two parts is `y0 + y1`.
fn large_reduction(d: &mut D<'_>, x: Word) -> R<(Word, Word, Word)> {
    let ax = d.abs(x)?;
    let bits = d.bits(ax)?;
    let c52 = d.cu(52);
    let biased = d.u(SOp::ShiftRightLogical, bits, c52)?;
    let it = d.it;
    let biased = d.e.b.op(SOp::Bitcast, it, None, &[biased])?;
    let k1075 = d.ci(1075);
    let s = d.i(SOp::ISub, biased, k1075)?;
    let mant = d.cu(0x000f_ffff_ffff_ffff);
    let implicit = d.cu(1 << 52);
    let m = d.u(SOp::BitwiseAnd, bits, mant)?;
    let m = d.u(SOp::BitwiseOr, m, implicit)?;
    // k0 = max(0, floor((s - 2) / 32)): the first word whose terms are not multiples of 4.
    let c62 = d.ci(62);
    let a = d.i(SOp::IAdd, s, c62)?;
    let c5 = d.ci(5);
    let a = d.i(SOp::ShiftRightArithmetic, a, c5)?;
    let c2 = d.ci(2);
    let a = d.i(SOp::ISub, a, c2)?;
    let zero_i = d.ci(0);
    let bt = d.bt;
    let negative_k = d.e.b.op(SOp::SLessThan, bt, None, &[a, zero_i])?;
    let k0 = d.pick(it, negative_k, zero_i, a)?;
    let last = d.ci((TWO_OVER_PI.len() - WINDOW) as i64);
    let past = d.e.b.op(SOp::SGreaterThan, bt, None, &[k0, last])?;
    let k0 = d.pick(it, past, last, k0)?;
    // The window's words, least significant first, as u64s.
    let table = two_over_pi_table(d);
    let u32t = d.e.ty(Ty::U32);
    let pw = d.e.b.type_pointer(StorageClass::Private, u32t);
    // The index is an `i32` (lavapipe's LLVM 15 crashes bounding a 64-bit index).
    let i32t = d.e.ty(Ty::I32);
    let k0_32 = d.e.b.op(SOp::SConvert, i32t, None, &[k0])?;
    let mut w = Vec::new();
    for j in (0..WINDOW as i32).rev() {
        let jj = d.e.konst(Const::I32(j));
        let at = d.e.b.op(SOp::IAdd, i32t, None, &[k0_32, jj])?;
        let ptr = d.e.b.op(SOp::AccessChain, pw, None, &[table, at])?;
        let word = d.e.b.op(SOp::Load, u32t, None, &[ptr])?;
        let ut = d.ut;
        w.push(d.e.b.op(SOp::UConvert, ut, None, &[word])?);
    }
    // P = m·W, in `WINDOW + 2` 32-bit limbs: m = m1·2^32 + m0, each limb the sum of the low
    // and high halves of the products that land on it, plus the carry.
    let (c32, low) = (d.cu(32), d.cu(0xffff_ffff));
    let m0 = d.u(SOp::BitwiseAnd, m, low)?;
    let m1 = d.u(SOp::ShiftRightLogical, m, c32)?;
    let mut p0 = Vec::new();
    let mut p1 = Vec::new();
    for &wj in &w {
        p0.push(d.u(SOp::IMul, m0, wj)?);
        p1.push(d.u(SOp::IMul, m1, wj)?);
    }
    let mut limbs = Vec::new();
    let mut carry = d.cu(0);
    let n_limbs = WINDOW + 2;
    for i in 0..n_limbs {
        let mut acc = carry;
        if i < WINDOW {
            let lo = d.u(SOp::BitwiseAnd, p0[i], low)?;
            acc = d.u(SOp::IAdd, acc, lo)?;
        }
        if (1..=WINDOW).contains(&i) {
            let hi = d.u(SOp::ShiftRightLogical, p0[i - 1], c32)?;
            acc = d.u(SOp::IAdd, acc, hi)?;
            let lo = d.u(SOp::BitwiseAnd, p1[i - 1], low)?;
            acc = d.u(SOp::IAdd, acc, lo)?;
        }
        if (2..=WINDOW + 1).contains(&i) {
            let hi = d.u(SOp::ShiftRightLogical, p1[i - 2], c32)?;
            acc = d.u(SOp::IAdd, acc, hi)?;
        }
        limbs.push(d.u(SOp::BitwiseAnd, acc, low)?);
        carry = d.u(SOp::ShiftRightLogical, acc, c32)?;
    }
    // The point of `x·2/π` is at bit t = 32·(k0 + WINDOW) - s of P (191 to 256); the 128
    // bits from bit t + 1 down start `shift = t - 126` bits up (65 to 130): limb
    // `shift / 32` (2 to 4), bit `shift % 32`.
    let c160 = d.ci(32 * WINDOW as i64);
    let a = d.i(SOp::ShiftLeftLogical, k0, c5)?;
    let a = d.i(SOp::IAdd, a, c160)?;
    let t = d.i(SOp::ISub, a, s)?;
    let c126 = d.ci(126);
    let shift = d.i(SOp::ISub, t, c126)?;
    let li = d.i(SOp::ShiftRightArithmetic, shift, c5)?;
    let c31 = d.ci(31);
    let bo = d.i(SOp::BitwiseAnd, shift, c31)?;
    let ut = d.ut;
    let bo = d.e.b.op(SOp::Bitcast, ut, None, &[bo])?;
    let (three_i, four_i) = (d.ci(3), d.ci(4));
    let is3 = d.e.b.op(SOp::IEqual, bt, None, &[li, three_i])?;
    let is4 = d.e.b.op(SOp::IEqual, bt, None, &[li, four_i])?;
    let mut v = Vec::new();
    for j in 0..5 {
        let a = d.pick(ut, is3, limbs[j + 3], limbs[j + 2])?;
        let top = limbs[(j + 4).min(n_limbs - 1)];
        v.push(d.pick(ut, is4, top, a)?);
    }
    let mut r = Vec::new();
    for j in 0..4 {
        let pair = d.u(SOp::ShiftLeftLogical, v[j + 1], c32)?;
        let pair = d.u(SOp::BitwiseOr, pair, v[j])?;
        let sh = d.u(SOp::ShiftRightLogical, pair, bo)?;
        r.push(d.u(SOp::BitwiseAnd, sh, low)?);
    }
    // Nearest quadrant: add a half (bit 125, bit 29 of the top limb), the top two bits are
    // `n`, the rest less the half a signed fraction of `2^-126` units.
    let half_bit = d.cu(0x2000_0000);
    let top = d.u(SOp::IAdd, r[3], half_bit)?;
    let top = d.u(SOp::BitwiseAnd, top, low)?;
    let c30 = d.cu(30);
    let n = d.u(SOp::ShiftRightLogical, top, c30)?;
    let mask30 = d.cu(0x3fff_ffff);
    let frac_top = d.u(SOp::BitwiseAnd, top, mask30)?;
    let frac_top = d.e.b.op(SOp::Bitcast, it, None, &[frac_top])?;
    let half_i = d.ci(0x2000_0000);
    let frac_top = d.i(SOp::ISub, frac_top, half_i)?;
    let c32i = d.ci(32);
    let big = d.i(SOp::ShiftLeftLogical, frac_top, c32i)?;
    let r2 = d.e.b.op(SOp::Bitcast, it, None, &[r[2]])?;
    let tt = d.i(SOp::IAdd, big, r2)?;
    let u_hi = d.u(SOp::ShiftLeftLogical, r[1], c32)?;
    let uu = d.u(SOp::BitwiseOr, u_hi, r[0])?;
    let dt = d.dt;
    let hi_d = d.e.b.op(SOp::ConvertSToF, dt, None, &[tt])?;
    let back = d.e.b.op(SOp::ConvertFToS, it, None, &[hi_d])?;
    let err = d.i(SOp::ISub, tt, back)?;
    let err_d = d.e.b.op(SOp::ConvertSToF, dt, None, &[err])?;
    let u_d = d.e.b.op(SOp::ConvertUToF, dt, None, &[uu])?;
    let (s62, s126) = (d.c(2f64.powi(-62)), d.c(2f64.powi(-126)));
    let fh = d.mul(hi_d, s62)?;
    let a = d.mul(err_d, s62)?;
    let b = d.mul(u_d, s126)?;
    let fl = d.add(a, b)?;
    let (pio2_hi, pio2_lo) = (
        d.c(std::f64::consts::FRAC_PI_2),
        d.c(6.123_233_995_736_766_035_87e-17),
    );
    let y0 = d.mul(fh, pio2_hi)?;
    let a = d.mul(fl, pio2_hi)?;
    let b = d.mul(fh, pio2_lo)?;
    let y1 = d.add(a, b)?;
    let s0 = d.add(y0, y1)?;
    let a = d.sub(s0, y0)?;
    let s1 = d.sub(y1, a)?;
    // A negative x: the reduction of |x|, negated (n mod 4 too).
    let zero = d.c(0.0);
    let negative = d.cmp(SOp::FOrdLessThan, x, zero)?;
    let ns0 = d.neg(s0)?;
    let ns1 = d.neg(s1)?;
    let y0 = d.select(negative, ns0, s0)?;
    let y1 = d.select(negative, ns1, s1)?;
    let n = d.e.b.op(SOp::Bitcast, it, None, &[n])?;
    let four = d.ci(4);
    let minus = d.i(SOp::ISub, four, n)?;
    let three = d.ci(3);
    let minus = d.i(SOp::BitwiseAnd, minus, three)?;
    let q = d.pick(it, negative, minus, n)?;
    Ok((q, y0, y1))
}

/// One more round of fdlibm's reduction by `π/2`: from `t` (the last round's `r`),
/// `r = t - fn·p` and `w = fn·pt - ((t - r) - fn·p)`.
fn reduction_round(d: &mut D<'_>, fnn: Word, t: Word, p: Word, pt: Word) -> R<(Word, Word)> {
    let w = d.mul(fnn, p)?;
    let r = d.sub(t, w)?;
    let a = d.sub(t, r)?;
    let a = d.sub(a, w)?;
    let b = d.mul(fnn, pt)?;
    let w = d.sub(b, a)?;
    Ok((r, w))
}

/// The biased exponent of `v` (its bits 52 to 62), as an `i64`.
fn exponent(d: &mut D<'_>, v: Word) -> R<Word> {
    let b = d.bits(v)?;
    let c52 = d.cu(52);
    let e = d.u(SOp::ShiftRightLogical, b, c52)?;
    let mask = d.cu(0x7ff);
    let e = d.u(SOp::BitwiseAnd, e, mask)?;
    let it = d.it;
    d.e.b.op(SOp::Bitcast, it, None, &[e])
}

/// fdlibm's `__kernel_sin(x, y, 1)` on `[-π/4, π/4]`, `x + y` the reduced argument.
fn k_sin(d: &mut D<'_>, x: Word, y: Word) -> R<Word> {
    const S: [f64; 5] = [
        1.589_690_995_211_550_102_21e-10,
        -2.505_076_025_340_686_341_95e-08,
        2.755_731_370_707_006_767_89e-06,
        -1.984_126_982_985_794_931_34e-04,
        8.333_333_333_322_489_461_24e-03,
    ];
    let s1 = d.c(-1.666_666_666_666_663_243_48e-01);
    let z = d.mul(x, x)?;
    let v = d.mul(z, x)?;
    let r = d.horner(z, &S)?;
    // x - ((z·(y/2 - v·r) - y) - v·S1)
    let half = d.c(0.5);
    let hy = d.mul(half, y)?;
    let vr = d.mul(v, r)?;
    let a = d.sub(hy, vr)?;
    let a = d.mul(z, a)?;
    let a = d.sub(a, y)?;
    let vs1 = d.mul(v, s1)?;
    let a = d.sub(a, vs1)?;
    d.sub(x, a)
}

/// fdlibm's `__kernel_cos(x, y)` on `[-π/4, π/4]` (the 2008 FreeBSD form: `w = 1 - z/2`,
/// corrected by what rounding `1 - z/2` lost).
fn k_cos(d: &mut D<'_>, x: Word, y: Word) -> R<Word> {
    const C: [f64; 6] = [
        -1.135_964_755_778_819_482_65e-11,
        2.087_572_321_298_174_827_90e-09,
        -2.755_731_435_139_066_330_35e-07,
        2.480_158_728_947_672_941_78e-05,
        -1.388_888_888_887_410_957_49e-03,
        4.166_666_666_666_660_190_37e-02,
    ];
    let z = d.mul(x, x)?;
    let w = d.mul(z, z)?;
    // r = z·(C1 + z·(C2 + z·C3)) + w·w·(C4 + z·(C5 + z·C6)), as fdlibm groups it.
    let lo3 = d.horner(z, &[C[3], C[4], C[5]])?;
    let lo3 = d.mul(z, lo3)?;
    let hi3 = d.horner(z, &[C[0], C[1], C[2]])?;
    let ww = d.mul(w, w)?;
    let hi3 = d.mul(ww, hi3)?;
    let r = d.add(lo3, hi3)?;
    let half = d.c(0.5);
    let hz = d.mul(half, z)?;
    let one = d.c(1.0);
    let wv = d.sub(one, hz)?;
    // w + (((1 - w) - hz) + (z·r - x·y))
    let a = d.sub(one, wv)?;
    let a = d.sub(a, hz)?;
    let zr = d.mul(z, r)?;
    let xy = d.mul(x, y)?;
    let b = d.sub(zr, xy)?;
    let a = d.add(a, b)?;
    d.add(wv, a)
}

/// fdlibm's `__kernel_tan(x, y, k)` on `[-π/4, π/4]`: `tan(x + y)`, or `-1/tan(x + y)` when
/// `odd`. Above 0.6744 it works on `π/4 - x`, where the polynomial is more accurate.
fn k_tan(d: &mut D<'_>, x0: Word, y0: Word, odd: Word) -> R<Word> {
    const T: [f64; 13] = [
        3.333_333_333_333_340_919_86e-01,
        1.333_333_333_332_012_426_99e-01,
        5.396_825_397_622_605_213_77e-02,
        2.186_948_829_485_954_245_99e-02,
        8.863_239_823_599_300_057_37e-03,
        3.592_079_107_591_312_353_56e-03,
        1.456_209_454_325_290_255_16e-03,
        5.880_412_408_202_640_968_74e-04,
        2.464_631_348_184_699_068_12e-04,
        7.817_944_429_395_570_923_00e-05,
        7.140_724_913_826_081_903_05e-05,
        -1.855_863_748_552_754_565_54e-05,
        2.590_730_518_636_337_128_84e-05,
    ];
    let (pio4, pio4lo) = (
        d.c(std::f64::consts::FRAC_PI_4),
        d.c(3.061_616_997_868_383_017_93e-17),
    );
    let big = d.c(f64::from_bits(0x3FE5_9428_0000_0000)); // 0.6744…
    let ax = d.abs(x0)?;
    let flip = d.cmp(SOp::FOrdGreaterThanEqual, ax, big)?;
    let zero = d.c(0.0);
    let neg = d.cmp(SOp::FOrdLessThan, x0, zero)?;
    // Where flipped: x = (π/4 - |x|) + (π/4lo - |y|·sign), y = 0.
    let xa = d.neg(x0)?;
    let ya = d.neg(y0)?;
    let xs = d.select(neg, xa, x0)?;
    let ys = d.select(neg, ya, y0)?;
    let z = d.sub(pio4, xs)?;
    let w = d.sub(pio4lo, ys)?;
    let xf = d.add(z, w)?;
    let x = d.select(flip, xf, x0)?;
    let y = d.select(flip, zero, y0)?;
    let z = d.mul(x, x)?;
    let w = d.mul(z, z)?;
    // r = T1 + w·(T3 + w·(T5 + w·(T7 + w·(T9 + w·T11)))), v = z·(T2 + w·(…T12)).
    let r = d.horner(w, &[T[11], T[9], T[7], T[5], T[3], T[1]])?;
    let v = d.horner(w, &[T[12], T[10], T[8], T[6], T[4], T[2]])?;
    let v = d.mul(z, v)?;
    let s = d.mul(z, x)?;
    // r = y + z·(s·(r + v) + y); r += T0·s; w = x + r.
    let rv = d.add(r, v)?;
    let a = d.mul(s, rv)?;
    let a = d.add(a, y)?;
    let a = d.mul(z, a)?;
    let r = d.add(y, a)?;
    let t0 = d.c(T[0]);
    let t0s = d.mul(t0, s)?;
    let r = d.add(r, t0s)?;
    let w = d.add(x, r)?;
    // Flipped: v = ±1 (1 - 2·odd): (1 - 2k)·(v - 2·(x - (w·w/(w + v) - r))), signed as x0.
    let one = d.c(1.0);
    let minus_one = d.c(-1.0);
    let vflip = d.select(odd, minus_one, one)?;
    let ww = d.mul(w, w)?;
    let wv = d.add(w, vflip)?;
    let q = d.div(ww, wv)?;
    let q = d.sub(q, r)?;
    let q = d.sub(x, q)?;
    let two = d.c(2.0);
    let q2 = d.mul(two, q)?;
    let fl = d.sub(vflip, q2)?;
    let fln = d.neg(fl)?;
    let flipped = d.select(neg, fln, fl)?;
    // Not flipped, odd: -1/(x + r) computed accurately (fdlibm: a = -1/w with its high
    // word, corrected).
    let zw = d.high_word(w)?;
    let a = d.sub(zw, x)?;
    let v2 = d.sub(r, a)?;
    let m1 = d.c(-1.0);
    let aa = d.div(m1, w)?;
    let t = d.high_word(aa)?;
    let s2 = d.mul(t, zw)?;
    let s2 = d.add(one, s2)?;
    let tv = d.mul(t, v2)?;
    let s2 = d.add(s2, tv)?;
    let as2 = d.mul(aa, s2)?;
    let recip = d.add(t, as2)?;
    let plain = d.select(odd, recip, w)?;
    d.select(flip, flipped, plain)
}

/// `atan(x)` (fdlibm's `s_atan.c`): `|x|` in one of five ranges, each reduced to a small `t`
/// around a point `c` (0.5, 1, 1.5 or infinity; none below 7/16) by one division, then
/// `atan(c)` in two parts plus an odd polynomial in `t`. The five reductions are one
/// division `(p·|x| + q) / (r + s·|x|)` with the range's coefficients, which computes each
/// exactly as fdlibm writes it (a factor 1 or a term 0 changes nothing).
fn atan(d: &mut D<'_>, x: Word) -> R<Word> {
    const ATANHI: [f64; 4] = [
        4.636_476_090_008_060_935_15e-01,
        std::f64::consts::FRAC_PI_4,
        9.827_937_232_473_290_540_82e-01,
        std::f64::consts::FRAC_PI_2,
    ];
    const ATANLO: [f64; 4] = [
        2.269_877_745_296_168_709_24e-17,
        3.061_616_997_868_383_017_93e-17,
        1.390_331_103_123_099_845_16e-17,
        6.123_233_995_736_766_035_87e-17,
    ];
    const AT: [f64; 11] = [
        3.333_333_333_333_293_180_27e-01,
        -1.999_999_999_987_648_324_76e-01,
        1.428_571_427_250_346_637_11e-01,
        -1.111_111_040_546_235_578_80e-01,
        9.090_887_133_436_506_561_96e-02,
        -7.691_876_205_044_829_994_95e-02,
        6.661_073_137_387_531_206_69e-02,
        -5.833_570_133_790_573_486_45e-02,
        4.976_877_994_615_932_360_17e-02,
        -3.653_157_274_421_691_552_70e-02,
        1.628_582_011_536_578_236_23e-02,
    ];
    // Past 2^66 the result is `π/2` rounded (fdlibm returns it there): clamped, so that an
    // infinity reduces like a finite argument (a NaN is chosen back at the end).
    let ax = d.abs(x)?;
    let cap = d.c(2f64.powi(66));
    let ax = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FMin as u32, &[ax, cap])?
    };
    // The range: below 7/16 (none), 11/16 (0), 19/16 (1), 39/16 (2), above (3).
    let bounds = [0.4375, 0.6875, 1.1875, 2.4375];
    let mut above = Vec::new();
    for b in bounds {
        let c = d.c(b);
        above.push(d.cmp(SOp::FOrdGreaterThanEqual, ax, c)?);
    }
    // (p, q, r, s) of each range, lowest first.
    let coeffs: [[f64; 4]; 5] = [
        [1.0, 0.0, 1.0, 0.0],
        [2.0, -1.0, 2.0, 1.0],
        [1.0, -1.0, 1.0, 1.0],
        [1.0, -1.5, 1.0, 1.5],
        [0.0, -1.0, 0.0, 1.0],
    ];
    let pick = |d: &mut D<'_>, k: usize| -> R<Word> {
        let mut v = d.c(coeffs[0][k]);
        for (range, row) in coeffs.iter().enumerate().skip(1) {
            let c = d.c(row[k]);
            v = d.select(above[range - 1], c, v)?;
        }
        Ok(v)
    };
    let (p, q, r, s) = (pick(d, 0)?, pick(d, 1)?, pick(d, 2)?, pick(d, 3)?);
    let num = d.mul(p, ax)?;
    let num = d.add(num, q)?;
    let den = d.mul(s, ax)?;
    let den = d.add(r, den)?;
    let t = d.div(num, den)?;
    let z = d.mul(t, t)?;
    let w = d.mul(z, z)?;
    let s1 = d.horner(w, &[AT[10], AT[8], AT[6], AT[4], AT[2], AT[0]])?;
    let s1 = d.mul(z, s1)?;
    let s2 = d.horner(w, &[AT[9], AT[7], AT[5], AT[3], AT[1]])?;
    let s2 = d.mul(w, s2)?;
    let sum = d.add(s1, s2)?;
    let ts = d.mul(t, sum)?;
    // Below 7/16: t - t·(s1 + s2); else atanhi - ((t·(s1 + s2) - atanlo) - t).
    let near_zero = d.sub(t, ts)?;
    let mut hi = d.c(ATANHI[0]);
    let mut lo = d.c(ATANLO[0]);
    for k in 1..4 {
        let (h, l) = (d.c(ATANHI[k]), d.c(ATANLO[k]));
        hi = d.select(above[k], h, hi)?;
        lo = d.select(above[k], l, lo)?;
    }
    let a = d.sub(ts, lo)?;
    let a = d.sub(a, t)?;
    let far = d.sub(hi, a)?;
    let r = d.select(above[0], far, near_zero)?;
    let negative = d.sign_bit(x)?;
    let nr = d.neg(r)?;
    let r = d.select(negative, nr, r)?;
    d.nan_through(x, r)
}

/// `atan2(y, x)` (fdlibm's `e_atan2.c`): `atan(|y/x|)` placed in the quadrant of the signs
/// (`π - (z - π_lo)` for a negative `x`), with C's results for zeros (signed: `atan2(±0, -0)`
/// is `±π`), infinities, a quotient past 2^64 (`±π/2`) and one below 2^-64 with a negative `x`.
fn atan2(d: &mut D<'_>, y: Word, x: Word) -> R<Word> {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    let pi_lo = d.c(1.224_646_799_147_353_177_2e-16);
    let (sy, sx) = (d.sign_bit(y)?, d.sign_bit(x)?);
    let (ax, ay) = (d.abs(x)?, d.abs(y)?);
    let q = d.div(y, x)?;
    let aq = d.abs(q)?;
    let z = atan(d, aq)?;
    // |y/x| < 2^-64 with x < 0: z = 0 (no spurious underflow).
    let tiny = d.c(2f64.powi(-64));
    let ax_tiny = d.mul(ax, tiny)?;
    let small = d.cmp(SOp::FOrdLessThan, ay, ax_tiny)?;
    let small = d.and(small, sx)?;
    let zero = d.c(0.0);
    let z = d.select(small, zero, z)?;
    // By quadrant: z, -z, π - (z - π_lo), (z - π_lo) - π.
    let pi = d.c(PI);
    let nz = d.neg(z)?;
    let zl = d.sub(z, pi_lo)?;
    let left_up = d.sub(pi, zl)?;
    let left_down = d.sub(zl, pi)?;
    let right = d.select(sy, nz, z)?;
    let left = d.select(sy, left_down, left_up)?;
    let general = d.select(sx, left, right)?;
    // A quotient past 2^64 (or an infinite y): ±π/2.
    let huge = d.c(2f64.powi(64));
    let ax_huge = d.mul(ax, huge)?;
    let steep = d.cmp(SOp::FOrdGreaterThan, ay, ax_huge)?;
    let inf = d.special(f64::INFINITY)?;
    let y_inf = d.cmp(SOp::FOrdEqual, ay, inf)?;
    let steep = d.or(steep, y_inf)?;
    let (half_pi, minus_half_pi) = (d.c(FRAC_PI_2), d.c(-FRAC_PI_2));
    let vertical = d.select(sy, minus_half_pi, half_pi)?;
    let r = d.select(steep, vertical, general)?;
    // An infinite x: with an infinite y ±π/4 or ±3π/4, else ±0 or ±π.
    let (q1, q3) = (d.c(FRAC_PI_4), d.c(3.0 * PI / 4.0));
    let diag = d.select(sx, q3, q1)?;
    let ndiag = d.neg(diag)?;
    let diag = d.select(sy, ndiag, diag)?;
    let minus_zero = d.c(-0.0);
    let minus_pi = d.c(-PI);
    let flat_right = d.select(sy, minus_zero, zero)?;
    let flat_left = d.select(sy, minus_pi, pi)?;
    let flat = d.select(sx, flat_left, flat_right)?;
    let at_inf = d.select(y_inf, diag, flat)?;
    let x_inf = d.cmp(SOp::FOrdEqual, ax, inf)?;
    let r = d.select(x_inf, at_inf, r)?;
    // x = ±0 (y not): ±π/2.
    let x_zero = d.cmp(SOp::FOrdEqual, ax, zero)?;
    let r = d.select(x_zero, vertical, r)?;
    // y = ±0: y itself right of the axis, ±π left of it.
    let left_zero = d.select(sy, minus_pi, pi)?;
    let on_axis = d.select(sx, left_zero, y)?;
    let y_zero = d.cmp(SOp::FOrdEqual, ay, zero)?;
    let r = d.select(y_zero, on_axis, r)?;
    let sum = d.add(x, y)?;
    let x_nan = d.is_nan(x)?;
    let y_nan = d.is_nan(y)?;
    let any_nan = d.or(x_nan, y_nan)?;
    d.select(any_nan, sum, r)
}

/// fdlibm's `R(z)` of `e_asin.c` and `e_acos.c`: `asin(√z)/√z ≈ 1 + z·R(z)`, a rational
/// function.
fn asin_r(d: &mut D<'_>, z: Word) -> R<Word> {
    let p = d.horner(
        z,
        &[
            3.479_331_075_960_211_675_70e-05,
            7.915_349_942_898_145_321_76e-04,
            -4.005_553_450_067_941_140_27e-02,
            2.012_125_321_348_629_258_81e-01,
            -3.255_658_186_224_009_154_05e-01,
            1.666_666_666_666_666_574_15e-01,
        ],
    )?;
    let p = d.mul(z, p)?;
    let q = d.horner(
        z,
        &[
            7.703_815_055_590_193_527_91e-02,
            -6.882_839_716_054_532_930_30e-01,
            2.020_945_760_233_505_694_71e+00,
            -2.403_394_911_734_414_218_78e+00,
        ],
    )?;
    let q = d.mul(z, q)?;
    let one = d.c(1.0);
    let q = d.add(one, q)?;
    d.div(p, q)
}

/// `asin(x)` (fdlibm's `e_asin.c`): `x + x·R(x²)` below 0.5; above, from `√((1 - |x|)/2)`
/// (past 0.975 directly, else with the square root split in two parts). `|x| > 1` is NaN.
fn asin(d: &mut D<'_>, x: Word) -> R<Word> {
    use std::f64::consts::FRAC_PI_2;
    let pio2_lo = d.c(6.123_233_995_736_766_035_87e-17);
    let ax = d.abs(x)?;
    let xx = d.mul(x, x)?;
    let r_small = asin_r(d, xx)?;
    let xr = d.mul(x, r_small)?;
    let small_result = d.add(x, xr)?;
    // 1 > |x| >= 0.5
    let (one, half, two) = (d.c(1.0), d.c(0.5), d.c(2.0));
    let z = d.sub(one, ax)?;
    let z = d.mul(z, half)?;
    let s = d.sqrt(z)?;
    let r = asin_r(d, z)?;
    let pio2_hi = d.c(FRAC_PI_2);
    // Past 0.975: pio2_hi - (2·(s + s·r) - pio2_lo).
    let sr = d.mul(s, r)?;
    let a = d.add(s, sr)?;
    let a = d.mul(two, a)?;
    let a = d.sub(a, pio2_lo)?;
    let steep = d.sub(pio2_hi, a)?;
    // Else: f = s with its low word cleared, c = (z - f²)/(s + f);
    // 0.5·pio2_hi - (2·s·r - (pio2_lo - 2·c) - (0.5·pio2_hi - 2·f)).
    let f = d.high_word(s)?;
    let ff = d.mul(f, f)?;
    let num = d.sub(z, ff)?;
    let den = d.add(s, f)?;
    let c = d.div(num, den)?;
    let half_pio2 = d.c(0.5 * FRAC_PI_2);
    let twos = d.mul(two, s)?;
    let a = d.mul(twos, r)?;
    let twoc = d.mul(two, c)?;
    let b = d.sub(pio2_lo, twoc)?;
    let a = d.sub(a, b)?;
    let twof = d.mul(two, f)?;
    let b = d.sub(half_pio2, twof)?;
    let a = d.sub(a, b)?;
    let middle = d.sub(half_pio2, a)?;
    let k975 = d.c(f64::from_bits(0x3fef_3333_0000_0000));
    let past = d.cmp(SOp::FOrdGreaterThanEqual, ax, k975)?;
    let big = d.select(past, steep, middle)?;
    let nbig = d.neg(big)?;
    let negative = d.sign_bit(x)?;
    let big = d.select(negative, nbig, big)?;
    let below_half = d.cmp(SOp::FOrdLessThan, ax, half)?;
    let r = d.select(below_half, small_result, big)?;
    // |x| = 1: ±π/2 exactly as x·pio2_hi; |x| > 1 (or NaN): NaN.
    let at_one = d.mul(x, pio2_hi)?;
    let is_one = d.cmp(SOp::FOrdEqual, ax, one)?;
    let r = d.select(is_one, at_one, r)?;
    let outside = d.cmp(SOp::FUnordGreaterThan, ax, one)?;
    let nan = d.special(f64::NAN)?;
    d.select(outside, nan, r)
}

/// `acos(x)` (fdlibm's `e_acos.c`): `π/2 - (x - (π/2_lo - x·R(x²)))` below 0.5; above, from
/// `√((1 ∓ x)/2)` (for a positive `x` with the square root split in two parts). `|x| > 1` is
/// NaN; `acos(1)` is 0 and `acos(-1)` π.
fn acos(d: &mut D<'_>, x: Word) -> R<Word> {
    use std::f64::consts::FRAC_PI_2;
    let pio2_lo = d.c(6.123_233_995_736_766_035_87e-17);
    let pio2_hi = d.c(FRAC_PI_2);
    let (one, half, two) = (d.c(1.0), d.c(0.5), d.c(2.0));
    let ax = d.abs(x)?;
    // |x| < 0.5
    let xx = d.mul(x, x)?;
    let r0 = asin_r(d, xx)?;
    let xr = d.mul(x, r0)?;
    let a = d.sub(pio2_lo, xr)?;
    let a = d.sub(x, a)?;
    let small_result = d.sub(pio2_hi, a)?;
    // x < -0.5: z = (1 + x)/2, 2·(pio2_hi - (s + (R(z)·s - pio2_lo))).
    let zn = d.add(one, x)?;
    let zn = d.mul(zn, half)?;
    let sn = d.sqrt(zn)?;
    let rn = asin_r(d, zn)?;
    let w = d.mul(rn, sn)?;
    let w = d.sub(w, pio2_lo)?;
    let a = d.add(sn, w)?;
    let a = d.sub(pio2_hi, a)?;
    let negative_result = d.mul(two, a)?;
    // x > 0.5: z = (1 - x)/2, df = s with its low word cleared, c = (z - df²)/(s + df),
    // 2·(df + (R(z)·s + c)).
    let zp = d.sub(one, x)?;
    let zp = d.mul(zp, half)?;
    let sp = d.sqrt(zp)?;
    let df = d.high_word(sp)?;
    let dd = d.mul(df, df)?;
    let num = d.sub(zp, dd)?;
    let den = d.add(sp, df)?;
    let c = d.div(num, den)?;
    let rp = asin_r(d, zp)?;
    let w = d.mul(rp, sp)?;
    let w = d.add(w, c)?;
    let a = d.add(df, w)?;
    let positive_result = d.mul(two, a)?;
    let zero = d.c(0.0);
    let negative = d.cmp(SOp::FOrdLessThan, x, zero)?;
    let big = d.select(negative, negative_result, positive_result)?;
    let below_half = d.cmp(SOp::FOrdLessThan, ax, half)?;
    let r = d.select(below_half, small_result, big)?;
    // acos(1) = 0, acos(-1) = π; |x| > 1 (or NaN): NaN.
    let pi = d.c(std::f64::consts::PI);
    let ends = d.select(negative, pi, zero)?;
    let is_one = d.cmp(SOp::FOrdEqual, ax, one)?;
    let r = d.select(is_one, ends, r)?;
    let outside = d.cmp(SOp::FUnordGreaterThan, ax, one)?;
    let nan = d.special(f64::NAN)?;
    d.select(outside, nan, r)
}

/// `hypot(x, y)`: `√(x² + y²)` on `x` and `y` scaled by a power of two that brings the
/// larger near 1 (so nothing overflows or underflows on the way), scaled back. Within 1.5 ULP
/// (two squares, a sum and a square root, each rounded once). An infinity gives `+inf`, NaN
/// or not beside it, as C's; else a NaN gives NaN.
fn hypot(d: &mut D<'_>, x: Word, y: Word) -> R<Word> {
    let (ax, ay) = (d.abs(x)?, d.abs(y)?);
    let big = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FMax as u32, &[ax, ay])?
    };
    let e = exponent(d, big)?;
    let bias = d.ci(1023);
    let e = d.i(SOp::ISub, e, bias)?;
    let it = d.it;
    let minus_e = d.e.b.op(SOp::SNegate, it, None, &[e])?;
    let sx = d.ldexp(ax, minus_e)?;
    let sy = d.ldexp(ay, minus_e)?;
    let xx = d.mul(sx, sx)?;
    let yy = d.mul(sy, sy)?;
    let sum = d.add(xx, yy)?;
    let root = d.sqrt(sum)?;
    let r = d.ldexp(root, e)?;
    let x_nan = d.is_nan(x)?;
    let y_nan = d.is_nan(y)?;
    let any_nan = d.or(x_nan, y_nan)?;
    let nan = d.special(f64::NAN)?;
    let r = d.select(any_nan, nan, r)?;
    let inf = d.special(f64::INFINITY)?;
    let x_inf = d.cmp(SOp::FOrdEqual, ax, inf)?;
    let y_inf = d.cmp(SOp::FOrdEqual, ay, inf)?;
    let any_inf = d.or(x_inf, y_inf)?;
    d.select(any_inf, inf, r)
}

/// `pow(x, y)` (fdlibm's `e_pow.c`, C's special operands): `2^(y·log2|x|)` with `log2|x|`
/// carried in two parts to about 64 bits (`(x-1)/(x+1)` or `(x-1.5)/(x+1.5)` and a
/// polynomial, or a series where `x` is near 1 and `|y|` past 2^31), `y` split in two, their
/// product `p_h + p_l`, and `2^(p_h + p_l)` as `exp`'s rational form times `2^n`. Within 1 ULP
/// (fdlibm's bound is 0.5 ULP plus a little). Every special case is computed beside the
/// general one and chosen by `OpSelect`, in fdlibm's order: `y = 0` and `x = 1` give 1 (NaN
/// or not), then NaN gives NaN, then the special `y` (`±inf`, `±1`, `2`, `0.5` of a
/// non-negative `x`), then the special `x` (`±0`, `±inf`, `±1`), then a negative `x` with a
/// non-integer `y` (NaN) and over- and underflow.
fn pow(d: &mut D<'_>, x: Word, y: Word) -> R<Word> {
    const P: [f64; 5] = [
        4.138_136_797_057_238_460_39e-08,
        -1.653_390_220_546_525_153_90e-06,
        6.613_756_321_437_934_361_17e-05,
        -2.777_777_777_701_559_338_42e-03,
        1.666_666_666_666_660_190_37e-01,
    ];
    let lg2 = d.c(std::f64::consts::LN_2);
    let lg2_h = d.c(6.931_471_824_645_996_093_75e-01);
    let lg2_l = d.c(-1.904_654_299_957_768_045_25e-09);
    let ovt = d.c(8.008_566_259_537_294_437_2e-17);
    let ivln2 = d.c(std::f64::consts::LOG2_E);
    let ivln2_h = d.c(1.442_695_021_629_333_496_09e+00);
    let ivln2_l = d.c(1.925_962_991_126_617_468_87e-08);
    let (zero, one, half, two) = (d.c(0.0), d.c(1.0), d.c(0.5), d.c(2.0));
    let (inf, nan) = (d.special(f64::INFINITY)?, d.special(f64::NAN)?);
    let bt = d.bt;
    let ax = d.abs(x)?;
    let ay = d.abs(y)?;
    let x_neg = d.sign_bit(x)?;
    let y_pos = d.cmp(SOp::FOrdGreaterThan, y, zero)?;
    let y_neg = d.cmp(SOp::FOrdLessThan, y, zero)?;

    // Whether y is an integer, and an odd one (exact tests below 2^53; past it every double
    // is an even integer).
    let two53 = d.c(9_007_199_254_740_992.0);
    let y_big = d.cmp(SOp::FOrdGreaterThanEqual, ay, two53)?;
    let fy = d.floor(y)?;
    let y_whole = d.cmp(SOp::FOrdEqual, fy, y)?;
    let y_whole = d.or(y_whole, y_big)?;
    let hy2 = d.mul(y, half)?;
    let fhy2 = d.floor(hy2)?;
    let even = d.mul(fhy2, two)?;
    let parity = d.sub(y, even)?;
    let y_odd = d.cmp(SOp::FOrdEqual, parity, one)?;
    let not_big = d.e.b.op(SOp::LogicalNot, bt, None, &[y_big])?;
    let y_odd = d.and(y_odd, not_big)?;
    let y_odd = d.and(y_odd, y_whole)?;
    // s: -1 for a negative x to an odd power.
    let minus_one = d.c(-1.0);
    let odd_neg = d.and(x_neg, y_odd)?;
    let s = d.select(odd_neg, minus_one, one)?;

    // log2|x| = t1 + t2, in general.
    let (t1_g, t2_g) = pow_log2(d, ax)?;
    // Near 1 with |y| past 2^31: log(x) by x - x²/2 + x³/3 - x⁴/4.
    let t = d.sub(ax, one)?;
    let (c13, c14) = (d.c(0.333_333_333_333_333_333_333_3), d.c(0.25));
    let a = d.mul(t, c14)?;
    let a = d.sub(c13, a)?;
    let a = d.mul(t, a)?;
    let a = d.sub(half, a)?;
    let tt = d.mul(t, t)?;
    let w = d.mul(tt, a)?;
    let u = d.mul(ivln2_h, t)?;
    let a = d.mul(t, ivln2_l)?;
    let b = d.mul(w, ivln2)?;
    let v = d.sub(a, b)?;
    let uv = d.add(u, v)?;
    let t1_n = d.high_word(uv)?;
    let a = d.sub(t1_n, u)?;
    let t2_n = d.sub(v, a)?;
    let huge_y = d.c(f64::from_bits(0x41e0_0001_0000_0000)); // |y| past 2^31 (high word)
    let y_huge = d.cmp(SOp::FOrdGreaterThanEqual, ay, huge_y)?;
    let t1 = d.select(y_huge, t1_n, t1_g)?;
    let t2 = d.select(y_huge, t2_n, t2_g)?;

    // (y1 + y2)·(t1 + t2) = p_h + p_l, y1 = y with its low word cleared.
    let y1 = d.high_word(y)?;
    let a = d.sub(y, y1)?;
    let a = d.mul(a, t1)?;
    let b = d.mul(y, t2)?;
    let p_l = d.add(a, b)?;
    let p_h = d.mul(y1, t1)?;
    let z = d.add(p_l, p_h)?;
    // Over- and underflow: z past 1024 (or at it, with p_l above what rounding left), below
    // -1075 (or at it, with p_l below).
    let (c1024, cm1075) = (d.c(1024.0), d.c(-1075.0));
    let zp = d.sub(z, p_h)?;
    let over_at = d.add(p_l, ovt)?;
    let over_at = d.cmp(SOp::FOrdGreaterThan, over_at, zp)?;
    let at_top = d.cmp(SOp::FOrdEqual, z, c1024)?;
    let over_at = d.and(at_top, over_at)?;
    let over = d.cmp(SOp::FOrdGreaterThan, z, c1024)?;
    let over = d.or(over, over_at)?;
    let under_at = d.cmp(SOp::FOrdLessThanEqual, p_l, zp)?;
    let at_bottom = d.cmp(SOp::FOrdEqual, z, cm1075)?;
    let under_at = d.and(at_bottom, under_at)?;
    let under = d.cmp(SOp::FOrdLessThan, z, cm1075)?;
    let under = d.or(under, under_at)?;

    // 2^(p_h + p_l): n the integer nearest z (halves away from 0) where |z| > 0.5.
    let az = d.abs(z)?;
    let a = d.add(az, half)?;
    let nf = d.floor(a)?;
    let nnf = d.neg(nf)?;
    let z_neg = d.cmp(SOp::FOrdLessThan, z, zero)?;
    let nf = d.select(z_neg, nnf, nf)?;
    let past_half = d.c(f64::from_bits(0x3fe0_0001_0000_0000));
    let reduce = d.cmp(SOp::FOrdGreaterThanEqual, az, past_half)?;
    let nf = d.select(reduce, nf, zero)?;
    let p_h = d.sub(p_h, nf)?;
    let a = d.add(p_l, p_h)?;
    let t = d.high_word(a)?;
    let u = d.mul(t, lg2_h)?;
    let a = d.sub(t, p_h)?;
    let a = d.sub(p_l, a)?;
    let a = d.mul(a, lg2)?;
    let b = d.mul(t, lg2_l)?;
    let v = d.add(a, b)?;
    let zz = d.add(u, v)?;
    let a = d.sub(zz, u)?;
    let w = d.sub(v, a)?;
    let t = d.mul(zz, zz)?;
    let poly = d.horner(t, &P)?;
    let tp = d.mul(t, poly)?;
    let t1 = d.sub(zz, tp)?;
    let num = d.mul(zz, t1)?;
    let den = d.sub(t1, two)?;
    let q = d.div(num, den)?;
    let zw = d.mul(zz, w)?;
    let b = d.add(w, zw)?;
    let r = d.sub(q, b)?;
    let a = d.sub(r, zz)?;
    let e = d.sub(one, a)?;
    // Clamped: n only matters inside [-1075, 1024] (over- and underflow are chosen below).
    let (lo_n, hi_n) = (d.c(-1100.0), d.c(1100.0));
    let nf_c = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FClamp as u32, &[nf, lo_n, hi_n])?
    };
    let n = d.whole_to_int(nf_c)?;
    let mag = d.ldexp(e, n)?;
    let general = d.mul(s, mag)?;
    let s_inf = d.mul(s, inf)?;
    let s_zero = d.mul(s, zero)?;
    let r = d.select(over, s_inf, general)?;
    let r = d.select(under, s_zero, r)?;

    // |y| past 2^31 with x not near 1 (|x| below 1 - 2^-21 or from 1 + 2^-20 on), or past
    // 2^64: over- or underflow, by the side of 1 and the sign of y.
    let below = d.c(f64::from_bits(0x3fef_ffff_0000_0000));
    let above = d.c(f64::from_bits(0x3ff0_0001_0000_0000));
    let x_small = d.cmp(SOp::FOrdLessThan, ax, below)?;
    let x_large = d.cmp(SOp::FOrdGreaterThanEqual, ax, above)?;
    let grow_small = d.select(y_neg, s_inf, s_zero)?;
    let grow_large = d.select(y_pos, s_inf, s_zero)?;
    let far = d.select(x_small, grow_small, grow_large)?;
    let not_near = d.or(x_small, x_large)?;
    let far_applies = d.and(y_huge, not_near)?;
    let r = d.select(far_applies, far, r)?;
    let two64 = d.c(f64::from_bits(0x43f0_0001_0000_0000));
    let y_vast = d.cmp(SOp::FOrdGreaterThanEqual, ay, two64)?;
    let lt1 = d.cmp(SOp::FOrdLessThan, ax, one)?;
    let vast_small = d.select(y_neg, inf, zero)?;
    let vast_large = d.select(y_pos, inf, zero)?;
    let vast = d.select(lt1, vast_small, vast_large)?;
    let r = d.select(y_vast, vast, r)?;

    // A negative x (not -0, not -inf) to a non-integer power: NaN.
    let y_frac = d.e.b.op(SOp::LogicalNot, bt, None, &[y_whole])?;
    let x_below_zero = d.cmp(SOp::FOrdLessThan, x, zero)?;
    let complex = d.and(x_below_zero, y_frac)?;
    let r = d.select(complex, nan, r)?;

    // x = ±0, ±inf, ±1: |x| (1/|x| for a negative y), negated for a negative x to an odd
    // power; (-1) to a non-integer power is NaN.
    let recip = d.div(one, ax)?;
    let zs = d.select(y_neg, recip, ax)?;
    let nzs = d.neg(zs)?;
    let zs = d.select(odd_neg, nzs, zs)?;
    let is_one = d.cmp(SOp::FOrdEqual, ax, one)?;
    let minus_one_frac = d.and(x_neg, is_one)?;
    let minus_one_frac = d.and(minus_one_frac, y_frac)?;
    let zs = d.select(minus_one_frac, nan, zs)?;
    let x_zero = d.cmp(SOp::FOrdEqual, ax, zero)?;
    let x_inf = d.cmp(SOp::FOrdEqual, ax, inf)?;
    let x_special = d.or(x_zero, x_inf)?;
    let x_special = d.or(x_special, is_one)?;
    let r = d.select(x_special, zs, r)?;

    // y = 0.5 of x >= +0 (not -0): sqrt; y = 2: x·x; y = ±1: x or 1/x; y = ±inf: 1 for
    // |x| = 1, else inf or 0 by the side of 1 and the sign of y.
    let root = d.sqrt(x)?;
    let y_half = d.cmp(SOp::FOrdEqual, y, half)?;
    let x_nonneg = d.e.b.op(SOp::LogicalNot, bt, None, &[x_neg])?;
    let root_applies = d.and(y_half, x_nonneg)?;
    let r = d.select(root_applies, root, r)?;
    let y_two = d.cmp(SOp::FOrdEqual, y, two)?;
    let xx = d.mul(x, x)?;
    let r = d.select(y_two, xx, r)?;
    let y_one = d.cmp(SOp::FOrdEqual, ay, one)?;
    let inv = d.div(one, x)?;
    let pm = d.select(y_pos, x, inv)?;
    let r = d.select(y_one, pm, r)?;
    let y_inf = d.cmp(SOp::FOrdEqual, ay, inf)?;
    let large_x = d.cmp(SOp::FOrdGreaterThan, ax, one)?;
    let by_side = d.select(large_x, vast_large, vast_small)?;
    let at_inf = d.select(is_one, one, by_side)?;
    let r = d.select(y_inf, at_inf, r)?;

    // NaN operands: NaN (x + y); then x = 1 and y = 0 give 1 whatever the other is.
    let x_nan = d.is_nan(x)?;
    let y_nan = d.is_nan(y)?;
    let any_nan = d.or(x_nan, y_nan)?;
    let sum = d.add(x, y)?;
    let r = d.select(any_nan, sum, r)?;
    let x_is_one = d.cmp(SOp::FOrdEqual, x, one)?;
    let r = d.select(x_is_one, one, r)?;
    let y_zero = d.cmp(SOp::FOrdEqual, ay, zero)?;
    d.select(y_zero, one, r)
}

/// `log2|x|` for `pow` in two parts `(t1, t2)`, `t1` with its low word cleared (fdlibm's
/// `e_pow.c`): `|x| = 2^n·m` with `m` in `[√(1/2)·…, √3)`, `ss = (m - b)/(m + b)` for `b` 1 or
/// 1.5 in high and low parts, `log2(m) = (2/(3·ln 2))·(3·ss + ss³·R(ss²))` carried in two
/// parts, plus `log2(b)` and `n`.
fn pow_log2(d: &mut D<'_>, ax: Word) -> R<(Word, Word)> {
    const L: [f64; 6] = [
        5.999_999_999_999_946_487_25e-01,
        4.285_714_285_785_501_842_52e-01,
        3.333_333_298_183_774_329_18e-01,
        2.727_281_238_085_340_064_89e-01,
        2.306_607_457_755_617_540_67e-01,
        2.069_750_178_003_384_177_84e-01,
    ];
    let (bt, it) = (d.bt, d.it);
    // Subnormals: scaled by 2^53, 53 off n.
    let tiny = d.c(f64::MIN_POSITIVE);
    let sub = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
    let two53 = d.c(9_007_199_254_740_992.0);
    let scaled = d.mul(ax, two53)?;
    let ax = d.select(sub, scaled, ax)?;
    let bits = d.bits(ax)?;
    let c32 = d.cu(32);
    let ix = d.u(SOp::ShiftRightLogical, bits, c32)?;
    let low = d.cu(0xffff_ffff);
    let lx = d.u(SOp::BitwiseAnd, bits, low)?;
    let ix = d.e.b.op(SOp::Bitcast, it, None, &[ix])?;
    let c20 = d.ci(20);
    let e = d.i(SOp::ShiftRightArithmetic, ix, c20)?;
    let b3ff = d.ci(0x3ff);
    let n = d.i(SOp::ISub, e, b3ff)?;
    let (zero_i, m53) = (d.ci(0), d.ci(-53));
    let adj = d.pick(it, sub, m53, zero_i)?;
    let n = d.i(SOp::IAdd, n, adj)?;
    let mask20 = d.ci(0x000f_ffff);
    let j = d.i(SOp::BitwiseAnd, ix, mask20)?;
    let one_hi = d.ci(0x3ff0_0000);
    let ixn = d.i(SOp::BitwiseOr, j, one_hi)?;
    // The interval: j <= 0x3988E (k = 0), j < 0xBB67A (k = 1), else k = 0 with n + 1 and
    // the exponent one lower.
    let (c1, c2) = (d.ci(0x3988E), d.ci(0xBB67A));
    let k1 = d.e.b.op(SOp::SGreaterThan, bt, None, &[j, c1])?;
    let lt2 = d.e.b.op(SOp::SLessThan, bt, None, &[j, c2])?;
    let k1 = d.and(k1, lt2)?;
    let past = d.e.b.op(SOp::LogicalNot, bt, None, &[lt2])?;
    let one_i = d.ci(1);
    let bump = d.pick(it, past, one_i, zero_i)?;
    let n = d.i(SOp::IAdd, n, bump)?;
    let down = d.ci(0x0010_0000);
    let lower = d.i(SOp::ISub, ixn, down)?;
    let ixn = d.pick(it, past, lower, ixn)?;
    // ax with the new high word.
    let hi = d.e.b.op(SOp::Bitcast, d.ut, None, &[ixn])?;
    let hi = d.u(SOp::ShiftLeftLogical, hi, c32)?;
    let nb = d.u(SOp::BitwiseOr, hi, lx)?;
    let m = d.of_bits(nb)?;
    let (one, one_half) = (d.c(1.0), d.c(1.5));
    let bp = d.select(k1, one_half, one)?;
    let zero = d.c(0.0);
    let dp_h = d.c(5.849_624_872_207_641_601_56e-01);
    let dp_h = d.select(k1, dp_h, zero)?;
    let dp_l = d.c(1.350_039_202_129_748_971_28e-08);
    let dp_l = d.select(k1, dp_l, zero)?;
    // ss = s_h + s_l = (m - bp)/(m + bp).
    let u = d.sub(m, bp)?;
    let den = d.add(m, bp)?;
    let v = d.div(one, den)?;
    let ss = d.mul(u, v)?;
    let s_h = d.high_word(ss)?;
    // t_h = m + bp, high: ((ixn >> 1) | 0x20000000) + 0x00080000 + (k << 18) as a high word.
    let a = d.i(SOp::ShiftRightArithmetic, ixn, one_i)?;
    let c2000 = d.ci(0x2000_0000);
    let a = d.i(SOp::BitwiseOr, a, c2000)?;
    let c8 = d.ci(0x0008_0000);
    let a = d.i(SOp::IAdd, a, c8)?;
    let k18 = d.ci(1 << 18);
    let kk = d.pick(it, k1, k18, zero_i)?;
    let a = d.i(SOp::IAdd, a, kk)?;
    let a = d.e.b.op(SOp::Bitcast, d.ut, None, &[a])?;
    let a = d.u(SOp::ShiftLeftLogical, a, c32)?;
    let t_h = d.of_bits(a)?;
    let a = d.sub(t_h, bp)?;
    let t_l = d.sub(m, a)?;
    let a = d.mul(s_h, t_h)?;
    let a = d.sub(u, a)?;
    let b = d.mul(s_h, t_l)?;
    let a = d.sub(a, b)?;
    let s_l = d.mul(v, a)?;
    // log(m) pieces.
    let s2 = d.mul(ss, ss)?;
    let poly = d.horner(s2, &[L[5], L[4], L[3], L[2], L[1], L[0]])?;
    let s4 = d.mul(s2, s2)?;
    let r = d.mul(s4, poly)?;
    let a = d.add(s_h, ss)?;
    let a = d.mul(s_l, a)?;
    let r = d.add(r, a)?;
    let s2 = d.mul(s_h, s_h)?;
    let three = d.c(3.0);
    let a = d.add(three, s2)?;
    let a = d.add(a, r)?;
    let t_h = d.high_word(a)?;
    let a = d.sub(t_h, three)?;
    let a = d.sub(a, s2)?;
    let t_l = d.sub(r, a)?;
    let u = d.mul(s_h, t_h)?;
    let a = d.mul(s_l, t_h)?;
    let b = d.mul(t_l, ss)?;
    let v = d.add(a, b)?;
    let uv = d.add(u, v)?;
    let p_h = d.high_word(uv)?;
    let a = d.sub(p_h, u)?;
    let p_l = d.sub(v, a)?;
    let cp = d.c(9.617_966_939_259_755_543_29e-01);
    let cp_h = d.c(9.617_967_009_544_372_558_59e-01);
    let cp_l = d.c(-7.028_461_650_952_758_265_16e-09);
    let z_h = d.mul(cp_h, p_h)?;
    let a = d.mul(cp_l, p_h)?;
    let b = d.mul(p_l, cp)?;
    let z_l = d.add(a, b)?;
    let z_l = d.add(z_l, dp_l)?;
    let dt = d.dt;
    let t = d.e.b.op(SOp::ConvertSToF, dt, None, &[n])?;
    let a = d.add(z_h, z_l)?;
    let a = d.add(a, dp_h)?;
    let a = d.add(a, t)?;
    let t1 = d.high_word(a)?;
    let a = d.sub(t1, t)?;
    let a = d.sub(a, dp_h)?;
    let a = d.sub(a, z_h)?;
    let t2 = d.sub(z_l, a)?;
    Ok((t1, t2))
}

/// `e^x - 1` (fdlibm's `s_expm1.c`), precise near 0: `x = k·ln2 + r` (`k = 0` below
/// `ln2/2`) with the rounding of `r` kept in `c`, a rational approximation of `e^r - 1`, and
/// the combination fdlibm picks for `k` (0, -1, 1, 2 to 56, else), each computed and chosen.
/// Past 56·ln2 it is `-1` below and `+inf` above `e^x`'s overflow; NaN stays NaN.
fn expm1(d: &mut D<'_>, x: Word) -> R<Word> {
    const Q: [f64; 5] = [
        -2.010_992_181_836_243_713_26e-07,
        4.008_217_827_329_362_395_52e-06,
        -7.936_507_578_674_879_424_73e-05,
        1.587_301_587_254_814_601_65e-03,
        -3.333_333_333_333_313_164_28e-02,
    ];
    let (lo_x, hi_x) = (d.c(-60.0), d.c(710.0));
    let xc = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FClamp as u32, &[x, lo_x, hi_x])?
    };
    let zero = d.c(0.0);
    let (half, minus_half) = (d.c(0.5), d.c(-0.5));
    let neg = d.cmp(SOp::FOrdLessThan, xc, zero)?;
    let rounding = d.select(neg, minus_half, half)?;
    let invln2 = d.c(std::f64::consts::LOG2_E);
    let a = d.mul(invln2, xc)?;
    let a = d.add(a, rounding)?;
    let kf = {
        // C's `(int)` truncation, from floor and ceil.
        let fl = d.floor(a)?;
        let negated = d.neg(a)?;
        let up = d.floor(negated)?;
        let up = d.neg(up)?;
        let a_neg = d.cmp(SOp::FOrdLessThan, a, zero)?;
        d.select(a_neg, up, fl)?
    };
    let ax = d.abs(xc)?;
    let half_ln2 = d.c(f64::from_bits(0x3fd6_2e43_0000_0000)); // hx > 0x3fd62e42
    let reduce = d.cmp(SOp::FOrdGreaterThanEqual, ax, half_ln2)?;
    let kf = d.select(reduce, kf, zero)?;
    let (hi, lo, xr) = ln2_reduce(d, xc, kf)?;
    let a = d.sub(hi, xr)?;
    let c = d.sub(a, lo)?;
    // The primary range.
    let hfx = d.mul(half, xr)?;
    let hxs = d.mul(xr, hfx)?;
    let p = d.horner(hxs, &Q)?;
    let p = d.mul(hxs, p)?;
    let one = d.c(1.0);
    let r1 = d.add(one, p)?;
    let three = d.c(3.0);
    let a = d.mul(r1, hfx)?;
    let t = d.sub(three, a)?;
    let six = d.c(6.0);
    let num = d.sub(r1, t)?;
    let a = d.mul(xr, t)?;
    let den = d.sub(six, a)?;
    let q = d.div(num, den)?;
    let e0 = d.mul(hxs, q)?;
    // k = 0: x - (x·e - hxs).
    let a = d.mul(xr, e0)?;
    let a = d.sub(a, hxs)?;
    let k0 = d.sub(xr, a)?;
    // Otherwise e = x·(e - c) - c - hxs.
    let a = d.sub(e0, c)?;
    let a = d.mul(xr, a)?;
    let a = d.sub(a, c)?;
    let e = d.sub(a, hxs)?;
    // k = -1: 0.5·(x - e) - 0.5.
    let a = d.sub(xr, e)?;
    let a = d.mul(half, a)?;
    let km1 = d.sub(a, half)?;
    // k = 1: below -0.25, -2·(e - (x + 0.5)); else 1 + 2·(x - e).
    let two = d.c(2.0);
    let minus_two = d.c(-2.0);
    let a = d.add(xr, half)?;
    let a = d.sub(e, a)?;
    let k1_low = d.mul(minus_two, a)?;
    let a = d.sub(xr, e)?;
    let a = d.mul(two, a)?;
    let k1_high = d.add(one, a)?;
    let quarter = d.c(-0.25);
    let below = d.cmp(SOp::FOrdLessThan, xr, quarter)?;
    let k1 = d.select(below, k1_low, k1_high)?;
    // k outside [0, 56]: (x - e + 1)·2^k - 1; 2 to 19: (x - e + (1 - 2^-k))·2^k; 20 to 56:
    // (x - (e + 2^-k) + 1)·2^k.
    let k = d.whole_to_int(kf)?;
    let it = d.it;
    let minus_k = d.e.b.op(SOp::SNegate, it, None, &[k])?;
    let uf = d.ldexp(one, minus_k)?;
    let a = d.sub(xr, e)?;
    let y = d.add(a, one)?;
    let scaled = d.ldexp(y, k)?;
    let far = d.sub(scaled, one)?;
    let b = d.sub(one, uf)?;
    let a = d.sub(xr, e)?;
    let a = d.add(a, b)?;
    let small_k = d.ldexp(a, k)?;
    let a = d.add(e, uf)?;
    let a = d.sub(xr, a)?;
    let a = d.add(a, one)?;
    let mid_k = d.ldexp(a, k)?;
    let c20 = d.c(20.0);
    let lt20 = d.cmp(SOp::FOrdLessThan, kf, c20)?;
    let near = d.select(lt20, small_k, mid_k)?;
    let (c0, c56) = (d.c(0.0), d.c(56.0));
    let in_range = d.cmp(SOp::FOrdGreaterThanEqual, kf, c0)?;
    let le56 = d.cmp(SOp::FOrdLessThanEqual, kf, c56)?;
    let in_range = d.and(in_range, le56)?;
    let r = d.select(in_range, near, far)?;
    let (m1f, p1f) = (d.c(-1.0), d.c(1.0));
    let is_m1 = d.cmp(SOp::FOrdEqual, kf, m1f)?;
    let r = d.select(is_m1, km1, r)?;
    let is_1 = d.cmp(SOp::FOrdEqual, kf, p1f)?;
    let r = d.select(is_1, k1, r)?;
    let is_0 = d.cmp(SOp::FOrdEqual, kf, zero)?;
    let r = d.select(is_0, k0, r)?;
    // Past 56·ln2: -1 below, +inf above the overflow threshold; NaN itself.
    let big = d.c(f64::from_bits(0x4043_687A_0000_0000));
    let ax0 = d.abs(x)?;
    let huge = d.cmp(SOp::FOrdGreaterThanEqual, ax0, big)?;
    let x_neg = d.cmp(SOp::FOrdLessThan, x, zero)?;
    let huge_neg = d.and(huge, x_neg)?;
    let r = d.select(huge_neg, m1f, r)?;
    let o_t = d.c(7.097_827_128_933_839_730_96e+02);
    let over = d.cmp(SOp::FOrdGreaterThan, x, o_t)?;
    let inf = d.special(f64::INFINITY)?;
    let r = d.select(over, inf, r)?;
    d.nan_through(x, r)
}

/// `sign·e^x/2` for `x` past `e^x`'s overflow (musl's `__expo2`, `k = 2043`): `e^(x - k·ln2)`
/// (the subtraction exact) times `2^(k-1)`, the power added to the exponent's bits (a
/// product by two constant powers of two is one a driver may fold into infinity); past
/// `ln(2·DBL_MAX)` it is infinite.
fn expo2(d: &mut D<'_>, ax: Word, sign: Word) -> R<Word> {
    let kln2 = d.c(f64::from_bits(0x4096_2066_151a_dd8b));
    let a = d.sub(ax, kln2)?;
    let e = exp(d, a)?;
    let bits = d.bits(e)?;
    let k = d.cu(2042 << 52);
    let bits = d.u(SOp::IAdd, bits, k)?;
    let r = d.of_bits(bits)?;
    let limit = d.c(7.104_758_600_739_439e2);
    let over = d.cmp(SOp::FOrdGreaterThan, ax, limit)?;
    let inf = d.special(f64::INFINITY)?;
    let r = d.select(over, inf, r)?;
    d.mul(r, sign)
}

/// `tanh(x)` (musl's `tanh.c`): from `expm1` of `±2|x|`, by the size of `|x|` (1 past 20).
fn tanh(d: &mut D<'_>, x: Word) -> R<Word> {
    let ax = d.abs(x)?;
    let (two, minus_two, one) = (d.c(2.0), d.c(-2.0), d.c(1.0));
    let b1 = d.c(f64::from_bits(0x3fe1_93eb_0000_0000)); // w > 0x3fe193ea: |x| > log(3)/2
    let b2 = d.c(f64::from_bits(0x3fd0_58af_0000_0000)); // w > 0x3fd058ae: |x| > log(5/3)/2
    let big = d.cmp(SOp::FOrdGreaterThanEqual, ax, b1)?;
    let mid = d.cmp(SOp::FOrdGreaterThanEqual, ax, b2)?;
    let factor = d.select(mid, two, minus_two)?;
    let arg = d.mul(factor, ax)?;
    let t = expm1(d, arg)?;
    let tp2 = d.add(t, two)?;
    // Big: 1 - 2/(t + 2); mid: t/(t + 2); small: -t/(t + 2).
    let a = d.div(two, tp2)?;
    let big_r = d.sub(one, a)?;
    let mid_r = d.div(t, tp2)?;
    let small_r = d.neg(mid_r)?;
    let r = d.select(mid, mid_r, small_r)?;
    let r = d.select(big, big_r, r)?;
    let twenty = d.c(20.0);
    let past = d.cmp(SOp::FOrdGreaterThan, ax, twenty)?;
    let r = d.select(past, one, r)?;
    let tiny = d.c(f64::MIN_POSITIVE);
    let sub = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
    let r = d.select(sub, ax, r)?;
    let neg = d.sign_bit(x)?;
    let nr = d.neg(r)?;
    let r = d.select(neg, nr, r)?;
    d.nan_through(x, r)
}

/// `sinh(x)` (musl's `sinh.c`): from `expm1(|x|)` below `log(DBL_MAX)`, `__expo2` past it.
fn sinh(d: &mut D<'_>, x: Word) -> R<Word> {
    let ax = d.abs(x)?;
    let neg = d.sign_bit(x)?;
    let (half, minus_half) = (d.c(0.5), d.c(-0.5));
    let h = d.select(neg, minus_half, half)?;
    let (one, two) = (d.c(1.0), d.c(2.0));
    let t = expm1(d, ax)?;
    let tp1 = d.add(t, one)?;
    // Below 1: h·(2t - t²/(t + 1)); else h·(t + t/(t + 1)).
    let tt = d.mul(t, t)?;
    let a = d.div(tt, tp1)?;
    let b = d.mul(two, t)?;
    let a = d.sub(b, a)?;
    let low = d.mul(h, a)?;
    let a = d.div(t, tp1)?;
    let a = d.add(t, a)?;
    let high = d.mul(h, a)?;
    let lt1 = d.cmp(SOp::FOrdLessThan, ax, one)?;
    let r = d.select(lt1, low, high)?;
    let tiny = d.c(f64::from_bits(0x3e50_0000_0000_0000)); // 2^-26: x itself
    let small = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
    let r = d.select(small, x, r)?;
    let two_h = d.mul(two, h)?;
    let limit = d.c(f64::from_bits(0x4086_2e42_0000_0000));
    let ax_c = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        let cap = d.c(1420.0);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FMin as u32, &[ax, cap])?
    };
    let huge = expo2(d, ax_c, two_h)?;
    let past = d.cmp(SOp::FOrdGreaterThanEqual, ax, limit)?;
    let r = d.select(past, huge, r)?;
    d.nan_through(x, r)
}

/// `cosh(x)` (musl's `cosh.c`): `1 + t²/(2(1 + t))` from `t = expm1(|x|)` below `ln 2`,
/// `(e^|x| + e^-|x|)/2` below `log(DBL_MAX)`, `__expo2` past it.
fn cosh(d: &mut D<'_>, x: Word) -> R<Word> {
    let ax = d.abs(x)?;
    let (one, two, half) = (d.c(1.0), d.c(2.0), d.c(0.5));
    let t = expm1(d, ax)?;
    let tt = d.mul(t, t)?;
    let a = d.add(one, t)?;
    let a = d.mul(two, a)?;
    let a = d.div(tt, a)?;
    let low = d.add(one, a)?;
    let cap = d.c(710.0);
    let ax_m = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FMin as u32, &[ax, cap])?
    };
    let e = exp(d, ax_m)?;
    let inv = d.div(one, e)?;
    let a = d.add(e, inv)?;
    let mid = d.mul(half, a)?;
    let ln2 = d.c(f64::from_bits(0x3fe6_2e42_0000_0000));
    let lt_ln2 = d.cmp(SOp::FOrdLessThan, ax, ln2)?;
    let r = d.select(lt_ln2, low, mid)?;
    let tiny = d.c(f64::from_bits(0x3e50_0000_0000_0000));
    let small = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
    let r = d.select(small, one, r)?;
    let ax_c = {
        let (dt, glsl) = (d.dt, d.e.glsl);
        let cap = d.c(1420.0);
        d.e.b
            .ext_inst(dt, None, glsl, GLOp::FMin as u32, &[ax, cap])?
    };
    let huge = expo2(d, ax_c, one)?;
    let limit = d.c(f64::from_bits(0x4086_2e42_0000_0000));
    let past = d.cmp(SOp::FOrdGreaterThanEqual, ax, limit)?;
    let r = d.select(past, huge, r)?;
    let nan = d.is_nan(x)?;
    d.select(nan, ax, r)
}

/// `log(1 + x)` (musl's `log1p.c`), precise near 0: `1 + x = 2^k·(1 + f)` with `1 + f` in
/// `[√½, √2)` and the rounding of `1 + x` kept in `c` (`k = 0`, `f = x` and `c = 0` for `x`
/// in `[-0.2929, 0.4142)`), then `log(1 + f)` as `log` has it. `-1` gives `-inf`, below it
/// NaN; `+inf` and NaN themselves.
fn log1p(d: &mut D<'_>, x: Word) -> R<Word> {
    const LG: [f64; 7] = [
        6.666_666_666_666_735_130e-01,
        3.999_999_999_940_941_908e-01,
        2.857_142_874_366_239_149e-01,
        2.222_219_843_214_978_396e-01,
        1.818_357_216_161_805_012e-01,
        1.531_383_769_920_937_332e-01,
        1.479_819_860_511_658_591e-01,
    ];
    let (bt, it) = (d.bt, d.it);
    let (zero, one, half, two) = (d.c(0.0), d.c(1.0), d.c(0.5), d.c(2.0));
    // Where k is 0: x in [-0.2929, 0.4142) (musl's high-word bounds).
    let a = d.c(f64::from_bits(0x3fda_827a_0000_0000));
    let b = d.c(-f64::from_bits(0x3fd2_bec5_0000_0000));
    let below_a = d.cmp(SOp::FOrdLessThan, x, a)?;
    let above_b = d.cmp(SOp::FOrdGreaterThan, x, b)?;
    let k_zero = d.and(below_a, above_b)?;
    // Otherwise from u = 1 + x, made exact: x cut at u's last place (`hi`, its bits), so that
    // `1 + hi` is `u` and `lo = x - hi` what rounding `1 + x` would lose (a driver may fold
    // musl's `x - ((1 + x) - 1)` to 0; these are bit operations and exact differences).
    let u0 = d.add(one, x)?;
    let ex = exponent(d, x)?;
    let eu = exponent(d, u0)?;
    let n = d.i(SOp::ISub, eu, ex)?;
    let (zero_i, c53) = (d.ci(0), d.ci(53));
    let negative_n = d.e.b.op(SOp::SLessThan, bt, None, &[n, zero_i])?;
    let n = d.pick(it, negative_n, zero_i, n)?;
    let all = d.e.b.op(SOp::SGreaterThan, bt, None, &[n, c53])?;
    let n = d.pick(it, all, c53, n)?;
    let ones = d.cu(u64::MAX);
    let n_u = d.e.b.op(SOp::Bitcast, d.ut, None, &[n])?;
    let mask = d.u(SOp::ShiftLeftLogical, ones, n_u)?;
    let xb = d.bits(x)?;
    let hb = d.u(SOp::BitwiseAnd, xb, mask)?;
    let hi_x = d.of_bits(hb)?;
    let hi_x = d.select(all, zero, hi_x)?;
    let lo_x = d.sub(x, hi_x)?;
    let u = d.add(one, hi_x)?;
    // hu = high(u) + (0x3ff00000 - 0x3fe6a09e), k = (hu >> 20) - 0x3ff.
    let ubits = d.bits(u)?;
    let c32 = d.cu(32);
    let hu = d.u(SOp::ShiftRightLogical, ubits, c32)?;
    let shift = d.cu(0x3ff0_0000 - 0x3fe6_a09e);
    let hu = d.u(SOp::IAdd, hu, shift)?;
    let c20 = d.cu(20);
    let kb = d.u(SOp::ShiftRightLogical, hu, c20)?;
    let kb = d.e.b.op(SOp::Bitcast, it, None, &[kb])?;
    let b3ff = d.ci(0x3ff);
    let k = d.i(SOp::ISub, kb, b3ff)?;
    let dt = d.dt;
    let kf = d.e.b.op(SOp::ConvertSToF, dt, None, &[k])?;
    // c = (what rounding 1 + x loses) / u below k = 54, else 0.
    let c = d.div(lo_x, u)?;
    let c54 = d.c(54.0);
    let lt54 = d.cmp(SOp::FOrdLessThan, kf, c54)?;
    let c = d.select(lt54, c, zero)?;
    // f = u with its high word reduced into [√½, √2), less 1.
    let mask = d.cu(0x000f_ffff);
    let hm = d.u(SOp::BitwiseAnd, hu, mask)?;
    let base = d.cu(0x3fe6_a09e);
    let hm = d.u(SOp::IAdd, hm, base)?;
    let hm = d.u(SOp::ShiftLeftLogical, hm, c32)?;
    let low = d.cu(0xffff_ffff);
    let ul = d.u(SOp::BitwiseAnd, ubits, low)?;
    let nb = d.u(SOp::BitwiseOr, hm, ul)?;
    let un = d.of_bits(nb)?;
    let f_k = d.sub(un, one)?;
    let f = d.select(k_zero, x, f_k)?;
    let c = d.select(k_zero, zero, c)?;
    let dk = d.select(k_zero, zero, kf)?;
    // log(1 + f) + k·ln2 + c, in musl's order.
    let hf = d.mul(half, f)?;
    let hfsq = d.mul(hf, f)?;
    let den = d.add(two, f)?;
    let s = d.div(f, den)?;
    let z = d.mul(s, s)?;
    let w = d.mul(z, z)?;
    let t1 = d.horner(w, &[LG[5], LG[3], LG[1]])?;
    let t1 = d.mul(w, t1)?;
    let t2 = d.horner(w, &[LG[6], LG[4], LG[2], LG[0]])?;
    let t2 = d.mul(z, t2)?;
    let rr = d.add(t2, t1)?;
    let (ln2_hi, ln2_lo) = (
        d.c(6.931_471_803_691_238_164_90e-01),
        d.c(1.908_214_929_270_587_700_02e-10),
    );
    let a = d.add(hfsq, rr)?;
    let a = d.mul(s, a)?;
    let b = d.mul(dk, ln2_lo)?;
    let b = d.add(b, c)?;
    let a = d.add(a, b)?;
    let a = d.sub(a, hfsq)?;
    let a = d.add(a, f)?;
    let b = d.mul(dk, ln2_hi)?;
    let r = d.add(a, b)?;
    // -1: -inf; below: NaN; +inf: +inf.
    let minus_one = d.c(-1.0);
    let at = d.cmp(SOp::FOrdEqual, x, minus_one)?;
    let below = d.cmp(SOp::FOrdLessThan, x, minus_one)?;
    let (minus_inf, nan, inf) = (
        d.special(f64::NEG_INFINITY)?,
        d.special(f64::NAN)?,
        d.special(f64::INFINITY)?,
    );
    let is_inf = d.cmp(SOp::FOrdEqual, x, inf)?;
    let r = d.select(is_inf, inf, r)?;
    let r = d.select(below, nan, r)?;
    let r = d.select(at, minus_inf, r)?;
    // Below 2^-53 in magnitude, x itself (its sign of zero too).
    let ax = d.abs(x)?;
    let tiny = d.c(2f64.powi(-53));
    let small = d.cmp(SOp::FOrdLessThan, ax, tiny)?;
    let r = d.select(small, x, r)?;
    d.nan_through(x, r)
}

//! `math` functions computed in single precision by the module itself, where GLSL.std.450's
//! are allowed to be loose: Vulkan bounds `Asin`, `Acos` and `Atan` only by an absolute
//! error and `Exp`, `Log`, `Tanh` by a few ULP of the inputs' scale (lavapipe is thousands of
//! ULP off for `asin` near ±1 and `tanh` near 0), while CUDA's libdevice, which Warp and
//! Numba users know, stays within a few ULP. Measured on lavapipe over a million random
//! arguments, against CPython's result rounded to `f32`: at most 3 ULP for each of them.
//!
//! Each but `fmod` (one short loop) is straight-line code (the branches of the algorithm
//! become `OpSelect`s over both sides): range reduction, then a minimax polynomial, as in
//! Cephes' single-precision library (S. L. Moshier, *Methods and Programs for Mathematical
//! Functions*, 1989: `asinf.c`, `atanf.c`), which stays within 2 ULP of the correctly
//! rounded result on its range. `--fast-math` keeps the GLSL.std.450 instructions.
//!
//! `pow` and `fmod` go further, needing more than a polynomial: `pow` carries `y·log2|x|` as
//! exact products summed in fixed point (a table of `log2` over `[0.75, 1.5)` in private
//! memory), `fmod` builds the exact remainder from the bits. Both stay exact where a driver
//! reassociates float sums (lavapipe does), since the sums that must be exact are integer
//! ones.
//!
//! Invariants: operands and results are scalar `f32`; a NaN operand gives NaN; the sign of
//! zero follows C's (`atan(-0.0)` is `-0.0`, `atan2(±0, -0)` is `±π`).

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, StorageClass, Word};
use spirthon_ir::cfg::MathFn;
use spirthon_ir::library;
use spirthon_ir::{Const, Ty};

use super::{Emitter, R};

const PI: f32 = core::f32::consts::PI;
const PI_2: f32 = core::f32::consts::FRAC_PI_2;
const PI_4: f32 = core::f32::consts::FRAC_PI_4;

/// Emits `mf` of `args` into `id` when this module computes it itself for `t` (the built-in
/// table's [`Precision`](library::Precision) of it, under this module's `--fast-math`), as a call of its helper
/// function (emitted once, by [`helper_functions`]); `false` when the device's is used.
pub(super) fn math(e: &mut Emitter, mf: MathFn, t: Ty, id: Word, args: &[Word]) -> R<bool> {
    if t != Ty::F32 || !has_own(mf, e.fast_math) {
        return Ok(false);
    }
    if mf == MathFn::Pow && e.consts.get(&Const::f32(0.5)) == Some(&args[1]) {
        F::new(e).square_root(args[0], id)?;
        return Ok(true);
    }
    let helper = match existing(e, mf, args.len()) {
        Some(h) => h,
        None => {
            let h = e.b.id();
            e.math_helpers.push((mf, args.len(), h));
            h
        }
    };
    let ft = e.ty(Ty::F32);
    let mut operands = smallvec::SmallVec::<[Word; 3]>::new();
    operands.push(helper);
    operands.extend_from_slice(args);
    e.b.op(SOp::FunctionCall, ft, Some(id), &operands)?;
    Ok(true)
}

/// `math.copysign(mag, sign)` into `id`, from the bits (any device's precision is exact).
pub(super) fn copysign(e: &mut Emitter, mag: Word, sign: Word, id: Word) -> R<()> {
    F::new(e).copysign_into(mag, sign, Some(id)).map(|_| ())
}

/// C's `fmod(a, b)` of `t` (`f32` or a float vector, per component): exact, by the module's
/// own `spirthon_fmod` (Vulkan gives `OpFRem` the precision of `a - b·trunc(a / b)`, which
/// lavapipe computes so, a few ULP off and wrong outright for large quotients); `OpFRem`
/// under `--fast-math`. The float `%` and `//` are built on it.
pub(super) fn remainder(e: &mut Emitter, t: Ty, rt: Word, a: Word, b: Word) -> R<Word> {
    if e.fast_math {
        return e.b.op(SOp::FRem, rt, None, &[a, b]);
    }
    if t == Ty::F32 {
        let id = e.b.id();
        math(e, MathFn::Fmod, t, id, &[a, b])?;
        return Ok(id);
    }
    let ft = e.ty(Ty::F32);
    let mut parts = Vec::new();
    for k in 0..t.components() {
        let x = e.b.op(SOp::CompositeExtract, ft, None, &[a, k])?;
        let y = e.b.op(SOp::CompositeExtract, ft, None, &[b, k])?;
        let id = e.b.id();
        math(e, MathFn::Fmod, Ty::F32, id, &[x, y])?;
        parts.push(id);
    }
    e.b.op(SOp::CompositeConstruct, rt, None, &parts)
}

/// Whether this module computes `mf` itself (the built-in table's word on it).
fn has_own(mf: MathFn, fast_math: bool) -> bool {
    library::of(mf).is_some_and(|row| row.precision.own(fast_math))
}

/// The helper this module has for `mf` of `arity` operands, if its code calls one.
fn existing(e: &Emitter, mf: MathFn, arity: usize) -> Option<Word> {
    e.math_helpers
        .iter()
        .find(|(m, n, _)| *m == mf && *n == arity)
        .map(|&(_, _, h)| h)
}

/// The body of every helper [`math`] called: `f32 name(f32[, f32])`. A helper whose
/// algorithm contains another that the module has anyway calls it rather than repeat it
/// (`atan2` calls `atan`, `acos` calls `asin` on `|x| <= 0.5`, where `asin` is its
/// polynomial exactly), so the results are the same bits either way.
pub(super) fn helper_functions(e: &mut Emitter) -> R<()> {
    let helpers = e.math_helpers.clone();
    for (mf, arity, id) in helpers {
        let ft = e.ty(Ty::F32);
        let params = vec![ft; arity];
        let fty = e.b.type_function(ft, &params);
        e.b.begin_function(ft, id, fty)?;
        e.name(
            id,
            &format!("spirthon_{}", format!("{mf:?}").to_lowercase()),
        );
        let args: Vec<Word> = (0..arity)
            .map(|_| e.b.function_parameter(ft))
            .collect::<R<_>>()?;
        let entry = e.b.id();
        e.b.begin_block(entry)?;
        let r = body(e, mf, &args)?;
        e.b.terminate(SOp::ReturnValue, &[r])?;
        e.b.end_function()?;
    }
    Ok(())
}

/// The computation of `mf` of `args`, in the current block; its result.
fn body(e: &mut Emitter, mf: MathFn, args: &[Word]) -> R<Word> {
    let mut f = F::new(e);
    Ok(match mf {
        MathFn::Asin => asin(&mut f, args[0])?,
        MathFn::Acos => acos(&mut f, args[0])?,
        MathFn::Atan => atan(&mut f, args[0])?,
        MathFn::Atan2 => atan2(&mut f, args[0], args[1])?,
        MathFn::Log => log(&mut f, args[0], Base::E)?,
        MathFn::Log2 => log(&mut f, args[0], Base::Two)?,
        MathFn::Log10 => log(&mut f, args[0], Base::Ten)?,
        MathFn::Exp => exp(&mut f, args[0])?,
        MathFn::Sinh => sinh(&mut f, args[0])?,
        MathFn::Cosh => cosh(&mut f, args[0])?,
        MathFn::Tanh => tanh(&mut f, args[0])?,
        MathFn::Hypot => hypot(&mut f, args[0], args[1])?,
        MathFn::Fmod => fmod(&mut f, args[0], args[1])?,
        MathFn::Pow => pow(&mut f, args[0], args[1])?,
        MathFn::Expm1 => expm1(&mut f, args[0])?,
        MathFn::Log1p => log1p(&mut f, args[0])?,
        MathFn::Cbrt => cbrt(&mut f, args[0])?,
        MathFn::Erf => erf(&mut f, args[0])?,
        MathFn::Erfc => erfc(&mut f, args[0])?,
        other => return Err(super::EmitError(format!("no own {other:?}"))),
    })
}

/// Scalar `f32` arithmetic over the emitter, one instruction per call.
struct F<'e> {
    e: &'e mut Emitter,
    ft: Word,
    bt: Word,
    ut: Word,
}

impl<'e> F<'e> {
    fn new(e: &'e mut Emitter) -> Self {
        let ft = e.ty(Ty::F32);
        let bt = e.ty(Ty::BOOL);
        let ut = e.ty(Ty::U32);
        F { e, ft, bt, ut }
    }

    fn c(&mut self, v: f32) -> Word {
        self.e.konst(Const::f32(v))
    }

    fn cu(&mut self, v: u32) -> Word {
        self.e.konst(Const::U32(v))
    }

    fn ci(&mut self, v: i32) -> Word {
        self.e.konst(Const::I32(v))
    }

    fn op(&mut self, op: SOp, args: &[Word]) -> R<Word> {
        let ft = self.ft;
        self.e.b.op(op, ft, None, args)
    }

    /// A call of the module's helper function `h` (an `f32` result).
    fn call(&mut self, h: Word, args: &[Word]) -> R<Word> {
        let mut operands = smallvec::SmallVec::<[Word; 3]>::new();
        operands.push(h);
        operands.extend_from_slice(args);
        self.op(SOp::FunctionCall, &operands)
    }

    fn mul(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FMul, &[a, b])
    }

    fn add(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FAdd, &[a, b])
    }

    fn sub(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FSub, &[a, b])
    }

    fn div(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FDiv, &[a, b])
    }

    /// `a op b` as a bool (ordered: false when either is NaN).
    fn cmp(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let bt = self.bt;
        self.e.b.op(op, bt, None, &[a, b])
    }

    fn select(&mut self, c: Word, a: Word, b: Word) -> R<Word> {
        self.op(SOp::Select, &[c, a, b])
    }

    fn glsl(&mut self, op: GLOp, a: Word) -> R<Word> {
        let (ft, glsl) = (self.ft, self.e.glsl);
        self.e.b.ext_inst(ft, None, glsl, op as u32, &[a])
    }

    /// A three-operand GLSL.std.450 instruction (`FClamp`).
    fn glsl3(&mut self, op: GLOp, a: Word, b: Word, c: Word) -> R<Word> {
        let (ft, glsl) = (self.ft, self.e.glsl);
        self.e.b.ext_inst(ft, None, glsl, op as u32, &[a, b, c])
    }

    /// `|mag|` with the sign bit of `sign` (C's `copysign`).
    fn copysign(&mut self, mag: Word, sign: Word) -> R<Word> {
        self.copysign_into(mag, sign, None)
    }

    /// [`F::copysign`] into `out` when given.
    fn copysign_into(&mut self, mag: Word, sign: Word, out: Option<Word>) -> R<Word> {
        let ut = self.ut;
        let m = self.e.b.op(SOp::Bitcast, ut, None, &[mag])?;
        let s = self.e.b.op(SOp::Bitcast, ut, None, &[sign])?;
        let (low, high) = (self.cu(0x7fff_ffff), self.cu(0x8000_0000));
        let m = self.e.b.op(SOp::BitwiseAnd, ut, None, &[m, low])?;
        let s = self.e.b.op(SOp::BitwiseAnd, ut, None, &[s, high])?;
        let r = self.e.b.op(SOp::BitwiseOr, ut, None, &[m, s])?;
        let ft = self.ft;
        self.e.b.op(SOp::Bitcast, ft, out, &[r])
    }

    /// `pow(x, 0.5)` into `out`: the device's square root, which is `sqrt` in CPython's
    /// arithmetic as well (both correctly rounded where the device's is), but for C's
    /// `pow(-0.0, 0.5) = +0.0` and `pow(-inf, 0.5) = +inf`. No table and no helper call, so
    /// `r ** 0.5` costs what `math.sqrt(r)` does.
    fn square_root(&mut self, x: Word, out: Word) -> R<Word> {
        let root = self.glsl(GLOp::Sqrt, x)?;
        let root = self.glsl(GLOp::FAbs, root)?;
        let magnitude = self.glsl(GLOp::FAbs, x)?;
        let inf = self.is_inf(x)?;
        let ft = self.ft;
        self.e
            .b
            .op(SOp::Select, ft, Some(out), &[inf, magnitude, root])
    }

    /// Whether `a` is ±infinity, from its bits (WGSL, which `--emit wgsl` writes, has no
    /// `isinf`).
    fn is_inf(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::IEqual, a)
    }

    /// Whether `a` is NaN, from its bits (WGSL has no `isnan` either).
    fn is_nan(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::UGreaterThan, a)
    }

    /// Whether `a` is infinite or NaN, from its bits.
    fn not_finite(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::UGreaterThanEqual, a)
    }

    /// The bits of `|a|` compared (`op`) with those of infinity.
    fn magnitude_vs_inf(&mut self, op: SOp, a: Word) -> R<Word> {
        let (ut, bt) = (self.ut, self.bt);
        let bits = self.e.b.op(SOp::Bitcast, ut, None, &[a])?;
        let low = self.cu(0x7fff_ffff);
        let inf = self.cu(0x7f80_0000);
        let mag = self.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, low])?;
        self.e.b.op(op, bt, None, &[mag, inf])
    }

    /// `2^k` for an `i32` `k` in `[-126, 127]`, from the bits.
    fn pow2(&mut self, k: Word) -> R<Word> {
        let it = self.e.ty(Ty::I32);
        let bias = self.ci(127);
        let c23 = self.ci(23);
        let b = self.e.b.op(SOp::IAdd, it, None, &[k, bias])?;
        let b = self.e.b.op(SOp::ShiftLeftLogical, it, None, &[b, c23])?;
        self.op(SOp::Bitcast, &[b])
    }

    /// `x·2^k` for an `i32` `k` in `[-252, 254]` (C's `ldexp`): as `x·2^(k>>1)·2^(k - (k>>1))`,
    /// each factor a normal float, so that subnormal results and `2^127 ·` overflow round once.
    fn ldexp(&mut self, x: Word, k: Word) -> R<Word> {
        let it = self.e.ty(Ty::I32);
        let one = self.ci(1);
        let k1 = self
            .e
            .b
            .op(SOp::ShiftRightArithmetic, it, None, &[k, one])?;
        let k2 = self.e.b.op(SOp::ISub, it, None, &[k, k1])?;
        let p1 = self.pow2(k1)?;
        let p2 = self.pow2(k2)?;
        let y = self.mul(x, p1)?;
        self.mul(y, p2)
    }

    /// The odd polynomial `x + x³·P(x²)`, `P` by Horner's rule over `coeffs`: the core of
    /// every function here that is odd near 0.
    fn odd(&mut self, x: Word, coeffs: &[f32]) -> R<Word> {
        let z = self.mul(x, x)?;
        let p = self.horner(z, coeffs)?;
        let zx = self.mul(z, x)?;
        let t = self.mul(p, zx)?;
        self.add(t, x)
    }

    /// `coeffs[0] * z^(n-1) + … + coeffs[n-1]`, by Horner's rule.
    fn horner(&mut self, z: Word, coeffs: &[f32]) -> R<Word> {
        let mut acc = self.c(coeffs[0]);
        for &k in &coeffs[1..] {
            let m = self.mul(acc, z)?;
            let k = self.c(k);
            acc = self.add(m, k)?;
        }
        Ok(acc)
    }
}

/// `asin(x)` for `|x| <= 0.5`: `x + x³·P(x²)` (odd, so signed `x` works).
fn asin_small(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn asin(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn reduced(f: &mut F<'_>, a: Word) -> R<Word> {
    let one = f.c(1.0);
    let half = f.c(0.5);
    let d = f.sub(one, a)?;
    let h = f.mul(d, half)?;
    f.glsl(GLOp::Sqrt, h)
}

/// `acos(x)`: `2·asin(s)` above 0.5, `π - 2·asin(s)` below -0.5 (`s = sqrt((1 - |x|) / 2)`),
/// `π/2 - asin(x)` between.
fn acos(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn atan(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn atan2(f: &mut F<'_>, y: Word, x: Word) -> R<Word> {
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

/// Which logarithm [`log`] computes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Base {
    E,
    Two,
    Ten,
}

/// `log(x)` (natural, base 2 or base 10), as Cephes' `logf`, `log2f`, `log10f`: `x = m·2^e`
/// with `m` in `[√½, √2)` (from the bits, subnormals scaled by 2^25 first), a polynomial in
/// `m - 1`, and `e·log(2)` added in two parts. `log(±0)` is `-inf`, a negative `x` NaN,
/// `+inf` and NaN themselves.
fn log(f: &mut F<'_>, x: Word, base: Base) -> R<Word> {
    log_corrected(f, x, base, None)
}

/// [`log`], plus `correction` (far below the result's last place, so added to its low part)
/// for the natural logarithm.
fn log_corrected(f: &mut F<'_>, x: Word, base: Base, correction: Option<Word>) -> R<Word> {
    let (ut, bt) = (f.ut, f.bt);
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
    let r = match base {
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
    };
    // Special operands, from the bits (no infinity constants: naga folds them away).
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
    let _ = bt;
    f.select(is_zero, neg_inf, r)
}

/// `exp(x)`, as Cephes' `expf`: `x = n·log(2) + r` (log(2) in two parts), a polynomial in
/// `r`, times `2^n` built from the bits in two halves (so that `2^128` and subnormal results
/// come out right). `x` is first held in `[-104, 89]`, beyond which the result is 0 or
/// infinity anyway.
fn exp(f: &mut F<'_>, x: Word) -> R<Word> {
    exp_parts(f, x, None, None)
}

/// `exp(x + lo)` for an argument carried in two floats (`lo` far below `x`), as [`exp`] with
/// `lo` added to the reduced argument: as precise as `exp` of a float. Times `factor` when
/// given, multiplied in before the power of two (`2^n·(g + g·(e^r - 1))`), which rounds once
/// where `g · exp(…)` would round twice.
fn exp_parts(f: &mut F<'_>, x: Word, lo: Option<Word>, factor: Option<Word>) -> R<Word> {
    let (n, r) = exp_reduce(f, x, lo)?;
    let z = f.mul(r, r)?;
    let p = f.horner(
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
    let pz = f.mul(p, z)?;
    let pz = f.add(pz, r)?;
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
fn exp_reduce(f: &mut F<'_>, x: Word, lo: Option<Word>) -> R<(Word, Word)> {
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
fn expm1(f: &mut F<'_>, x: Word) -> R<Word> {
    let (n, r) = exp_reduce(f, x, None)?;
    let z = f.mul(r, r)?;
    let q = f.horner(
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
    let qz = f.mul(q, z)?;
    let p = f.add(qz, r)?;
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
fn keep_zero_and_nan(f: &mut F<'_>, x: Word, r: Word) -> R<Word> {
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
fn log1p(f: &mut F<'_>, x: Word) -> R<Word> {
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

/// `cbrt(x)`, the real cube root: `|x|` scaled into a safe range (by `2^24` if subnormal, by
/// `2^-96` above `2^96`, so that `y³` cannot overflow), a first guess from the bits (the
/// exponent divided by 3, as musl's `cbrtf`), two Halley steps `y·(y³ + 2a)/(2y³ + a)`, a
/// last Newton step `y - (y³ - a)/(3y²)` whose correction is small (so its rounding is), and
/// the scale undone. At most 1 ULP on a sweep; `±0`, `±inf` and NaN are themselves.
fn cbrt(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let tiny = f.c(1.175_494_4e-38);
    let sub = f.cmp(SOp::FOrdLessThan, a, tiny)?;
    let huge_at = f.c(7.922_816_3e28);
    let huge = f.cmp(SOp::FOrdGreaterThan, a, huge_at)?;
    let (up, down) = (f.c(16_777_216.0), f.c(1.262_177_4e-29));
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
    let (back_up, back_down) = (f.c(0.003_906_25), f.c(4_294_967_296.0));
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
const ERF_NEAR: f32 = 0.9;
/// Where `erfc`'s `1 - erf(x)` gives way to `exp(-x²)·g(|x|)` (`erf(0.47) < 0.5`, so the
/// subtraction loses nothing).
const ERFC_NEAR: f32 = 0.47;
/// Beyond this `erfc(x)` is below half the least subnormal: 0 (and `erf(x)` is ±1).
const ERFC_FAR: f32 = 10.1;

/// `erf(x)/x` as a polynomial in `x²` on `|x| <= ERF_NEAR` (fitted to the least relative
/// error; Horner's rule from the highest power).
const ERF_SMALL: [f32; 8] = [
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
const ERFC_PIECES: [(f32, f32, [f32; 10]); 5] = [
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
fn erf_near(f: &mut F<'_>, x: Word) -> R<Word> {
    let z = f.mul(x, x)?;
    let p = f.horner(z, &ERF_SMALL)?;
    f.mul(x, p)
}

/// `erfc(a)` for `a` in `[ERFC_NEAR, ERFC_FAR]`: `e^(-a²)·g(a)`, the piece of `g` chosen by
/// selecting its coefficients (one polynomial evaluated, not five), and `e^(-a²)` from `a`
/// cut to 12 significant bits, `h`: `-a² = -h² - (a - h)(a + h)`, the first term exact, the
/// second far smaller, so [`exp_parts`] of the two is as precise as `exp` of a float (a
/// rounded `a²` would cost up to 32 ULP at `a = 9`).
fn erfc_far(f: &mut F<'_>, a: Word) -> R<Word> {
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
    let ut = f.ut;
    let bits = f.e.b.op(SOp::Bitcast, ut, None, &[a])?;
    let mask = f.cu(0xffff_f000);
    let hbits = f.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, mask])?;
    let h = f.op(SOp::Bitcast, &[hbits])?;
    let hh = f.mul(h, h)?;
    let hi = f.op(SOp::FNegate, &[hh])?;
    let diff = f.sub(a, h)?;
    let sum = f.add(a, h)?;
    let prod = f.mul(diff, sum)?;
    let lo = f.op(SOp::FNegate, &[prod])?;
    exp_parts(f, hi, Some(lo), Some(g))
}

/// `|x|` held in `[ERFC_NEAR, ERFC_FAR]` (a NaN stays NaN), for [`erfc_far`].
fn erfc_argument(f: &mut F<'_>, a: Word) -> R<Word> {
    let (near, far) = (f.c(ERFC_NEAR), f.c(ERFC_FAR));
    let low = f.cmp(SOp::FOrdLessThan, a, near)?;
    let high = f.cmp(SOp::FOrdGreaterThan, a, far)?;
    let held = f.select(low, near, a)?;
    f.select(high, far, held)
}

/// `erf(x)`: `x·P(x²)` to `|x| = 0.9`, `±(1 - erfc(|x|))` beyond (where `erfc` is below
/// 0.21, so its error shrinks in the subtraction). At most 2 ULP on a sweep; `±0` are
/// themselves, `±inf` give `±1`.
fn erf(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn erfc(f: &mut F<'_>, x: Word) -> R<Word> {
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

/// `e^a / 2` for `a >= 0`, also where `e^a` itself overflows: `(e^(a/2) / 2) · e^(a/2)`
/// above 80.
fn half_exp(f: &mut F<'_>, a: Word) -> R<Word> {
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
fn cosh(f: &mut F<'_>, x: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let h = half_exp(f, a)?;
    let quarter = f.c(0.25);
    let inv = f.div(quarter, h)?;
    f.add(h, inv)
}

/// `sinh(x)`: `(e^|x| - e^-|x|) / 2` above 1, an odd polynomial below (Cephes' `sinhf`).
fn sinh(f: &mut F<'_>, x: Word) -> R<Word> {
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
fn tanh(f: &mut F<'_>, x: Word) -> R<Word> {
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

/// `hypot(x, y)`: `sqrt(x² + y²)` where the squares neither overflow nor underflow, else
/// `big · sqrt(1 + (small / big)²)`; an infinite operand gives infinity, as in C.
fn hypot(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
    let a = f.glsl(GLOp::FAbs, x)?;
    let b = f.glsl(GLOp::FAbs, y)?;
    let xx = f.mul(x, x)?;
    let yy = f.mul(y, y)?;
    let s = f.add(xx, yy)?;
    let plain = f.glsl(GLOp::Sqrt, s)?;
    let a_big = f.cmp(SOp::FOrdGreaterThan, a, b)?;
    let big = f.select(a_big, a, b)?;
    let small = f.select(a_big, b, a)?;
    let q = f.div(small, big)?;
    let qq = f.mul(q, q)?;
    let one = f.c(1.0);
    let t = f.add(qq, one)?;
    let t = f.glsl(GLOp::Sqrt, t)?;
    let scaled = f.mul(big, t)?;
    let (hi, lo) = (f.c(1.0e18), f.c(1.0e-18));
    let too_big = f.cmp(SOp::FOrdGreaterThan, big, hi)?;
    let too_small = f.cmp(SOp::FOrdLessThan, big, lo)?;
    let bt = f.bt;
    let outside = f.e.b.op(SOp::LogicalOr, bt, None, &[too_big, too_small])?;
    let zero = f.c(0.0);
    let nonzero = f.cmp(SOp::FOrdGreaterThan, big, zero)?;
    let rescale = f.e.b.op(SOp::LogicalAnd, bt, None, &[outside, nonzero])?;
    let r = f.select(rescale, scaled, plain)?;
    let a_inf = f.is_inf(x)?;
    let b_inf = f.is_inf(y)?;
    let r = f.select(b_inf, b, r)?;
    f.select(a_inf, a, r)
}

/// `fmod(x, y)`, exact (the result is always representable), from the bits: with `x` and `y`
/// as `mx·2^ex` and `my·2^ey` (24-bit integer significands), `|fmod(x, y)|` is
/// `(mx·2^(ex-ey) mod my)·2^ey`, and the residue is built eight bits of the exponent gap at a
/// time, `r = (r << s) mod my` with `r < 2^24` so that `r << 8` fits 32 bits (as musl's
/// `fmodf` does a bit at a time), in a loop of `ceil(gap / 8)` trips (at most 32: the gap is
/// at most 253). The result has `x`'s sign; `y = 0`, an infinite `x` or
/// a NaN give NaN; `|x| < |y|` gives `x`.
fn fmod(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
    let (ut, it, bt) = (f.ut, f.e.ty(Ty::I32), f.bt);
    let xb = f.e.b.op(SOp::Bitcast, ut, None, &[x])?;
    let yb = f.e.b.op(SOp::Bitcast, ut, None, &[y])?;
    let low = f.cu(0x7fff_ffff);
    let ax = f.e.b.op(SOp::BitwiseAnd, ut, None, &[xb, low])?;
    let ay = f.e.b.op(SOp::BitwiseAnd, ut, None, &[yb, low])?;
    // Significand and exponent of each (a subnormal's exponent field is 0, its scale 1's).
    let parts = |f: &mut F<'_>, a: Word| -> R<(Word, Word)> {
        let c23 = f.cu(23);
        let e = f.e.b.op(SOp::ShiftRightLogical, ut, None, &[a, c23])?;
        let frac_mask = f.cu(0x007f_ffff);
        let frac = f.e.b.op(SOp::BitwiseAnd, ut, None, &[a, frac_mask])?;
        let zero = f.cu(0);
        let normal = f.e.b.op(SOp::INotEqual, bt, None, &[e, zero])?;
        let (hidden, none) = (f.cu(0x0080_0000), f.cu(0));
        let h = f.e.b.op(SOp::Select, ut, None, &[normal, hidden, none])?;
        let m = f.e.b.op(SOp::BitwiseOr, ut, None, &[frac, h])?;
        let one = f.cu(1);
        let e = f.e.b.op(SOp::Select, ut, None, &[normal, e, one])?;
        let e = f.e.b.op(SOp::Bitcast, it, None, &[e])?;
        Ok((m, e))
    };
    let (mx, ex) = parts(f, ax)?;
    let (my, ey) = parts(f, ay)?;
    // A zero `my` (y = 0, the NaN case below) must not reach `OpUMod`.
    let (zero, one) = (f.cu(0), f.cu(1));
    let my_zero = f.e.b.op(SOp::IEqual, bt, None, &[my, zero])?;
    let my = f.e.b.op(SOp::Select, ut, None, &[my_zero, one, my])?;
    let gap = f.e.b.op(SOp::ISub, it, None, &[ex, ey])?;
    let r0 = f.e.b.op(SOp::UMod, ut, None, &[mx, my])?;
    let r = residue_loop(f, gap, r0, my)?;
    // `r·2^(ey - 150)`.
    let rf = f.op(SOp::ConvertUToF, &[r])?;
    let bias = f.ci(150);
    let k = f.e.b.op(SOp::ISub, it, None, &[ey, bias])?;
    let m = f.ldexp(rf, k)?;
    let m = f.copysign(m, x)?;
    // `|x| < |y|` (an infinite `y` included): `x`. Then the NaN cases.
    let smaller = f.e.b.op(SOp::ULessThan, bt, None, &[ax, ay])?;
    let m = f.select(smaller, x, m)?;
    let inf = f.cu(0x7f80_0000);
    let x_bad = f.e.b.op(SOp::UGreaterThanEqual, bt, None, &[ax, inf])?;
    let y_nan = f.e.b.op(SOp::UGreaterThan, bt, None, &[ay, inf])?;
    let y_zero = f.e.b.op(SOp::IEqual, bt, None, &[ay, zero])?;
    let bad = f.e.b.op(SOp::LogicalOr, bt, None, &[x_bad, y_nan])?;
    let bad = f.e.b.op(SOp::LogicalOr, bt, None, &[bad, y_zero])?;
    let nan_bits = f.cu(0x7fc0_0000);
    let nan = f.op(SOp::Bitcast, &[nan_bits])?;
    f.select(bad, nan, m)
}

/// `r = (r << s) mod my` for `s` = 8, 8, …, then what is left of `gap` (none when `gap <= 0`):
/// a loop of `ceil(gap / 8)` trips, so a quotient below `2^24` (the common case) costs three.
/// It ends the current block and leaves the loop's merge block open.
fn residue_loop(f: &mut F<'_>, gap: Word, r0: Word, my: Word) -> R<Word> {
    let (ut, it, bt) = (f.ut, f.e.ty(Ty::I32), f.bt);
    let glsl = f.e.glsl;
    let (zero, seven, three, eight) = (f.ci(0), f.ci(7), f.ci(3), f.ci(8));
    let pos =
        f.e.b
            .ext_inst(it, None, glsl, GLOp::SMax as u32, &[gap, zero])?;
    let rounded = f.e.b.op(SOp::IAdd, it, None, &[pos, seven])?;
    let trips =
        f.e.b
            .op(SOp::ShiftRightArithmetic, it, None, &[rounded, three])?;
    let (pre, header, body, cont, merge) =
        (f.e.b.id(), f.e.b.id(), f.e.b.id(), f.e.b.id(), f.e.b.id());
    f.e.b.terminate(SOp::Branch, &[pre])?;
    f.e.b.begin_block(pre)?;
    f.e.b.terminate(SOp::Branch, &[header])?;
    // header: r, k = phi; loop while k < trips.
    let (r, k, r_next, k_next) = (f.e.b.id(), f.e.b.id(), f.e.b.id(), f.e.b.id());
    f.e.b.begin_block(header)?;
    f.e.b.phi(ut, r, &[(r0, pre), (r_next, cont)])?;
    f.e.b.phi(it, k, &[(zero, pre), (k_next, cont)])?;
    let go = f.e.b.op(SOp::SLessThan, bt, None, &[k, trips])?;
    // LoopControl::NONE.
    f.e.b.void(SOp::LoopMerge, &[merge, cont, 0])?;
    f.e.b
        .terminate(SOp::BranchConditional, &[go, body, merge])?;
    f.e.b.begin_block(body)?;
    let done = f.e.b.op(SOp::IMul, it, None, &[k, eight])?;
    let left = f.e.b.op(SOp::ISub, it, None, &[gap, done])?;
    let s =
        f.e.b
            .ext_inst(it, None, glsl, GLOp::SMin as u32, &[left, eight])?;
    let s = f.e.b.op(SOp::Bitcast, ut, None, &[s])?;
    let shifted = f.e.b.op(SOp::ShiftLeftLogical, ut, None, &[r, s])?;
    f.e.b.op(SOp::UMod, ut, Some(r_next), &[shifted, my])?;
    let one = f.ci(1);
    f.e.b.op(SOp::IAdd, it, Some(k_next), &[k, one])?;
    f.e.b.terminate(SOp::Branch, &[cont])?;
    f.e.b.begin_block(cont)?;
    f.e.b.terminate(SOp::Branch, &[header])?;
    f.e.b.begin_block(merge)?;
    Ok(r)
}

/// The entries of `pow`'s table: `c_k = 0.75 + k/128` for `k < 96` (so `m` in
/// `[0.75, 1.5)` is `c_k + r` with `0 <= r < 1/128`, the subtraction exact).
const POW_STEPS: u32 = 96;

/// The values of `pow`'s table, computed once per process.
fn pow_table_values() -> &'static [f32] {
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
fn pow_table(f: &mut F<'_>) -> Word {
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
fn pow(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
    let (ut, it, bt, ft) = (f.ut, f.e.ty(Ty::I32), f.bt, f.ft);
    let glsl = f.e.glsl;
    let ax = f.glsl(GLOp::FAbs, x)?;
    // `|x| = m·2^e` with `m` in `[0.75, 1.5)`; a subnormal scaled by 2^24 first.
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
    let yb = f.e.b.op(SOp::Bitcast, ut, None, &[y])?;
    let high_mask = f.cu(0xffff_f000);
    let yhb = f.e.b.op(SOp::BitwiseAnd, ut, None, &[yb, high_mask])?;
    let yh = f.op(SOp::Bitcast, &[yhb])?;
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
    // 2^fraction (Cephes' exp2f), then the power of two in two halves.
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
    let mag = f.ldexp(mant, n)?;
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

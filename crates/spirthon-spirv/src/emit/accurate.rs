//! `math` functions computed in single precision by the module itself, where GLSL.std.450's
//! are allowed to be loose: Vulkan bounds `Asin`, `Acos` and `Atan` only by an absolute
//! error (lavapipe is thousands of ULP off near ±1), while CUDA's libdevice, which Warp and
//! Numba users know, stays within a few ULP.
//!
//! Each is straight-line code (the branches of the algorithm become `OpSelect`s over both
//! sides), so no structure is added: range reduction, then a minimax polynomial, as in
//! Cephes' single-precision library (S. L. Moshier, *Methods and Programs for Mathematical
//! Functions*, 1989: `asinf.c`, `atanf.c`), which stays within 2 ULP of the correctly
//! rounded result on its range. `--fast-math` keeps the GLSL.std.450 instructions.
//!
//! Invariants: operands and results are scalar `f32`; a NaN operand gives NaN; the sign of
//! zero follows C's (`atan(-0.0)` is `-0.0`, `atan2(±0, -0)` is `±π`).

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::cfg::MathFn;
use spirthon_ir::{Const, Ty};

use super::{Emitter, R};

const PI: f32 = core::f32::consts::PI;
const PI_2: f32 = core::f32::consts::FRAC_PI_2;
const PI_4: f32 = core::f32::consts::FRAC_PI_4;

/// Emits `mf` of `args` into `id` when this module has its own version of it for `t`;
/// `false` when GLSL.std.450's is used.
pub(super) fn math(e: &mut Emitter, mf: MathFn, t: Ty, id: Word, args: &[Word]) -> R<bool> {
    if t != Ty::F32 {
        return Ok(false);
    }
    let mut f = F::new(e);
    let r = match mf {
        MathFn::Asin => asin(&mut f, args[0])?,
        MathFn::Acos => acos(&mut f, args[0])?,
        MathFn::Atan => atan(&mut f, args[0])?,
        MathFn::Atan2 => atan2(&mut f, args[0], args[1])?,
        _ => return Ok(false),
    };
    let ft = f.ft;
    e.b.op(SOp::CopyObject, ft, Some(id), &[r])?;
    Ok(true)
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

    fn op(&mut self, op: SOp, args: &[Word]) -> R<Word> {
        let ft = self.ft;
        self.e.b.op(op, ft, None, args)
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

    /// `|mag|` with the sign bit of `sign` (C's `copysign`).
    fn copysign(&mut self, mag: Word, sign: Word) -> R<Word> {
        let ut = self.ut;
        let m = self.e.b.op(SOp::Bitcast, ut, None, &[mag])?;
        let s = self.e.b.op(SOp::Bitcast, ut, None, &[sign])?;
        let (low, high) = (
            self.e.konst(Const::U32(0x7fff_ffff)),
            self.e.konst(Const::U32(0x8000_0000)),
        );
        let m = self.e.b.op(SOp::BitwiseAnd, ut, None, &[m, low])?;
        let s = self.e.b.op(SOp::BitwiseAnd, ut, None, &[s, high])?;
        let r = self.e.b.op(SOp::BitwiseOr, ut, None, &[m, s])?;
        self.op(SOp::Bitcast, &[r])
    }

    /// Whether `a` is ±infinity, from its bits (WGSL, which `--emit wgsl` writes, has no
    /// `isinf`).
    fn is_inf(&mut self, a: Word) -> R<Word> {
        let (ut, bt) = (self.ut, self.bt);
        let bits = self.e.b.op(SOp::Bitcast, ut, None, &[a])?;
        let low = self.e.konst(Const::U32(0x7fff_ffff));
        let inf = self.e.konst(Const::U32(0x7f80_0000));
        let mag = self.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, low])?;
        self.e.b.op(SOp::IEqual, bt, None, &[mag, inf])
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
    let z = f.mul(x, x)?;
    let p = f.horner(
        z,
        &[
            4.216_32e-2,
            2.418_131_2e-2,
            4.547_002_6e-2,
            7.495_300_3e-2,
            1.666_675_2e-1,
        ],
    )?;
    let zx = f.mul(z, x)?;
    let t = f.mul(p, zx)?;
    f.add(t, x)
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
    let p = asin_small(f, arg)?;
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
    let z = f.mul(xr, xr)?;
    let p = f.horner(
        z,
        &[
            8.053_744_5e-2,
            -1.387_768_6e-1,
            1.997_771_1e-1,
            -3.333_295e-1,
        ],
    )?;
    let zx = f.mul(z, xr)?;
    let q = f.mul(p, zx)?;
    let q = f.add(q, xr)?;
    let r = f.add(y0, q)?;
    f.copysign(r, x)
}

/// `atan2(y, x)` as C defines it: `atan(y / x)`, plus `±π` (the sign of `y`) when `x` is
/// negative; `y` and `x` both zero give `±0` or `±π`, both infinite `±π/4` or `±3π/4`.
fn atan2(f: &mut F<'_>, y: Word, x: Word) -> R<Word> {
    let q = f.div(y, x)?;
    let base = atan(f, q)?;
    let ut = f.ut;
    let xb = f.e.b.op(SOp::Bitcast, ut, None, &[x])?;
    let high = f.e.konst(Const::U32(0x8000_0000));
    let xs = f.e.b.op(SOp::BitwiseAnd, ut, None, &[xb, high])?;
    let bt = f.bt;
    let no_sign = f.e.konst(Const::U32(0));
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

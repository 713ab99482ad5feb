//! The builder the module's own math functions are written with: scalar `f32` arithmetic
//! over the emitter, one instruction per call, and the pieces several functions share (bit
//! tests for infinities and NaN, `ldexp` from the bits, Horner's rule, odd polynomials).

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::{Const, Ty};

use crate::emit::{Emitter, R};

/// Scalar `f32` arithmetic over the emitter, one instruction per call.
pub(super) struct F<'e> {
    pub(super) e: &'e mut Emitter,
    pub(super) ft: Word,
    pub(super) bt: Word,
    pub(super) ut: Word,
}

impl<'e> F<'e> {
    pub(super) fn new(e: &'e mut Emitter) -> Self {
        let ft = e.ty(Ty::F32);
        let bt = e.ty(Ty::BOOL);
        let ut = e.ty(Ty::U32);
        F { e, ft, bt, ut }
    }

    pub(super) fn c(&mut self, v: f32) -> Word {
        self.e.konst(Const::f32(v))
    }

    pub(super) fn cu(&mut self, v: u32) -> Word {
        self.e.konst(Const::U32(v))
    }

    pub(super) fn ci(&mut self, v: i32) -> Word {
        self.e.konst(Const::I32(v))
    }

    pub(super) fn op(&mut self, op: SOp, args: &[Word]) -> R<Word> {
        let ft = self.ft;
        self.e.b.op(op, ft, None, args)
    }

    /// A call of the module's helper function `h` (an `f32` result).
    pub(super) fn call(&mut self, h: Word, args: &[Word]) -> R<Word> {
        let mut operands = smallvec::SmallVec::<[Word; 3]>::new();
        operands.push(h);
        operands.extend_from_slice(args);
        self.op(SOp::FunctionCall, &operands)
    }

    pub(super) fn mul(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FMul, &[a, b])
    }

    pub(super) fn add(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FAdd, &[a, b])
    }

    pub(super) fn sub(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FSub, &[a, b])
    }

    pub(super) fn div(&mut self, a: Word, b: Word) -> R<Word> {
        self.op(SOp::FDiv, &[a, b])
    }

    /// `a op b` as a bool (ordered: false when either is NaN).
    pub(super) fn cmp(&mut self, op: SOp, a: Word, b: Word) -> R<Word> {
        let bt = self.bt;
        self.e.b.op(op, bt, None, &[a, b])
    }

    pub(super) fn select(&mut self, c: Word, a: Word, b: Word) -> R<Word> {
        self.op(SOp::Select, &[c, a, b])
    }

    pub(super) fn glsl(&mut self, op: GLOp, a: Word) -> R<Word> {
        let (ft, glsl) = (self.ft, self.e.glsl);
        self.e.b.ext_inst(ft, None, glsl, op as u32, &[a])
    }

    /// A three-operand GLSL.std.450 instruction (`FClamp`).
    pub(super) fn glsl3(&mut self, op: GLOp, a: Word, b: Word, c: Word) -> R<Word> {
        let (ft, glsl) = (self.ft, self.e.glsl);
        self.e.b.ext_inst(ft, None, glsl, op as u32, &[a, b, c])
    }

    /// `|mag|` with the sign bit of `sign` (C's `copysign`).
    pub(super) fn copysign(&mut self, mag: Word, sign: Word) -> R<Word> {
        self.copysign_into(mag, sign, None)
    }

    /// [`F::copysign`] into `out` when given.
    pub(super) fn copysign_into(&mut self, mag: Word, sign: Word, out: Option<Word>) -> R<Word> {
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
    pub(super) fn square_root(&mut self, x: Word, out: Word) -> R<Word> {
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
    pub(super) fn is_inf(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::IEqual, a)
    }

    /// Whether `a` is NaN, from its bits (WGSL has no `isnan` either).
    pub(super) fn is_nan(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::UGreaterThan, a)
    }

    /// Whether `a` is infinite or NaN, from its bits.
    pub(super) fn not_finite(&mut self, a: Word) -> R<Word> {
        self.magnitude_vs_inf(SOp::UGreaterThanEqual, a)
    }

    /// The bits of `|a|` compared (`op`) with those of infinity.
    pub(super) fn magnitude_vs_inf(&mut self, op: SOp, a: Word) -> R<Word> {
        let (ut, bt) = (self.ut, self.bt);
        let bits = self.e.b.op(SOp::Bitcast, ut, None, &[a])?;
        let low = self.cu(0x7fff_ffff);
        let inf = self.cu(0x7f80_0000);
        let mag = self.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, low])?;
        self.e.b.op(op, bt, None, &[mag, inf])
    }

    /// `2^k` for an `i32` `k` in `[-126, 127]`, from the bits.
    pub(super) fn pow2(&mut self, k: Word) -> R<Word> {
        let it = self.e.ty(Ty::I32);
        let bias = self.ci(127);
        let c23 = self.ci(23);
        let b = self.e.b.op(SOp::IAdd, it, None, &[k, bias])?;
        let b = self.e.b.op(SOp::ShiftLeftLogical, it, None, &[b, c23])?;
        self.op(SOp::Bitcast, &[b])
    }

    /// `x·2^k` for an `i32` `k` in `[-252, 254]` (C's `ldexp`): as `x·2^(k>>1)·2^(k - (k>>1))`,
    /// each factor a normal float, so that subnormal results and `2^127 ·` overflow round once.
    pub(super) fn ldexp(&mut self, x: Word, k: Word) -> R<Word> {
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
    pub(super) fn odd(&mut self, x: Word, coeffs: &[f32]) -> R<Word> {
        let z = self.mul(x, x)?;
        let p = self.horner(z, coeffs)?;
        let zx = self.mul(z, x)?;
        let t = self.mul(p, zx)?;
        self.add(t, x)
    }

    /// `r + r²·P(r)`, `P` by Horner's rule over `coeffs`: `e^r - 1` on a reduced argument
    /// (`exp` and `expm1` with their coefficients).
    pub(super) fn expm1_series(&mut self, r: Word, coeffs: &[f32]) -> R<Word> {
        let z = self.mul(r, r)?;
        let p = self.horner(r, coeffs)?;
        let pz = self.mul(p, z)?;
        self.add(pz, r)
    }

    /// `x` cut to its 12 most significant bits (the low 12 bits of the significand cleared),
    /// so that products of two such are exact in `f32`.
    pub(super) fn high_bits(&mut self, x: Word) -> R<Word> {
        let ut = self.ut;
        let bits = self.e.b.op(SOp::Bitcast, ut, None, &[x])?;
        let mask = self.cu(0xffff_f000);
        let high = self.e.b.op(SOp::BitwiseAnd, ut, None, &[bits, mask])?;
        self.op(SOp::Bitcast, &[high])
    }

    /// `coeffs[0] * z^(n-1) + … + coeffs[n-1]`, by Horner's rule.
    pub(super) fn horner(&mut self, z: Word, coeffs: &[f32]) -> R<Word> {
        let mut acc = self.c(coeffs[0]);
        for &k in &coeffs[1..] {
            let m = self.mul(acc, z)?;
            let k = self.c(k);
            acc = self.add(m, k)?;
        }
        Ok(acc)
    }
}

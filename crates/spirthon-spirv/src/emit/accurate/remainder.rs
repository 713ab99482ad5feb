//! `hypot` without overflow, and `fmod` exact from the bits (the float `%` and `//` are built
//! on it).

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::Ty;

use super::f::F;
use crate::emit::R;

/// `hypot(x, y)`: `sqrt(x² + y²)` where the squares neither overflow nor underflow, else
/// `big · sqrt(1 + (small / big)²)`; an infinite operand gives infinity, as in C. The plain
/// form is taken only for `big >= 2^-50`: a `small²` below the normal range (`2^-126`) is
/// then less than `2^-25` of `big²`, so a device that flushes subnormals to zero (NVIDIA's,
/// for `f32`) loses nothing that counts; below it, the scaled form squares only a ratio.
pub(super) fn hypot(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
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
    let (hi, lo) = (f.c(1.0e18), f.c(8.881_784e-16));
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
pub(super) fn fmod(f: &mut F<'_>, x: Word, y: Word) -> R<Word> {
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
pub(super) fn residue_loop(f: &mut F<'_>, gap: Word, r0: Word, my: Word) -> R<Word> {
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

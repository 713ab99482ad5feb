//! `fmod` of `f64`s, exact, without the bits (reading an `f64`'s bits needs 64-bit ints,
//! `shaderInt64`, which the module does not otherwise ask for): long division in floating
//! point, one bit of the quotient a trip, as the schoolbook algorithm (and musl's `fmod`,
//! which does it on the significands) does.
//!
//! With `a = |x|` and `b = |y|`: `t` doubles from `b` while `t + t <= a` (each doubling is
//! exact; an overflow gives infinity, which stops it), then halves back down to `b`,
//! subtracting `t` from the remainder `r` (from `a`) wherever `t <= r`. Then `r < 2t`, so
//! `r - t` is exact (Sterbenz's lemma), and each halving undoes a doubling exactly. Each loop
//! runs at most 2,098 trips (the exponent range of `f64`), a handful for the quotients
//! kernels meet. The result has `x`'s sign; `y = 0`, a non-finite `x` or a NaN give NaN;
//! `|x| < |y|` (an infinite `y` included) gives `x`.
//!
//! Invariant: the helper is a function of its own (two loops), so callers keep their
//! structured control flow.

use rspirv::spirv::{GlslStd450Op as GLOp, Op as SOp, Word};
use spirthon_ir::{Const, Ty};

use crate::emit::{Emitter, R};

/// The body of `f64 spirthon_fmod64(f64 x, f64 y)`, in the current block; its result.
pub(super) fn fmod64(e: &mut Emitter, x: Word, y: Word) -> R<Word> {
    let (dt, bt) = (e.ty(Ty::F64), e.ty(Ty::BOOL));
    let glsl = e.glsl;
    let a = e.b.ext_inst(dt, None, glsl, GLOp::FAbs as u32, &[x])?;
    let b = e.b.ext_inst(dt, None, glsl, GLOp::FAbs as u32, &[y])?;
    let (zero, one, max) = (
        e.konst(Const::f64(0.0)),
        e.konst(Const::f64(1.0)),
        e.konst(Const::f64(f64::MAX)),
    );
    // False for a NaN as for an infinity or a zero.
    let x_finite = e.b.op(SOp::FOrdLessThanEqual, bt, None, &[a, max])?;
    let y_positive = e.b.op(SOp::FOrdGreaterThan, bt, None, &[b, zero])?;
    let smaller = e.b.op(SOp::FOrdLessThan, bt, None, &[a, b])?;
    let bad = e.b.op(SOp::LogicalAnd, bt, None, &[x_finite, y_positive])?;
    let bad = e.b.op(SOp::LogicalNot, bt, None, &[bad])?;
    // The loops run on `a` and `b` only where they divide; elsewhere on 0 and 1, which end
    // them at once.
    let skip = e.b.op(SOp::LogicalOr, bt, None, &[bad, smaller])?;
    let a = e.b.op(SOp::Select, dt, None, &[skip, zero, a])?;
    let b = e.b.op(SOp::Select, dt, None, &[skip, one, b])?;
    let top = doubled(e, a, b)?;
    let r = subtracted(e, a, b, top)?;
    let negative = e.b.op(SOp::FOrdLessThan, bt, None, &[x, zero])?;
    let minus_r = e.b.op(SOp::FNegate, dt, None, &[r])?;
    let m = e.b.op(SOp::Select, dt, None, &[negative, minus_r, r])?;
    let m = e.b.op(SOp::Select, dt, None, &[smaller, x, m])?;
    // NaN from float32's (naga takes no non-finite constant).
    let ft = e.ty(Ty::F32);
    let nan_bits = e.konst(Const::U32(0x7fc0_0000));
    let nan = e.b.op(SOp::Bitcast, ft, None, &[nan_bits])?;
    let nan = e.b.op(SOp::FConvert, dt, None, &[nan])?;
    e.b.op(SOp::Select, dt, None, &[bad, nan, m])
}

/// The largest `b·2^k` with `b·2^k <= a` (`b` itself when `2b > a`).
fn doubled(e: &mut Emitter, a: Word, b: Word) -> R<Word> {
    let (dt, bt) = (e.ty(Ty::F64), e.ty(Ty::BOOL));
    let (pre, header, body, cont, merge) = labels(e);
    e.b.terminate(SOp::Branch, &[pre])?;
    e.b.begin_block(pre)?;
    e.b.terminate(SOp::Branch, &[header])?;
    let (t, t_next) = (e.b.id(), e.b.id());
    e.b.begin_block(header)?;
    e.b.phi(dt, t, &[(b, pre), (t_next, cont)])?;
    let twice = e.b.op(SOp::FAdd, dt, None, &[t, t])?;
    let go = e.b.op(SOp::FOrdLessThanEqual, bt, None, &[twice, a])?;
    e.b.void(SOp::LoopMerge, &[merge, cont, 0])?;
    e.b.terminate(SOp::BranchConditional, &[go, body, merge])?;
    e.b.begin_block(body)?;
    e.b.op(SOp::FAdd, dt, Some(t_next), &[t, t])?;
    e.b.terminate(SOp::Branch, &[cont])?;
    e.b.begin_block(cont)?;
    e.b.terminate(SOp::Branch, &[header])?;
    e.b.begin_block(merge)?;
    Ok(t)
}

/// `a mod b`: from `t = top` down to `b`, halving, `t` taken from the remainder where it
/// fits.
fn subtracted(e: &mut Emitter, a: Word, b: Word, top: Word) -> R<Word> {
    let (dt, bt) = (e.ty(Ty::F64), e.ty(Ty::BOOL));
    let half = e.konst(Const::f64(0.5));
    let (pre, header, body, cont, merge) = labels(e);
    e.b.terminate(SOp::Branch, &[pre])?;
    e.b.begin_block(pre)?;
    e.b.terminate(SOp::Branch, &[header])?;
    let (t, r, t_next, r_next) = (e.b.id(), e.b.id(), e.b.id(), e.b.id());
    e.b.begin_block(header)?;
    e.b.phi(dt, t, &[(top, pre), (t_next, cont)])?;
    e.b.phi(dt, r, &[(a, pre), (r_next, cont)])?;
    let go = e.b.op(SOp::FOrdGreaterThanEqual, bt, None, &[t, b])?;
    e.b.void(SOp::LoopMerge, &[merge, cont, 0])?;
    e.b.terminate(SOp::BranchConditional, &[go, body, merge])?;
    e.b.begin_block(body)?;
    let fits = e.b.op(SOp::FOrdGreaterThanEqual, bt, None, &[r, t])?;
    let less = e.b.op(SOp::FSub, dt, None, &[r, t])?;
    e.b.op(SOp::Select, dt, Some(r_next), &[fits, less, r])?;
    e.b.op(SOp::FMul, dt, Some(t_next), &[t, half])?;
    e.b.terminate(SOp::Branch, &[cont])?;
    e.b.begin_block(cont)?;
    e.b.terminate(SOp::Branch, &[header])?;
    e.b.begin_block(merge)?;
    Ok(r)
}

/// Fresh labels for a loop: pre-header, header, body, continue target, merge.
fn labels(e: &mut Emitter) -> (Word, Word, Word, Word, Word) {
    (e.b.id(), e.b.id(), e.b.id(), e.b.id(), e.b.id())
}

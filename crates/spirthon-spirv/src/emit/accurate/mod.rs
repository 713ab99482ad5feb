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

//!
//! The functions live by family: [`trig`], [`exp_log`], [`special`], [`remainder`], [`pow`],
//! all written with the builder [`f::F`].

mod double;
mod exp_log;
mod f;
mod fmod64;
mod pow;
mod remainder;
mod special;
mod trig;

use rspirv::spirv::{Op as SOp, Word};
use spirthon_ir::cfg::MathFn;
use spirthon_ir::library;
use spirthon_ir::{Const, Ty};

use super::{Emitter, R};
use exp_log::{cosh, exp, expm1, log, log1p, sinh, tanh, Base};
use f::F;
use pow::pow;
use remainder::{fmod, hypot};
use special::{cbrt, erf, erfc};
use trig::{acos, asin, atan, atan2};

/// Emits `mf` of `args` into `id` when this module computes it itself for `t` (the built-in
/// table's [`Precision`](library::Precision) of it, under this module's `--fast-math`), as a call of its helper
/// function (emitted once, by [`helper_functions`]); `false` when the device's is used.
pub(super) fn math(e: &mut Emitter, mf: MathFn, t: Ty, id: Word, args: &[Word]) -> R<bool> {
    if t == Ty::F64 && mf == MathFn::Fmod {
        let dt = e.ty(Ty::F64);
        fmod64_call(e, dt, Some(id), args[0], args[1])?;
        return Ok(true);
    }
    if t == Ty::F64 && double::has(mf) {
        let helper = match e.math64_helpers.iter().find(|(m, _, _)| *m == mf) {
            Some(&(_, _, h)) => h,
            None => {
                let h = e.b.id();
                e.math64_helpers.push((mf, args.len(), h));
                h
            }
        };
        let dt = e.ty(Ty::F64);
        let mut operands = vec![helper];
        operands.extend_from_slice(args);
        e.b.op(SOp::FunctionCall, dt, Some(id), &operands)?;
        return Ok(true);
    }
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

/// `math.copysign(mag, sign)` of `f32`s or `f64`s into `id`, from the bits (any device's
/// precision is exact).
pub(super) fn copysign(e: &mut Emitter, t: Ty, mag: Word, sign: Word, id: Word) -> R<()> {
    if t == Ty::F64 {
        return double::copysign(e, mag, sign, id);
    }
    F::new(e).copysign_into(mag, sign, Some(id)).map(|_| ())
}

/// C's `fmod(a, b)` of `t` (`f32` or a float vector, per component): exact, by the module's
/// own `spirthon_fmod` (Vulkan gives `OpFRem` the precision of `a - b·trunc(a / b)`, which
/// lavapipe computes so, a few ULP off and wrong outright for large quotients); `OpFRem`
/// under `--fast-math`. The float `%` and `//` are built on it.
pub(super) fn remainder(e: &mut Emitter, t: Ty, rt: Word, a: Word, b: Word) -> R<Word> {
    if t.scalar() == spirthon_ir::Scalar::F64 {
        return fmod64_call(e, rt, None, a, b);
    }
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

/// A call of the module's own exact `f64` `fmod` ([`fmod64`], made once), which `%`,
/// `//` and `math.fmod` on `f64` use also under `--fast-math` (`OpFRem` on `f64` is as
/// loose as on `f32`): into `out` when given.
fn fmod64_call(e: &mut Emitter, rt: Word, out: Option<Word>, a: Word, b: Word) -> R<Word> {
    let helper = *e.fmod64.get_or_insert_with(|| e.b.id());
    e.b.op(SOp::FunctionCall, rt, out, &[helper, a, b])
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
    for (mf, arity, id) in e.math64_helpers.clone() {
        let dt = e.ty(Ty::F64);
        let fty = e.b.type_function(dt, &vec![dt; arity]);
        e.b.begin_function(dt, id, fty)?;
        e.name(
            id,
            &format!("spirthon_{}64", format!("{mf:?}").to_lowercase()),
        );
        let args: Vec<Word> = (0..arity)
            .map(|_| e.b.function_parameter(dt))
            .collect::<R<_>>()?;
        let entry = e.b.id();
        e.b.begin_block(entry)?;
        let r = double::body(e, mf, &args)?;
        e.b.terminate(SOp::ReturnValue, &[r])?;
        e.b.end_function()?;
    }
    if let Some(id) = e.fmod64 {
        let dt = e.ty(Ty::F64);
        let fty = e.b.type_function(dt, &[dt, dt]);
        e.b.begin_function(dt, id, fty)?;
        e.name(id, "spirthon_fmod64");
        let x = e.b.function_parameter(dt)?;
        let y = e.b.function_parameter(dt)?;
        let entry = e.b.id();
        e.b.begin_block(entry)?;
        let r = fmod64::fmod64(e, x, y)?;
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

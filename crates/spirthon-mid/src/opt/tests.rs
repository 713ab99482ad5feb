//! Folding against CPython's arithmetic (cases.rs, written by cases.py), and the passes on
//! hand-built functions.

use spirthon_ir::{BinOp, Const, Op, Ref, Term, Ty};

use super::*;
use crate::testing::Fb;

mod cases {
    use spirthon_ir::BinOp::{self, *};
    include!("cases.rs");
}

#[test]
fn i32_folding_equals_cpython_wrapped() {
    for &(op, a, b, want) in cases::I32_CASES {
        let got = binary(op, Const::I32(a), Const::I32(b));
        assert_eq!(got, Some(Const::I32(want)), "{a} {op:?} {b}");
    }
}

#[test]
fn u32_folding_equals_cpython_wrapped() {
    for &(op, a, b, want) in cases::U32_CASES {
        let got = binary(op, Const::U32(a), Const::U32(b));
        assert_eq!(got, Some(Const::U32(want)), "{a} {op:?} {b}");
    }
}

#[test]
fn f32_folding_equals_cpython_bit_for_bit() {
    for &(op, a, b, want) in cases::F32_CASES {
        let got = binary(op, Const::F32(a), Const::F32(b));
        let (x, y, w) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(want));
        assert_eq!(
            got,
            Some(Const::F32(want)),
            "{x:?} {op:?} {y:?} should be {w:?}"
        );
    }
}

#[test]
fn division_by_zero_and_negative_shifts_are_left_for_run_time() {
    for op in [BinOp::FloorDiv, BinOp::Mod] {
        assert_eq!(binary(op, Const::I32(7), Const::I32(0)), None);
        assert_eq!(binary(op, Const::U32(7), Const::U32(0)), None);
        assert_eq!(binary(op, Const::f32(7.0), Const::f32(0.0)), None);
    }
    assert_eq!(binary(BinOp::Shr, Const::I32(1), Const::I32(-1)), None);
}

#[test]
fn wide_shifts_fold_as_python_wraps_them() {
    let (shl, shr) = (BinOp::Shl, BinOp::Shr);
    assert_eq!(
        binary(shl, Const::I32(1), Const::I32(31)),
        Some(Const::I32(i32::MIN))
    );
    assert_eq!(
        binary(shl, Const::I32(-1), Const::I32(32)),
        Some(Const::I32(0))
    );
    assert_eq!(
        binary(shl, Const::I32(5), Const::I32(1000)),
        Some(Const::I32(0))
    );
    assert_eq!(
        binary(shr, Const::I32(-7), Const::I32(40)),
        Some(Const::I32(-1))
    );
    assert_eq!(
        binary(shr, Const::I32(7), Const::I32(32)),
        Some(Const::I32(0))
    );
    assert_eq!(
        binary(shl, Const::U32(u32::MAX), Const::U32(32)),
        Some(Const::U32(0))
    );
    assert_eq!(
        binary(shr, Const::U32(u32::MAX), Const::U32(33)),
        Some(Const::U32(0))
    );
    assert_eq!(
        binary(shr, Const::U32(u32::MAX), Const::U32(31)),
        Some(Const::U32(1))
    );
}

#[test]
fn comparisons_with_nan_are_false_except_not_equal() {
    let (nan, one) = (Const::f32(f32::NAN), Const::f32(1.0));
    for op in [CmpOp::Eq, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
        assert_eq!(compare(op, nan, one), Some(false), "{op:?}");
    }
    assert_eq!(compare(CmpOp::Ne, nan, nan), Some(true));
    assert_eq!(
        compare(CmpOp::Lt, Const::I32(-1), Const::I32(0)),
        Some(true)
    );
    assert_eq!(
        compare(CmpOp::Lt, Const::U32(u32::MAX), Const::U32(0)),
        Some(false)
    );
}

/// The value a function returns from its last block.
fn returned(fb: &Fb) -> Ref {
    let last = fb.f.blocks.last().expect("a block");
    match last.term {
        Term::Return(Some(r)) => r,
        _ => panic!("no return"),
    }
}

#[test]
fn a_constant_expression_folds_and_its_operands_die() {
    let mut fb = Fb::new(Some(Ty::I32));
    let e = fb.block();
    let a = fb.konst(e, Const::I32(-7));
    let b = fb.konst(e, Const::I32(2));
    let q = fb.inst(e, Op::Binary(BinOp::FloorDiv), Some(Ty::I32), &[a, b]);
    let m = fb.inst(e, Op::Binary(BinOp::Mod), Some(Ty::I32), &[q, b]);
    fb.term(e, Term::Return(Some(m)));
    let dom = crate::dominators(&fb.f);
    optimize(&mut fb.f, &dom, &[]);
    assert_eq!(fb.f.as_const(returned(&fb)), Some(Const::I32(0)));
    assert_eq!(
        fb.f.blocks[Block::new(0)].insts.len(),
        1,
        "only the folded constant stays"
    );
    assert_eq!(crate::verify::verify(&fb.f), Ok(()));
}

#[test]
fn a_repeated_computation_in_a_dominated_block_is_merged() {
    let mut fb = Fb::new(Some(Ty::I32));
    let (e, t, f, j) = (fb.block(), fb.block(), fb.block(), fb.block());
    let x = fb.inst(e, Op::Param(0), Some(Ty::I32), &[]);
    let c = fb.inst(e, Op::Cmp(CmpOp::Lt), Some(Ty::BOOL), &[x, x]);
    let sum = fb.inst(e, Op::Binary(BinOp::Add), Some(Ty::I32), &[x, x]);
    fb.term(e, Term::Branch(c, t, f));
    let again = fb.inst(t, Op::Binary(BinOp::Add), Some(Ty::I32), &[x, x]);
    fb.term(t, Term::Jump(j));
    fb.term(f, Term::Jump(j));
    let p = fb.phi(j, Ty::I32, &[(t, again), (f, sum)]);
    fb.term(j, Term::Return(Some(p)));
    let dom = crate::dominators(&fb.f);
    optimize(&mut fb.f, &dom, &[]);
    assert!(fb.f.blocks[t].insts.is_empty(), "the repeat is merged");
    assert_eq!(fb.f.phis[Phi::new(0)].args[0].1, sum);
    assert_eq!(crate::verify::verify(&fb.f), Ok(()));
}

#[test]
fn a_store_stays_and_an_unused_load_goes() {
    let mut fb = Fb::new(None);
    let e = fb.block();
    let i = fb.konst(e, Const::I32(3));
    let a = spirthon_ir::ArrayId(0);
    fb.inst(e, Op::Load(a), Some(Ty::I32), &[i]);
    fb.inst(e, Op::Store(a), None, &[i, i]);
    fb.term(e, Term::Return(None));
    let dom = crate::dominators(&fb.f);
    optimize(&mut fb.f, &dom, &[]);
    let ops: Vec<Op> = fb.f.blocks[Block::new(0)]
        .insts
        .iter()
        .map(|&v| fb.f.insts[v].op)
        .collect();
    assert_eq!(ops, [Op::Const(Const::I32(3)), Op::Store(a)]);
}

/// A function of one block: `x = param 0`, then `calls` calls of function 0 on `x` (their
/// sum returned when `used`), for the pure-call tests.
fn calls_of_function_0(calls: usize, used: bool) -> Fb {
    let mut fb = Fb::new(Some(Ty::I32));
    let e = fb.block();
    let x = fb.inst(e, Op::Param(0), Some(Ty::I32), &[]);
    let mut sum = fb.konst(e, Const::I32(0));
    for _ in 0..calls {
        let c = fb.inst(e, Op::Call(FuncId(0)), Some(Ty::I32), &[x]);
        sum = fb.inst(e, Op::Binary(BinOp::Add), Some(Ty::I32), &[sum, c]);
    }
    fb.term(e, Term::Return(Some(if used { sum } else { x })));
    fb
}

fn call_count(fb: &Fb) -> usize {
    fb.f.blocks[Block::new(0)]
        .insts
        .iter()
        .filter(|&&v| matches!(fb.f.insts[v].op, Op::Call(_)))
        .count()
}

#[test]
fn calls_of_a_pure_function_with_equal_arguments_are_merged() {
    for (pure, want) in [(true, 1), (false, 3)] {
        let mut fb = calls_of_function_0(3, true);
        let dom = crate::dominators(&fb.f);
        optimize(&mut fb.f, &dom, &[pure]);
        assert_eq!(call_count(&fb), want, "pure: {pure}");
        assert_eq!(crate::verify::verify(&fb.f), Ok(()));
    }
}

#[test]
fn an_unused_call_goes_only_when_the_callee_is_pure() {
    for (pure, want) in [(true, 0), (false, 2)] {
        let mut fb = calls_of_function_0(2, false);
        let dom = crate::dominators(&fb.f);
        optimize(&mut fb.f, &dom, &[pure]);
        assert_eq!(call_count(&fb), want, "pure: {pure}");
    }
}

#[test]
fn purity_follows_calls_and_stops_at_memory() {
    // 0 stores, 1 calls 0, 2 only computes, 3 calls 2, 4 loads.
    let store = {
        let mut fb = Fb::new(None);
        let e = fb.block();
        let i = fb.konst(e, Const::I32(0));
        fb.inst(e, Op::Store(spirthon_ir::ArrayId(0)), None, &[i, i]);
        fb.term(e, Term::Return(None));
        fb.f
    };
    let caller = |g: u32| {
        let mut fb = Fb::new(Some(Ty::I32));
        let e = fb.block();
        let x = fb.inst(e, Op::Param(0), Some(Ty::I32), &[]);
        let c = fb.inst(e, Op::Call(FuncId(g)), Some(Ty::I32), &[x]);
        fb.term(e, Term::Return(Some(c)));
        fb.f
    };
    let compute = calls_of_function_0(0, true).f;
    let load = {
        let mut fb = Fb::new(Some(Ty::I32));
        let e = fb.block();
        let i = fb.konst(e, Const::I32(0));
        let v = fb.inst(e, Op::Load(spirthon_ir::ArrayId(0)), Some(Ty::I32), &[i]);
        fb.term(e, Term::Return(Some(v)));
        fb.f
    };
    let fs = [store, caller(0), compute, caller(2), load];
    assert_eq!(pure_functions(&fs), [false, false, true, true, false]);
}

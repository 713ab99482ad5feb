use spirthon_ir::{BinOp, Const, Op, Phi, Ref, Term, Ty};

use super::verify;
use crate::testing::{diamond, Fb};

fn error_of(fb: &Fb) -> String {
    verify(&fb.f)
        .expect_err("the verifier accepts a broken function")
        .message
}

#[test]
fn a_well_formed_diamond_passes() {
    let (fb, ..) = diamond();
    assert_eq!(verify(&fb.f), Ok(()));
}

#[test]
fn a_use_its_definition_does_not_dominate_is_caught() {
    let (mut fb, [_, _, _, j], [x, ..]) = diamond();
    fb.term(j, Term::Return(Some(x)));
    assert!(error_of(&fb).contains("does not dominate"));
}

/// `sum = one + one` placed before `one` in one block; the sum's value.
fn use_before_definition() -> (Fb, Ref) {
    let mut fb = Fb::new(Some(Ty::I32));
    let e = fb.block();
    let one = fb.inst(e, Op::Param(0), Some(Ty::I32), &[]);
    let sum = fb.inst(e, Op::Binary(BinOp::Add), Some(Ty::I32), &[one, one]);
    fb.term(e, Term::Return(Some(sum)));
    fb.f.blocks[e].insts.reverse();
    (fb, sum)
}

#[test]
fn a_use_before_its_definition_in_one_block_is_caught() {
    let (fb, _) = use_before_definition();
    assert!(error_of(&fb).contains("does not dominate"));
}

/// A violation found at an instruction carries its source, so the internal error names the
/// line; one found at a terminator has none.
#[test]
fn a_violation_at_an_instruction_is_located() {
    let (mut fb, sum) = use_before_definition();
    let Ref::Inst(v) = sum else { unreachable!() };
    fb.f.insts[v].span = spirthon_ir::Span::new(7, 12);
    let found = verify(&fb.f).expect_err("a use before its definition");
    assert_eq!(found.span, Some(spirthon_ir::Span::new(7, 12)));
    let (mut fb, [_, _, _, j], [x, ..]) = diamond();
    fb.term(j, Term::Return(Some(x)));
    assert_eq!(
        verify(&fb.f).expect_err("a use it does not dominate").span,
        None
    );
}

#[test]
fn a_phi_argument_from_a_block_that_is_not_a_predecessor_is_caught() {
    let (mut fb, [e, ..], [x, ..]) = diamond();
    fb.f.phis[Phi::new(0)].args[0] = (e, x);
    assert!(error_of(&fb).contains("not a predecessor"));
}

#[test]
fn a_phi_argument_of_another_type_is_caught() {
    let (mut fb, [_, t, ..], _) = diamond();
    let f = fb.konst(t, Const::f32(1.0));
    fb.f.phis[Phi::new(0)].args[0] = (t, f);
    assert!(error_of(&fb).contains("argument of type f32"));
}

#[test]
fn a_branch_on_an_int_is_caught() {
    let (mut fb, [e, t, f, _], _) = diamond();
    let n = fb.konst(e, Const::I32(1));
    fb.term(e, Term::Branch(n, t, f));
    assert!(error_of(&fb).contains("branches on a i32"));
}

#[test]
fn a_read_of_a_removed_phi_is_caught() {
    let (mut fb, ..) = diamond();
    fb.f.phis[Phi::new(0)].live = false;
    assert!(error_of(&fb).contains("removed"));
}

#[test]
fn an_instruction_in_two_blocks_is_caught() {
    let (mut fb, [_, _, f, _], [x, ..]) = diamond();
    let Ref::Inst(v) = x else { unreachable!() };
    fb.f.blocks[f].insts.push(v);
    assert!(error_of(&fb).contains("two places"));
}

#[test]
fn a_reachable_block_without_a_terminator_is_caught() {
    let (mut fb, [_, t, ..], _) = diamond();
    fb.term(t, Term::Open);
    assert!(error_of(&fb).contains("not terminated"));
}

#[test]
fn a_read_of_an_instruction_no_block_holds_is_caught() {
    let mut fb = Fb::new(Some(Ty::I32));
    let e = fb.block();
    let p = fb.inst(e, Op::Param(0), Some(Ty::I32), &[]);
    fb.term(e, Term::Return(Some(p)));
    fb.f.blocks[e].insts.clear();
    assert!(error_of(&fb).contains("no block holds"));
}

#[test]
fn a_constant_outside_every_block_is_module_level() {
    let (mut fb, [e, ..], _) = diamond();
    fb.f.blocks[e].insts.clear();
    assert_eq!(verify(&fb.f), Ok(()));
}

/// The diamond's entry as a switch on an `i32` (to `f` for 1 and 2, else `t`), merging at
/// the join.
fn switch_diamond(selector: Const, cases: Vec<(u32, spirthon_ir::Block)>) -> Fb {
    let (mut fb, [e, t, _, j], _) = diamond();
    let s = fb.konst(e, selector);
    fb.term(e, Term::Switch(s, t, cases));
    fb.f.blocks[e].merge = spirthon_ir::Merge::Selection(j);
    fb
}

#[test]
fn a_switch_on_an_integer_with_distinct_values_and_a_merge_passes() {
    let f = diamond().1[2];
    assert_eq!(
        verify(&switch_diamond(Const::I32(3), vec![(1, f), (2, f)]).f),
        Ok(())
    );
}

#[test]
fn a_bad_switch_is_caught() {
    let f = diamond().1[2];
    let on_bool = switch_diamond(Const::Bool(true), vec![(1, f)]);
    assert!(error_of(&on_bool).contains("switches on a bool"));
    let twice = switch_diamond(Const::U32(3), vec![(1, f), (1, f)]);
    assert!(error_of(&twice).contains("the value 1 twice"));
    let mut unmerged = switch_diamond(Const::I32(3), vec![(1, f)]);
    unmerged.f.blocks[diamond().1[0]].merge = spirthon_ir::Merge::None;
    assert!(error_of(&unmerged).contains("without a selection merge"));
}

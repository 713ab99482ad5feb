//! The semantic oracle: run a program over variables and its SSA form on the same branch
//! decisions, and record every value read.

#![allow(dead_code)]

use spirthon_ssa::testing::generate::{Built, Op, Program};
use spirthon_ssa::{Block, Operand, Ssa, UseId, Val, Value};

/// What one read saw: the definition that reached it, or nothing.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Seen {
    Def(Value),
    Undef,
}

/// A read: where it was, what it read through, what it saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub reads: Vec<(Block, Operand, Seen)>,
    /// Reads of a variable that was never assigned on the path taken (Python's
    /// `UnboundLocalError`), as opposed to one assigned from such a read.
    pub unassigned: Vec<Operand>,
}

/// Follows the path chosen by `choices` (bit 0 of each byte picks the branch), at most
/// `max_steps` blocks.
fn walk(
    p: &Program,
    choices: &[u8],
    max_steps: usize,
    mut visit: impl FnMut(Option<Block>, Block),
) {
    let mut prev = None;
    let mut b = Block::new(0);
    for step in 0..max_steps {
        visit(prev, b);
        let succs = &p.blocks[b.index()].succs;
        let next = match succs.len() {
            0 => return,
            1 => succs[0],
            n => {
                succs[choices
                    .get(step % choices.len().max(1))
                    .map_or(0, |&c| c as usize)
                    % n]
            }
        };
        prev = Some(b);
        b = next;
    }
}

/// Runs the program over variables.
pub fn run_vars(p: &Program, built: &Built, choices: &[u8], max_steps: usize) -> Trace {
    // `None`: never assigned on this path.
    let mut env: Vec<Option<Seen>> = vec![None; p.num_vars];
    let mut reads = Vec::new();
    let mut unassigned = Vec::new();
    let mut read = |b: Block, operand: Operand, slot: Option<Seen>| {
        if slot.is_none() {
            unassigned.push(operand);
        }
        let seen = slot.unwrap_or(Seen::Undef);
        reads.push((b, operand, seen));
        seen
    };
    walk(p, choices, max_steps, |_, b| {
        let block = &p.blocks[b.index()];
        for (i, &op) in block.ops.iter().enumerate() {
            let operand = built.operands[b.index()][i];
            match op {
                Op::Def(v) => {
                    let Operand::Value(x) = operand else {
                        unreachable!()
                    };
                    env[v.index()] = Some(Seen::Def(x));
                }
                Op::Use(v) => {
                    read(b, operand, env[v.index()]);
                }
                Op::Copy { dst, src } => {
                    let seen = read(b, operand, env[src.index()]);
                    env[dst.index()] = Some(seen);
                }
            }
        }
        if let (Some(c), Some(operand)) = (block.cond, built.conds[b.index()]) {
            read(b, operand, env[c.index()]);
        }
    });
    Trace { reads, unassigned }
}

/// Runs the SSA form: phis are evaluated in parallel on entry from the predecessor taken,
/// and every read is its resolved value.
pub fn run_ssa(p: &Program, built: &Built, ssa: &Ssa, choices: &[u8], max_steps: usize) -> Trace {
    let mut phi_env: Vec<Seen> = vec![Seen::Undef; ssa.num_phis()];
    let mut reads = Vec::new();
    let eval = |phi_env: &[Seen], v: Val| match v {
        Val::Value(x) => Seen::Def(x),
        Val::Phi(q) => phi_env[q.index()],
        Val::Undef => Seen::Undef,
    };
    walk(p, choices, max_steps, |prev, b| {
        if let Some(pred) = prev {
            let incoming: Vec<(usize, Seen)> = ssa
                .phis_in(b)
                .map(|phi| {
                    let arg = ssa
                        .phi_args(phi)
                        .find(|a| a.0 == pred)
                        .expect("arg for pred");
                    (phi.index(), eval(&phi_env, arg.1))
                })
                .collect();
            for (i, seen) in incoming {
                phi_env[i] = seen;
            }
        }
        let block = &p.blocks[b.index()];
        for (i, &op) in block.ops.iter().enumerate() {
            let operand = built.operands[b.index()][i];
            if !matches!(op, Op::Def(_)) {
                reads.push((b, operand, eval(&phi_env, ssa.resolve(operand))));
            }
        }
        if let Some(operand) = built.conds[b.index()] {
            reads.push((b, operand, eval(&phi_env, ssa.resolve(operand))));
        }
    });
    Trace {
        reads,
        unassigned: Vec::new(),
    }
}

/// Checks one program end to end: SSA verifies, both runs agree on every read for each
/// choice sequence, every undefined read is a reported use, and the reported uses are
/// exactly those of the reachability oracle.
/// Trivial-phi removal is exhaustive: every phi left merges two distinct values other than
/// itself.
pub fn no_trivial_phi(ssa: &Ssa) -> Result<(), String> {
    for p in (0..ssa.num_phis()).map(spirthon_ssa::Phi::new) {
        let mut distinct: Vec<spirthon_ssa::Val> = Vec::new();
        for (_, a) in ssa.phi_args(p) {
            if a != spirthon_ssa::Val::Phi(p) && !distinct.contains(&a) {
                distinct.push(a);
            }
        }
        if distinct.len() < 2 {
            return Err(format!(
                "{p} is trivial: {:?}",
                ssa.phi_args(p).collect::<Vec<_>>()
            ));
        }
    }
    Ok(())
}

pub fn check_program(
    p: &Program,
    flavour: spirthon_ssa::Flavour,
    choice_sets: &[Vec<u8>],
) -> Result<Ssa, String> {
    let built = p.build().map_err(|e| e.to_string())?;
    let f = &built.function;
    let ssa = spirthon_ssa::construct(f, flavour);
    spirthon_ssa::verify(f, &ssa).map_err(|e| format!("verify: {e:#?}"))?;
    no_trivial_phi(&ssa)?;
    for choices in choice_sets {
        let expected = run_vars(p, &built, choices, 400);
        let got = run_ssa(p, &built, &ssa, choices, 400);
        if expected.reads != got.reads {
            let at = expected
                .reads
                .iter()
                .zip(&got.reads)
                .position(|(a, b)| a != b);
            return Err(format!(
                "runs differ at read {at:?} with choices {choices:?}: vars {:?} ssa {:?}\n{}",
                at.map(|i| expected.reads[i]),
                at.map(|i| got.reads[i]),
                spirthon_ssa::dump(f, &ssa)
            ));
        }
        for &operand in &expected.unassigned {
            let Operand::Use(u) = operand else {
                return Err("an in-block operand read an unassigned variable".into());
            };
            if !ssa.maybe_undefined().contains(&u) {
                return Err(format!(
                    "{u} read an unassigned variable but was not reported"
                ));
            }
        }
    }
    let reachable: Vec<UseId> = spirthon_ssa::testing::naive::maybe_undefined(f)
        .into_iter()
        .filter(|&u| ssa.dom().is_reachable(f.use_site(u).0))
        .collect();
    if reachable != ssa.maybe_undefined() {
        return Err(format!(
            "maybe-undefined {:?}, oracle {:?}",
            ssa.maybe_undefined(),
            reachable
        ));
    }
    Ok(ssa)
}

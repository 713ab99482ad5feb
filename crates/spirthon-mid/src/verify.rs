//! The IR verifier: the invariants of an SSA-form [`Function`] (spirthon-ir's `cfg` module)
//! that every middle-end pass must keep, checked between passes as cranelift's `verify_if`
//! does.
//!
//! Checked: the tables agree in length; `order` lists each block at most once, entry first;
//! every reachable block is terminated and its successors exist; an instruction sits in at
//! most one block; every operand of a reachable instruction, terminator or live phi names an
//! instruction with a result, or a live phi; a non-constant instruction it names is placed in
//! a block (constants are module-level: lowering interns them outside any block) whose
//! definition dominates each use (a phi argument's definition dominates the edge's predecessor); phi arguments
//! come from predecessors and have the phi's type; a branch tests a bool.
//!
//! What it does not check: operation typing beyond the above (lowering inserts conversions;
//! naga and spirv-val check the emitted module).

use spirthon_ir::{Block, Function, Merge, Op, Ref, Span, Term, Ty};
use spirthon_ssa::DomTree;

/// Where a value is defined: its block and its position there (phis at -1).
type Site = (Block, i64);

/// A broken invariant: what, and the source of the instruction it was found at (none for a
/// terminator, a phi or the function's tables).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Violation {
    pub message: String,
    pub span: Option<Span>,
}

impl From<String> for Violation {
    fn from(message: String) -> Self {
        Violation {
            message,
            span: None,
        }
    }
}

impl From<&str> for Violation {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

/// `Ok` when `f` keeps every invariant; otherwise the first violation found. Computes the
/// dominator tree itself; [`verify_with`] takes one the caller keeps.
pub fn verify(f: &Function<Ref>) -> Result<(), Violation> {
    verify_with(f, &crate::dominators(f))
}

/// [`verify`] with `f`'s dominator tree `dom`.
pub fn verify_with(f: &Function<Ref>, dom: &DomTree) -> Result<(), Violation> {
    let n = f.blocks.len();
    if f.reachable.len() != n {
        return Err(format!("{} blocks but {} reachability flags", n, f.reachable.len()).into());
    }
    if f.order.first().is_some_and(|b| b.index() != 0) {
        return Err("the block order does not start at the entry".into());
    }
    let mut listed = vec![false; n];
    for &b in &f.order {
        if b.index() >= n || std::mem::replace(&mut listed[b.index()], true) {
            return Err(format!("block order lists {b} twice or out of range").into());
        }
    }
    let sites = placement(f)?;
    let preds = predecessors(f)?;
    for (b, block) in f.blocks.iter_enumerated() {
        if !f.reachable[b] {
            continue;
        }
        let here = b;
        for (k, &v) in block.insts.iter().enumerate() {
            for &a in &f.insts[v].args {
                check_use(f, &sites, dom, a, (here, k as i64)).map_err(|message| Violation {
                    message,
                    span: Some(f.insts[v].span),
                })?;
            }
        }
        match &block.term {
            Term::Open => return Err(format!("{here} is reachable but not terminated").into()),
            Term::Branch(c, _, _) => {
                check_use(f, &sites, dom, *c, (here, i64::MAX))?;
                if f.ty_of(*c) != Ty::BOOL {
                    return Err(format!("{here} branches on a {}", f.ty_of(*c).name()).into());
                }
            }
            Term::Switch(c, _, cases) => {
                check_use(f, &sites, dom, *c, (here, i64::MAX))?;
                if !matches!(f.ty_of(*c), Ty::I32 | Ty::U32) {
                    return Err(format!("{here} switches on a {}", f.ty_of(*c).name()).into());
                }
                for (k, (v, _)) in cases.iter().enumerate() {
                    if cases[..k].iter().any(|(w, _)| w == v) {
                        return Err(format!("{here} switches on the value {v} twice").into());
                    }
                }
                if !matches!(block.merge, Merge::Selection(_)) {
                    return Err(format!("{here} switches without a selection merge").into());
                }
            }
            Term::Return(Some(r)) => check_use(f, &sites, dom, *r, (here, i64::MAX))?,
            _ => {}
        }
    }
    for (i, p) in f.phis.iter().enumerate() {
        if !p.live || !f.reachable.get(p.block).copied().unwrap_or(false) {
            continue;
        }
        for &(pred, a) in &p.args {
            if !preds[p.block.index()].contains(&pred) {
                return Err(format!(
                    "phi p{i} of {} has an argument from {pred}, not a predecessor",
                    p.block
                )
                .into());
            }
            if f.ty_of(a) != p.ty {
                return Err(format!(
                    "phi p{i} of type {} has an argument of type {}",
                    p.ty.name(),
                    f.ty_of(a).name()
                )
                .into());
            }
            check_use(f, &sites, dom, a, (pred, i64::MAX))?;
        }
    }
    Ok(())
}

/// Each instruction's block and position; an error if one sits in two places.
fn placement(f: &Function<Ref>) -> Result<Vec<Option<Site>>, String> {
    let mut sites: Vec<Option<Site>> = vec![None; f.insts.len()];
    for (b, block) in f.blocks.iter_enumerated() {
        for (k, &v) in block.insts.iter().enumerate() {
            let slot = sites
                .get_mut(v.index())
                .ok_or_else(|| format!("{} lists a missing instruction", b))?;
            if slot.replace((b, k as i64)).is_some() {
                return Err(format!("instruction {} sits in two places", v.index()));
            }
        }
    }
    Ok(sites)
}

/// Predecessor lists of the reachable blocks; an error for a successor out of range.
fn predecessors(f: &Function<Ref>) -> Result<Vec<Vec<Block>>, String> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (b, block) in f.blocks.iter_enumerated() {
        if !f.reachable[b] {
            continue;
        }
        for s in block.term.successors() {
            preds
                .get_mut(s.index())
                .ok_or_else(|| format!("{} jumps to a missing block {s}", b))?
                .push(b);
        }
    }
    Ok(preds)
}

/// `r`, read at `at`, names a placed value whose definition dominates the read.
fn check_use(
    f: &Function<Ref>,
    sites: &[Option<Site>],
    dom: &DomTree,
    r: Ref,
    at: Site,
) -> Result<(), String> {
    let def = match r {
        Ref::Undef(_) => return Ok(()),
        Ref::Inst(v) => {
            let inst = f
                .insts
                .get(v)
                .ok_or("an operand names a missing instruction")?;
            if inst.ty.is_none() {
                return Err(format!(
                    "{} reads instruction {}, which has no result",
                    at.0,
                    v.index()
                ));
            }
            if matches!(inst.op, Op::Const(_)) {
                // Constants are module-level: lowering interns them outside any block.
                return Ok(());
            }
            sites[v.index()].ok_or_else(|| {
                format!(
                    "{} reads instruction {}, which no block holds",
                    at.0,
                    v.index()
                )
            })?
        }
        Ref::Phi(p) => {
            let phi = f.phis.get(p).ok_or("an operand names a missing phi")?;
            if !phi.live {
                return Err(format!("{} reads p{}, which was removed", at.0, p.index()));
            }
            (phi.block, -1)
        }
    };
    let dominated = if def.0 == at.0 {
        def.1 < at.1
    } else {
        dom.dominates(def.0, at.0)
    };
    if dominated {
        Ok(())
    } else {
        Err(format!(
            "a value defined in {} is read in {}, which it does not dominate",
            def.0, at.0
        ))
    }
}

#[cfg(test)]
mod tests;

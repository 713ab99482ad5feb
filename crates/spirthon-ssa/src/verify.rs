//! An independent check of SSA form, using only the definition of SSA and the dominator
//! tree.
//!
//! Checked: every phi is in a reachable block, at most one per `(block, variable)`, with
//! exactly one argument per reachable predecessor; each argument's definition dominates the
//! end of its predecessor; each use's definition strictly dominates the use's block, or is a
//! phi at the top of that block; each client value is defined in one block only; every
//! phi mentioned exists.

use std::collections::{HashMap, HashSet};

use crate::function::{Function, Operand};
use crate::graph::Graph;
use crate::ids::{Block, Phi, UseId, Value, Var};
use crate::ssa::{Ssa, Val};

/// Every violation found, as readable lines; `Ok` when there are none.
pub fn verify(f: &Function, ssa: &Ssa) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let value_block = value_blocks(f, &mut errors);
    let def_site = |v: Val| -> Option<Block> {
        match v {
            Val::Value(x) => value_block.get(&x).copied(),
            Val::Phi(p) if p.index() < ssa.num_phis() => Some(ssa.phi_block(p)),
            Val::Phi(_) | Val::Undef => None,
        }
    };
    let mut seen: HashSet<(Block, Var)> = HashSet::new();
    for p in (0..ssa.num_phis()).map(Phi::new) {
        check_phi(f, ssa, p, &def_site, &mut seen, &mut errors);
    }
    for u in (0..f.num_uses()).map(UseId::new) {
        let (b, _) = f.use_site(u);
        if !ssa.dom().is_reachable(b) {
            continue;
        }
        let v = ssa.use_value(u);
        if let Val::Phi(p) = v {
            if p.index() >= ssa.num_phis() {
                errors.push(format!("{u} refers to missing {p}"));
                continue;
            }
        }
        if let Some(d) = def_site(v) {
            let ok = ssa.dom().strictly_dominates(d, b) || matches!(v, Val::Phi(_)) && d == b;
            if !ok {
                errors.push(format!(
                    "{u} in {b}: definition in {d} does not dominate it"
                ));
            }
        } else if let Val::Value(x) = v {
            errors.push(format!("{u} in {b}: {x} is defined nowhere"));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn check_phi(
    f: &Function,
    ssa: &Ssa,
    p: Phi,
    def_site: &dyn Fn(Val) -> Option<Block>,
    seen: &mut HashSet<(Block, Var)>,
    errors: &mut Vec<String>,
) {
    let b = ssa.phi_block(p);
    if !ssa.dom().is_reachable(b) {
        errors.push(format!("{p} is in unreachable {b}"));
        return;
    }
    if !seen.insert((b, ssa.phi_var(p))) {
        errors.push(format!("{b} has two phis for {}", ssa.phi_var(p)));
    }
    let preds: Vec<Block> = f
        .cfg()
        .predecessors(b)
        .iter()
        .copied()
        .filter(|&q| ssa.dom().is_reachable(q))
        .collect();
    let arg_preds: Vec<Block> = ssa.phi_args(p).map(|a| a.0).collect();
    if preds != arg_preds {
        errors.push(format!(
            "{p} in {b}: arguments from {arg_preds:?}, predecessors {preds:?}"
        ));
    }
    for (pred, a) in ssa.phi_args(p) {
        if let Some(d) = def_site(a) {
            if !ssa.dom().dominates(d, pred) {
                errors.push(format!(
                    "{p} argument from {pred}: definition in {d} does not dominate it"
                ));
            }
        } else if let Val::Phi(q) = a {
            errors.push(format!("{p} refers to missing {q}"));
        } else if let Val::Value(x) = a {
            errors.push(format!("{p} argument from {pred}: {x} is defined nowhere"));
        }
    }
}

/// The block that defines each client value (from `defines`), flagging values defined in two.
/// A map, not a table: client values are opaque ids and may be sparse.
fn value_blocks(f: &Function, errors: &mut Vec<String>) -> HashMap<Value, Block> {
    let mut at: HashMap<Value, Block> = HashMap::new();
    for b in (0..f.num_blocks()).map(Block::new) {
        for &(_, op) in f.defines(b) {
            let Operand::Value(x) = op else { continue };
            match at.get(&x) {
                Some(&other) if other != b => {
                    errors.push(format!("{x} is defined in both {other} and {b}"))
                }
                _ => {
                    at.insert(x, b);
                }
            }
        }
    }
    at
}

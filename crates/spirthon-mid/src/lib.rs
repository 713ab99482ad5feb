//! spirthon's middle end: the frontend's typed functions over variables in, the optimised
//! SSA module that every backend and the runtime read out.
//!
//! ```text
//! Program --ssa::apply--> Function<Ref> --checks::constant_faults--> --opt::optimize-->
//!         [--ranges::prune_checks--> --opt::optimize--> in checked mode] --checks::constant_faults-->
//!         --written::mark_written--> Module (with each kernel's UniformLayout)
//! ```
//! Constant faults are looked for twice: before optimisation, so that one in code whose
//! result nothing reads is still reported (Python raises there), and after it, for the
//! constants folding makes; each is reported once.
//!
//! Each pass returns diagnostics instead of printing. Under `debug_assertions` (so in every
//! test) [`verify::verify`] checks each function after every pass and a violation is an
//! [`MidError::Invalid`] naming the pass: a compiler bug caught where it happens, not in
//! naga or the driver.
//!
//! Analyses live beside the IR, not in it: each function's [`Analyses`] computes its
//! dominator tree when a pass or the verifier first asks, and keeps it until a pass changes
//! the CFG and says so (as cranelift's `Context` keeps the CFG and dominator tree), so the
//! passes and the verifier between them share one. [`dominators`] computes one afresh, for
//! printers and tests.

pub mod checks;
pub mod opt;
pub mod ranges;
pub mod ssa;
pub mod verify;
pub mod written;

#[cfg(test)]
mod testing;

use spirthon_ir::lowered::{KernelDecl, Program};
use spirthon_ir::{Block, Diagnostic, EntryPoint, Function, Module, Ref};
use spirthon_ssa::{Cfg, DomTree};

/// Why the middle end produced no module.
#[derive(Debug)]
pub enum MidError {
    /// The source has errors (lowering's, and those SSA construction and folding found).
    Source(Vec<Diagnostic>),
    /// A pass broke an IR invariant: a compiler bug, found at `span` when the verifier knows
    /// the instruction.
    Invalid {
        after: &'static str,
        message: String,
        span: Option<spirthon_ir::Span>,
    },
}

/// A function's analyses, computed on first use and kept while the CFG stays as it was. A
/// pass that changes the CFG says so ([`Analyses::cfg_changed`]); in case one does not, the
/// tree is also kept with a fingerprint of the edges and reachability it was computed from,
/// and recomputed when they differ, so a stale tree is never handed out.
#[derive(Default)]
pub struct Analyses {
    dom: Option<(u64, DomTree)>,
}

impl Analyses {
    /// `f`'s dominator tree, computed now if the CFG changed since it was last computed.
    pub fn dominators(&mut self, f: &Function<Ref>) -> &DomTree {
        let now = cfg_fingerprint(f);
        if self.dom.as_ref().is_none_or(|(was, _)| *was != now) {
            self.dom = Some((now, dominators(f)));
        }
        &self.dom.as_ref().expect("computed above").1
    }

    /// A pass changed `f`'s blocks, edges or reachability: what was computed is stale.
    pub fn cfg_changed(&mut self) {
        self.dom = None;
    }
}

/// A hash of `f`'s reachable blocks and their successors: what the dominator tree depends on.
fn cfg_fingerprint(f: &Function<Ref>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = spirthon_ir::hash::FxHasher::default();
    f.blocks.len().hash(&mut h);
    for (b, block) in f.blocks.iter_enumerated() {
        if f.reachable[b] {
            b.index().hash(&mut h);
            for s in block.term.successors() {
                s.index().hash(&mut h);
            }
        }
    }
    h.finish()
}

/// Runs every pass over a lowered program.
pub fn run(p: Program) -> Result<Module, MidError> {
    let Program {
        mut arrays,
        functions,
        kernels,
        checked,
        mut diags,
        warnings: _,
        checked_mode,
        checks,
        prints,
    } = p;
    let mut hidden = false;
    let mut functions: Vec<Function<Ref>> = functions
        .into_iter()
        .map(|l| ssa::apply(l, &mut diags, &mut hidden))
        .collect();
    for l in checked {
        ssa::apply(l, &mut diags, &mut hidden);
    }
    if !diags.is_empty() {
        return Err(MidError::Source(diags));
    }
    if hidden {
        return Err(MidError::Invalid {
            after: "SSA construction",
            message: "a value the lowering introduced may be read before it is assigned".into(),
            span: None,
        });
    }
    let mut analyses: Vec<Analyses> = functions.iter().map(|_| Analyses::default()).collect();
    check_all(&functions, &mut analyses, "SSA construction")?;
    // Faults with constant operands, before dead code goes: Python raises at `r = x // 0`
    // even when `r` is never read. After folding (below) the ones constants reach.
    let mut faults: Vec<Diagnostic> = functions
        .iter()
        .flat_map(|f| checks::constant_faults(f, &arrays))
        .collect();
    let pure = opt::pure_functions(&functions);
    // Optimisation substitutes and removes instructions; it keeps every block and edge.
    for (f, a) in functions.iter_mut().zip(&mut analyses) {
        opt::optimize(f, a.dominators(f), &pure);
    }
    check_all(&functions, &mut analyses, "optimisation")?;
    if checked_mode {
        prune_checks(&mut functions, &mut analyses, &kernels, &pure);
        check_all(&functions, &mut analyses, "bounds-check elimination")?;
    }
    for f in &functions {
        faults.extend(checks::constant_faults(f, &arrays));
        written::mark_written(f, &mut arrays);
    }
    // Most faults are found both times: each once, in source order (no other errors are
    // left at this point: they stopped the run above).
    faults.sort_by(|a, b| {
        let key = |d: &Diagnostic| (d.primary.span.start, d.primary.span.end);
        key(a).cmp(&key(b)).then_with(|| a.message.cmp(&b.message))
    });
    faults.dedup_by(|a, b| a.primary.span == b.primary.span && a.message == b.message);
    if !faults.is_empty() {
        return Err(MidError::Source(faults));
    }
    let entry_points = kernels
        .iter()
        .map(|k| EntryPoint {
            name: k.name.clone(),
            specializes: k.specializes.clone(),
            function: k.function,
            workgroup_size: k.workgroup_size,
            uniform: k.uniform_layout(&arrays),
            arrays: k.arrays.clone(),
        })
        .collect();
    Ok(Module {
        arrays: arrays.into(),
        functions: functions.into(),
        entry_points,
        checked: checked_mode,
        checks,
        prints,
    })
}

/// Checked mode's bounds-check elimination over every function, after value numbering (so
/// that a guard's `len(x)` and the check's are one value), and optimisation again where it
/// removed a check.
fn prune_checks(
    functions: &mut [Function<Ref>],
    analyses: &mut [Analyses],
    kernels: &[KernelDecl],
    pure: &[bool],
) {
    for (i, (f, a)) in functions.iter_mut().zip(analyses).enumerate() {
        let group = kernels
            .iter()
            .find(|k| k.function.index() == i)
            .map(|k| k.workgroup_size);
        if ranges::prune_checks(f, a.dominators(f), group) > 0 {
            // Each proven check's branch became a jump: the failing block is gone.
            a.cfg_changed();
            opt::optimize(f, a.dominators(f), pure);
        }
    }
}

/// The IR verifier over every function, when debug assertions are on.
fn check_all(
    functions: &[Function<Ref>],
    analyses: &mut [Analyses],
    after: &'static str,
) -> Result<(), MidError> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    for (f, a) in functions.iter().zip(analyses) {
        verify::verify_with(f, a.dominators(f)).map_err(|v| MidError::Invalid {
            after,
            message: format!("function `{}`: {}", f.name, v.message),
            span: v.span,
        })?;
    }
    Ok(())
}

/// The dominator tree of `f`'s reachable blocks.
pub fn dominators(f: &Function<Ref>) -> DomTree {
    let mut edges = Vec::new();
    for (b, block) in f.blocks.iter_enumerated() {
        if f.reachable[b] {
            edges.extend(block.term.successors().map(|s| (b, s)));
        }
    }
    DomTree::compute(&Cfg::from_edges(f.blocks.len(), Block::new(0), &edges))
}

#[cfg(test)]
mod tests {
    use spirthon_ir::Term;

    use super::Analyses;
    use crate::testing::diamond;

    /// The kept tree follows the CFG even when a pass does not say it changed it.
    #[test]
    fn the_dominator_tree_follows_a_changed_cfg() {
        let (mut fb, [e, t, f, j], _) = diamond();
        let mut a = Analyses::default();
        assert_eq!(a.dominators(&fb.f).idom(j), Some(e));
        fb.f.blocks[e].term = Term::Jump(t);
        fb.f.reachable[f] = false;
        assert_eq!(a.dominators(&fb.f).idom(j), Some(t));
    }
}

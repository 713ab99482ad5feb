//! spirthon's middle end: the frontend's typed functions over variables in, the optimised
//! SSA module that every backend and the runtime read out.
//!
//! ```text
//! Program --ssa::apply--> Function<Ref> --opt::optimize-->
//!         [--ranges::prune_checks--> --opt::optimize--> in checked mode] --checks::constant_faults-->
//!         --written::mark_written--> Module (with each kernel's UniformLayout)
//! ```
//! Each pass returns diagnostics instead of printing. Under `debug_assertions` (so in every
//! test) [`verify::verify`] checks each function after every pass and a violation is an
//! [`MidError::Invalid`] naming the pass: a compiler bug caught where it happens, not in
//! naga or the driver.
//!
//! Analyses live beside the IR, not in it: [`dominators`] computes the dominator tree of a
//! function when a pass or a printer needs one.

pub mod checks;
pub mod opt;
pub mod ranges;
pub mod ssa;
pub mod verify;
pub mod written;

#[cfg(test)]
mod testing;

use spirthon_ir::lowered::Program;
use spirthon_ir::{Block, Diagnostic, EntryPoint, Function, Module, Ref};
use spirthon_ssa::{Cfg, DomTree};

/// Why the middle end produced no module.
#[derive(Debug)]
pub enum MidError {
    /// The source has errors (lowering's, and those SSA construction and folding found).
    Source(Vec<Diagnostic>),
    /// A pass broke an IR invariant: a compiler bug.
    Invalid {
        after: &'static str,
        message: String,
    },
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
        });
    }
    check_all(&functions, "SSA construction")?;
    let pure = opt::pure_functions(&functions);
    for f in &mut functions {
        let dom = dominators(f);
        opt::optimize(f, &dom, &pure);
    }
    check_all(&functions, "optimisation")?;
    if checked_mode {
        // After value numbering, so that a guard's `len(x)` and the check's are one value.
        for (i, f) in functions.iter_mut().enumerate() {
            let group = kernels
                .iter()
                .find(|k| k.function.index() == i)
                .map(|k| k.workgroup_size);
            if ranges::prune_checks(f, &dominators(f), group) > 0 {
                opt::optimize(f, &dominators(f), &pure);
            }
        }
        check_all(&functions, "bounds-check elimination")?;
    }
    for f in &functions {
        diags.extend(checks::constant_faults(f, &arrays));
        written::mark_written(f, &mut arrays);
    }
    if !diags.is_empty() {
        return Err(MidError::Source(diags));
    }
    let entry_points = kernels
        .iter()
        .map(|k| EntryPoint {
            name: k.name.clone(),
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
    })
}

/// The IR verifier over every function, when debug assertions are on.
fn check_all(functions: &[Function<Ref>], after: &'static str) -> Result<(), MidError> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    for f in functions {
        verify::verify(f).map_err(|message| MidError::Invalid {
            after,
            message: format!("function `{}`: {message}", f.name),
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

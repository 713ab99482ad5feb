//! What the frontend hands to the middle end: typed functions over variables, before SSA.
//!
//! Invariants: `Program::functions[i]` is the body of `FuncId(i)`; every kernel's `function`
//! and every `Op::Call` names one of them; `checked` functions are compiled for their
//! diagnostics only (kernels and funcs no compiled kernel reaches) and their array ids need
//! not name `arrays`.

use crate::abi::UniformLayout;
use crate::cfg::{ArrayId, Block, FuncId, Function, GlobalArray, Operand};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::types::Ty;

/// One lowered function: its CFG over variables and the SSA builder's view of it.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub func: Function<Operand>,
    /// Each block's definitions and uses of variables, for SSA construction.
    pub ssa_in: spirthon_ssa::Function,
    /// The source of each variable read, by `UseId`.
    pub use_spans: Vec<Span>,
    /// The block that falls off the end of a func that must return a value.
    pub fallthrough: Option<Block>,
    /// The def's name as the source writes it, for messages (a specialization's `func.name`
    /// is its mangled one, `scale__f32`; this is `scale`).
    pub source_name: String,
}

/// A `@kernel` as the source declares it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct KernelDecl {
    pub name: String,
    /// For a specialization of a generic kernel: the kernel and its types.
    pub specializes: Option<crate::cfg::Specialization>,
    pub function: FuncId,
    pub workgroup_size: [u32; 3],
    /// The scalar parameters, in declaration order.
    pub scalars: Vec<(String, Ty)>,
    /// The array parameters, in declaration order.
    pub arrays: Vec<ArrayId>,
}

impl KernelDecl {
    /// The kernel's uniform block; `arrays` are the module's arrays. Multi-dimensional
    /// arrays have their shapes there, and so do arrays of narrow ints (`u8`, …), packed
    /// four or two to a word, whose length the buffer's does not tell.
    pub fn uniform_layout(&self, arrays: &[GlobalArray]) -> UniformLayout {
        let shaped = self.arrays.iter().filter_map(|&a| {
            let g = &arrays[a.index()];
            (g.dims > 1 || g.packed()).then(|| (a, g.name.clone(), g.dims))
        });
        UniformLayout::with_shapes(self.scalars.iter().cloned(), shaped)
    }
}

/// A whole lowered file.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Every array parameter of the compiled kernels (`written` not yet known).
    pub arrays: Vec<GlobalArray>,
    pub functions: Vec<Lowered>,
    pub kernels: Vec<KernelDecl>,
    /// Functions lowered only to report their errors.
    pub checked: Vec<Lowered>,
    /// Errors lowering found; the middle end reports them with its own, so that one run
    /// shows both.
    pub diags: Vec<Diagnostic>,
    /// Warnings: reported, and the file still compiles.
    pub warnings: Vec<Diagnostic>,
    /// Lowered in checked mode (`--checked`).
    pub checked_mode: bool,
    /// The check sites of a checked program, by id (`Op::Fail`'s operand).
    pub checks: Vec<crate::checks::CheckSite>,
    /// The print sites, by id (`Op::Print`'s operand).
    pub prints: Vec<crate::prints::PrintSite>,
}

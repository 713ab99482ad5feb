//! The representation shared by spirthon's stages: source spans and diagnostics, the kernel
//! language's types, and the control-flow graph of a lowered function, before SSA (operands
//! are [`spirthon_ssa::Operand`]s that may read variables) and after it (operands are
//! [`Ref`]s to instructions, phis or undefined values).
//!
//! Nothing here knows Python syntax or SPIR-V ids: the frontend produces these types and the
//! backend consumes them. Ids are the SSA crate's `u32` newtypes (`Block`, `Value`, `Phi`,
//! `Var`); every table is a `Vec` indexed by one of them.

pub mod abi;
pub mod cfg;
pub mod checks;
pub mod diag;
pub mod half;
pub mod hash;
pub mod index_vec;
pub mod library;
pub mod lowered;
pub mod operators;
pub mod print;
pub mod prints;
pub mod pyarith;
pub mod pyformat;
pub mod span;
pub mod types;

pub use abi::{ShapeField, UniformField, UniformLayout};
pub use cfg::*;
pub use checks::{CheckKind, CheckSite, ErrorBuffer, Failure};
pub use diag::{Diagnostic, Label, Severity};
pub use index_vec::{Idx, IndexVec};
pub use prints::{PrintBuffer, PrintSite};
pub use span::{LineIndex, Span};
pub use types::{Const, Scalar, Ty};

//! # spirthon-ssa
//!
//! SSA construction on graphs alone: this crate knows nothing of Python or SPIR-V.
//!
//! The input is a [`Function`]: basic blocks with successor edges, where each block records
//! `defines` (variable -> operand of its last definition in the block) and `depends`
//! (variables read in the block before any definition there), and reads are either client
//! values or unresolved [`UseId`]s. [`FunctionBuilder`] produces it the way a lowering pass
//! does, resolving reads of variables the block already defined on the spot.
//!
//! [`construct`] returns an [`Ssa`]: the phis of every block (one argument per reachable
//! predecessor), the value of every use, and the uses that may read an unassigned variable.
//!
//! ## Pipeline and invariants
//! 1. [`graph::postorder`] and [`DomTree`]: reverse post-order and immediate dominators by
//!    Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001). Only blocks
//!    reachable from the entry take part in anything below.
//! 2. [`frontier`]: dominance frontiers by the runner walk, not started or abandoned past a
//!    size limit, and iterated frontiers: for all variables at once as bit rows over the
//!    materialised frontiers (Cytron et al.'s equations, 64 variables to a word), by
//!    Cytron et al.'s worklist per variable, or, when frontiers would be quadratic
//!    (ladder-shaped graphs), by the level-ordered walk of Sreedhar and Gao (1995) as LLVM's
//!    `IDFCalculator` does it, with one bucket per level, never materialising a frontier.
//! 3. [`live`]: liveness, `live_in = depends ∪ (live_out − defines)`, with `depends` and
//!    `live_in` kept apart: for all variables at once as bit rows, or per variable by
//!    backward walks when the variables are too many for the matrix. [`Options`] picks the
//!    methods ([`Method::Auto`] by size); every choice gives the same SSA. The iterative
//!    solvers share a worklist that goes in rounds in block order, so deep loop nests stay
//!    near-linear.
//! 4. [`ssa`] (placement in module `place`): phis on the iterated dominance frontier of each
//!    variable's definitions, only where live-in (pruned SSA: Cytron, Ferrante, Rosen,
//!    Wegman and Zadeck, "Efficiently Computing Static Single Assignment Form and the
//!    Control Dependence Graph", TOPLAS 1991); semi-pruned (Briggs, Cooper, Harvey and
//!    Simpson, 1998) and minimal forms on request ([`Flavour`]). Phi ids are grouped by
//!    block, so every later pass sweeps them in block order.
//! 5. `lookup` (inside [`ssa`]): every use and phi argument resolved along the dominator chain,
//!    for all variables in one preorder walk of the dominator tree that keeps the value at
//!    the end of each dominator (Cytron et al.'s renaming, with one undo log); then trivial
//!    phis removed until none is left, as in Braun, Buchwald, Hack, Leißa, Mallon and
//!    Zwinkau, "Simple and Efficient Construction of Static Single Assignment Form" (CC
//!    2013), whose on-the-fly construction (cranelift-frontend) is the baseline the
//!    benchmark compares against.
//!
//! Every walk over the graph or the dominator tree uses an explicit stack or worklist: a
//! million-block chain or a 100,000-deep loop nest needs no deep native stack. All
//! per-variable state is epoch-stamped, and the dense tables are used only within a few
//! times the function's size, so memory is `O(blocks + edges + uses + phis)`. Large tables
//! are reserved at their final size rather than grown, and construction values are packed
//! in 32 bits (a two-bit kind and a 30-bit index), so values, uses and phis are numbered
//! below [`MAX_INDEX`]: [`FunctionBuilder::finish`] reports a value or use count past it as
//! an [`InputError`].
//!
//! [`verify()`] checks the SSA property independently. [`testing`] is support for the tests
//! and benchmarks, not part of the API: `naive` holds slow oracles from the definitions,
//! `generate` makes programs.

pub mod dom;
pub mod frontier;
pub mod function;
pub mod graph;
pub mod ids;
pub mod live;
mod lookup;
mod place;
pub mod ssa;
mod table;
pub mod verify;
/// Test and benchmark support (program generators and naive oracles); not part of the API.
#[doc(hidden)]
pub mod testing {
    pub mod generate;
    pub mod naive;
}
mod worklist;

pub use dom::DomTree;
pub use function::{Function, FunctionBuilder, InputError, Operand, MAX_INDEX};
pub use graph::{Cfg, Graph};
pub use ids::{Block, Phi, UseId, Value, Var};
pub use ssa::{construct, construct_with, dump, Flavour, Method, Options, Ssa, Stats, Val};
pub use verify::verify;

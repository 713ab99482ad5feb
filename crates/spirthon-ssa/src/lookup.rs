//! The value of every variable at every point, found along the dominator chain.
//!
//! With phis placed, the value of `v` live into block `b` is: the phi for `v` in `b` if there
//! is one, else the value of `v` at the end of `idom(b)`. The value at the end of block `x`
//! is `x`'s last definition of `v`, else its value on entry. Reaching the entry with none of
//! those means `v` is undefined there ([`Raw::UNDEF`]). This is correct because phis sit on
//! the iterated dominance frontier of every definition: no definition can reach `b` except
//! through its dominators or a phi.
//!
//! The lookups are evaluated for all variables at once, top-down, in one preorder walk of
//! the dominator tree: when the walk enters `b`, `cur[v]` is the value of `v` at the end of
//! `idom(b)` for every `v`, i.e. the memo of every variable's chain lookup on the current
//! tree path. Entering `b` sets `cur` for its phis, reads it for its upward-exposed uses,
//! sets it for its definitions, and reads it for the phi arguments `b` gives its
//! successors; leaving `b` undoes its changes from one log shared by all variables. This is
//! the renaming pass of Cytron et al. (1991, §5.2) with one undo log in place of a stack per
//! variable.
//!
//! Each reachable block's phis, uses, definitions and out-edges are read once, in tree
//! order, so the cost is `O(blocks + uses + definitions + phi arguments)` and the tables are
//! swept rather than probed per variable. The walk is an explicit stack. Uses in unreachable
//! blocks are left as they are (undefined: that code never runs).

use crate::dom::DomTree;
use crate::function::{Function, Operand};
use crate::graph::Graph;
use crate::ids::{Block, Phi, UseId, Value, Var};
use crate::table::Table;

/// A value during construction: a client value, an unresolved read, a phi, or undefined,
/// packed into 32 bits so that the argument and use tables cost 4 bytes an entry. The top two
/// bits say which kind (undefined is all zeros); the other 30 hold the index, so values, uses
/// and phis are numbered below [`Raw::LIMIT`] ([`crate::Function`] checks values and uses,
/// and construction checks phis).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Raw(u32);

/// What a [`Raw`] holds, unpacked for matching.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum RawKind {
    Value(Value),
    Use(UseId),
    Phi(Phi),
    Undef,
}

const VALUE: u32 = 1;
const USE: u32 = 2;
const PHI: u32 = 3;

impl Raw {
    /// One past the largest index a `Raw` holds.
    pub(crate) const LIMIT: usize = 1 << 30;
    pub(crate) const UNDEF: Raw = Raw(0);

    fn pack(kind: u32, index: u32) -> Raw {
        debug_assert!(
            (index as usize) < Raw::LIMIT,
            "index {index} past Raw::LIMIT"
        );
        Raw(kind << 30 | index)
    }
    pub(crate) fn value(v: Value) -> Raw {
        Raw::pack(VALUE, v.as_u32())
    }
    pub(crate) fn read(u: UseId) -> Raw {
        Raw::pack(USE, u.as_u32())
    }
    pub(crate) fn phi(p: Phi) -> Raw {
        Raw::pack(PHI, p.as_u32())
    }
    pub(crate) fn kind(self) -> RawKind {
        let index = self.0 & (Raw::LIMIT as u32 - 1);
        match self.0 >> 30 {
            VALUE => RawKind::Value(Value::from_u32(index)),
            USE => RawKind::Use(UseId::from_u32(index)),
            PHI => RawKind::Phi(Phi::from_u32(index)),
            _ => RawKind::Undef,
        }
    }
    pub(crate) fn as_phi(self) -> Option<Phi> {
        (self.0 >> 30 == PHI).then(|| Phi::from_u32(self.0 & (Raw::LIMIT as u32 - 1)))
    }
}

impl core::fmt::Debug for Raw {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.kind().fmt(f)
    }
}

impl From<Operand> for Raw {
    fn from(op: Operand) -> Raw {
        match op {
            Operand::Value(v) => Raw::value(v),
            Operand::Use(u) => Raw::read(u),
        }
    }
}

/// Resolves every upward-exposed use in a reachable block into `uses`, and every phi
/// argument into `args`. `phis` gives each placed phi's block and variable, grouped by block:
/// block `b`'s phis are `block_phi_start[b]..block_phi_start[b + 1]`. Phi `p`'s arguments
/// are `args[arg_start[p]..arg_start[p + 1]]`, one per reachable predecessor of its block in
/// the order `g.predecessors` lists them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_all<G: Graph>(
    f: &Function,
    g: &G,
    dom: &DomTree,
    phis: &[(Block, Var)],
    block_phi_start: &[u32],
    arg_start: &[u32],
    args: &mut [Raw],
    uses: &mut [Raw],
) {
    let n = f.num_blocks();
    let phis_at = |b: usize| block_phi_start[b] as usize..block_phi_start[b + 1] as usize;
    // Per block, each edge into a block with phis: `(successor, position of this block
    // among the successor's predecessors)`, which is the argument slot it fills.
    let edges = Table::group(
        n,
        (0..n).filter(|&s| !phis_at(s).is_empty()).flat_map(|s| {
            g.predecessors(Block::new(s))
                .iter()
                .enumerate()
                .map(move |(i, &p)| (p.index(), (Block::new(s), i as u32)))
        }),
    );
    let mut cur = vec![Raw::UNDEF; f.num_vars()];
    let mut log: Vec<(Var, Raw)> = Vec::new();
    let mut enter = |b: Block, cur: &mut [Raw], log: &mut Vec<(Var, Raw)>| {
        for p in phis_at(b.index()) {
            let v = phis[p].1;
            log.push((v, cur[v.index()]));
            cur[v.index()] = Raw::phi(Phi::new(p));
        }
        for (u, v) in f.uses_in(b) {
            uses[u.index()] = cur[v.index()];
        }
        for &(v, op) in f.defines(b) {
            log.push((v, cur[v.index()]));
            cur[v.index()] = op.into();
        }
        for &(s, i) in edges.row(b.index()) {
            for p in phis_at(s.index()) {
                let v = phis[p].1;
                args[(arg_start[p] + i) as usize] = cur[v.index()];
            }
        }
    };
    // Frames: a block, the log length before it was entered, and its next child.
    let entry = g.entry();
    let mut stack = vec![(entry, 0usize, 0usize)];
    enter(entry, &mut cur, &mut log);
    while let Some(top) = stack.last_mut() {
        let (b, mark, next) = *top;
        if let Some(&child) = dom.children(b).get(next) {
            top.2 += 1;
            let mark = log.len();
            enter(child, &mut cur, &mut log);
            stack.push((child, mark, 0));
            continue;
        }
        for (v, old) in log.drain(mark..).rev() {
            cur[v.index()] = old;
        }
        stack.pop();
    }
}

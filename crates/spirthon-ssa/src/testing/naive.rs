//! Slow, obviously-correct oracles for the fast algorithms, straight from the definitions.
//! Quadratic or worse: for tests on graphs of a few hundred blocks.
//!
//! - Dominators by removal: `d` dominates `b` iff `b` is unreachable from the entry once `d`
//!   is taken out of the graph (or `b == d`).
//! - Dominance frontiers by definition: `y ∈ DF(x)` iff `x` dominates a predecessor of `y`
//!   and does not strictly dominate `y`.
//! - Iterated frontiers as the fixpoint of `S ∪ DF(S)`.
//! - Liveness: the data-flow equations of [`crate::live`], round-robin over all blocks until
//!   nothing changes, on dense sets.
//! - "May be used before it is assigned": a use of `v` in `b` is undefined on some path iff
//!   `b` is reachable from the entry along blocks that do not define `v`.

use std::collections::BTreeSet;

use crate::function::Function;
use crate::graph::Graph;
use crate::ids::{Block, UseId, Var};

/// Blocks reachable from the entry without passing through `removed`.
fn reachable_without<G: Graph>(g: &G, removed: Option<Block>) -> Vec<bool> {
    let n = g.num_blocks();
    let mut seen = vec![false; n];
    if removed == Some(g.entry()) || n == 0 {
        return seen;
    }
    let mut stack = vec![g.entry()];
    seen[g.entry().index()] = true;
    while let Some(b) = stack.pop() {
        for &s in g.successors(b) {
            if Some(s) != removed && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    seen
}

/// `doms[b]` is the set of blocks dominating `b` (empty for unreachable blocks).
pub fn dominator_sets<G: Graph>(g: &G) -> Vec<BTreeSet<Block>> {
    let n = g.num_blocks();
    let reach = reachable_without(g, None);
    let mut doms = vec![BTreeSet::new(); n];
    for d in (0..n).map(Block::new).filter(|d| reach[d.index()]) {
        let without = reachable_without(g, Some(d));
        for b in 0..n {
            if reach[b] && (!without[b] || b == d.index()) {
                doms[b].insert(d);
            }
        }
    }
    doms
}

/// The immediate dominator of each block: its strict dominator that all others dominate.
pub fn idoms<G: Graph>(g: &G) -> Vec<Option<Block>> {
    let doms = dominator_sets(g);
    (0..g.num_blocks())
        .map(|b| {
            let strict = doms[b].iter().filter(|d| d.index() != b);
            strict.max_by_key(|d| doms[d.index()].len()).copied()
        })
        .collect()
}

/// Every block's frontier, sorted.
pub fn frontiers<G: Graph>(g: &G) -> Vec<Vec<Block>> {
    let doms = dominator_sets(g);
    let n = g.num_blocks();
    let mut df = vec![Vec::new(); n];
    for y in 0..n {
        if doms[y].is_empty() {
            continue;
        }
        for x in 0..n {
            let x_b = Block::new(x);
            let dominates_pred = g
                .predecessors(Block::new(y))
                .iter()
                .any(|p| doms[p.index()].contains(&x_b));
            let strictly = x != y && doms[y].contains(&x_b);
            if dominates_pred && !strictly {
                df[x].push(Block::new(y));
            }
        }
    }
    df
}

/// `DF+(defs)`, sorted.
pub fn iterated_frontier(df: &[Vec<Block>], defs: &[Block]) -> Vec<Block> {
    let mut result: BTreeSet<Block> = BTreeSet::new();
    let mut work: Vec<Block> = defs.to_vec();
    let mut done: BTreeSet<Block> = BTreeSet::new();
    while let Some(x) = work.pop() {
        if !done.insert(x) {
            continue;
        }
        for &y in &df[x.index()] {
            result.insert(y);
            work.push(y);
        }
    }
    result.into_iter().collect()
}

/// `live_in[b][v]` by round-robin iteration of the equations over reachable blocks.
pub fn live_in(f: &Function) -> Vec<Vec<bool>> {
    let (n, nv) = (f.num_blocks(), f.num_vars());
    let reach = reachable_without(f.cfg(), None);
    let mut live = vec![vec![false; nv]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).filter(|&b| reach[b]) {
            let block = Block::new(b);
            let mut out = vec![false; nv];
            for s in f.cfg().successors(block) {
                for v in 0..nv {
                    out[v] |= live[s.index()][v];
                }
            }
            for &(v, _) in f.defines(block) {
                out[v.index()] = false;
            }
            for &v in f.depends(block) {
                out[v.index()] = true;
            }
            if out != live[b] {
                live[b] = out;
                changed = true;
            }
        }
    }
    live
}

/// The uses that some path reaches with their variable unassigned, in order.
pub fn maybe_undefined(f: &Function) -> Vec<UseId> {
    let n = f.num_blocks();
    let mut undefined_at = vec![vec![false; n]; f.num_vars()];
    for (v, reach) in undefined_at.iter_mut().enumerate() {
        let defines = |b: Block| f.var_defs(Var::new(v)).iter().any(|d| d.0 == b);
        let mut stack = vec![Block::new(0)];
        reach[0] = true;
        while let Some(b) = stack.pop() {
            if defines(b) {
                continue;
            }
            for &s in f.cfg().successors(b) {
                if !reach[s.index()] {
                    reach[s.index()] = true;
                    stack.push(s);
                }
            }
        }
    }
    (0..f.num_uses())
        .map(UseId::new)
        .filter(|&u| {
            let (b, v) = f.use_site(u);
            undefined_at[v.index()][b.index()]
        })
        .collect()
}

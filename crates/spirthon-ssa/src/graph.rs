//! The graph interface every algorithm of this crate is written against, and [`Cfg`], its
//! compressed adjacency-list implementation.
//!
//! Invariants of a [`Cfg`]: successor and predecessor lists hold no duplicates (a repeated
//! edge is kept once, at its first position), keep the order in which edges were added, and
//! mirror each other. Walks use explicit stacks: no recursion proportional to the graph.

use crate::ids::Block;
use crate::table::Table;

/// A directed graph with a distinguished entry, as the algorithms here see a CFG.
pub trait Graph {
    fn num_blocks(&self) -> usize;
    fn entry(&self) -> Block;
    fn successors(&self, block: Block) -> &[Block];
    fn predecessors(&self, block: Block) -> &[Block];
}

/// A control-flow graph stored as two compressed adjacency arrays.
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Block,
    succs: Table<Block>,
    preds: Table<Block>,
}

impl Cfg {
    /// Builds the graph of `num_blocks` blocks from an edge list. Every endpoint must be
    /// below `num_blocks` (see [`Cfg::check_edges`]).
    pub fn from_edges(num_blocks: usize, entry: Block, edges: &[(Block, Block)]) -> Cfg {
        let table = |pair: fn(&(Block, Block)) -> (usize, Block)| {
            Table::group(num_blocks, edges.iter().map(pair)).dedup_rows(num_blocks, Block::index)
        };
        Cfg {
            entry,
            succs: table(|&(from, to)| (from.index(), to)),
            preds: table(|&(from, to)| (to.index(), from)),
        }
    }

    /// The first edge whose endpoint is not a block of a graph of `num_blocks` blocks.
    pub fn check_edges(num_blocks: usize, edges: &[(Block, Block)]) -> Option<(Block, Block)> {
        edges
            .iter()
            .copied()
            .find(|&(f, t)| f.index() >= num_blocks || t.index() >= num_blocks)
    }

    pub fn num_edges(&self) -> usize {
        self.succs.len()
    }
}

impl Graph for Cfg {
    fn num_blocks(&self) -> usize {
        self.succs.num_rows()
    }
    fn entry(&self) -> Block {
        self.entry
    }
    fn successors(&self, block: Block) -> &[Block] {
        self.succs.row(block.index())
    }
    fn predecessors(&self, block: Block) -> &[Block] {
        self.preds.row(block.index())
    }
}

/// The part of a graph reachable from its entry: the same blocks and successor lists (every
/// successor of a reachable block is reachable), but predecessor lists without the
/// unreachable predecessors, so that backward walks need no reachability test.
#[derive(Clone, Debug)]
pub struct Reachable<'g, G> {
    graph: &'g G,
    preds: Table<Block>,
}

impl<'g, G: Graph> Reachable<'g, G> {
    /// `reachable(b)` must hold exactly for the blocks reachable from the entry.
    pub fn new(graph: &'g G, reachable: impl Fn(Block) -> bool) -> Self {
        let n = graph.num_blocks();
        let bound = (0..n)
            .map(|b| graph.predecessors(Block::new(b)).len())
            .sum();
        let preds = Table::from_rows(n, bound, |b, row| {
            let b = Block::new(b);
            if reachable(b) {
                row.extend(graph.predecessors(b).iter().filter(|&&p| reachable(p)));
            }
        });
        Reachable { graph, preds }
    }
}

impl<G> Reachable<'_, G> {
    /// The predecessor lists alone, for a client that outlives the view.
    pub(crate) fn into_preds(self) -> Table<Block> {
        self.preds
    }
}

impl<G: Graph> Graph for Reachable<'_, G> {
    fn num_blocks(&self) -> usize {
        self.graph.num_blocks()
    }
    fn entry(&self) -> Block {
        self.graph.entry()
    }
    fn successors(&self, block: Block) -> &[Block] {
        self.graph.successors(block)
    }
    fn predecessors(&self, block: Block) -> &[Block] {
        self.preds.row(block.index())
    }
}

/// The blocks reachable from the entry, in post-order of a depth-first walk that visits
/// successors in list order. Uses an explicit stack.
pub fn postorder<G: Graph>(g: &G) -> Vec<Block> {
    let n = g.num_blocks();
    let mut order = Vec::with_capacity(n);
    if n == 0 {
        return order;
    }
    let mut visited = vec![false; n];
    let mut stack: Vec<(Block, u32)> = vec![(g.entry(), 0)];
    visited[g.entry().index()] = true;
    while let Some(top) = stack.last_mut() {
        let (block, next) = *top;
        let succs = g.successors(block);
        if let Some(&s) = succs.get(next as usize) {
            top.1 += 1;
            if !visited[s.index()] {
                visited[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(block);
            stack.pop();
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(i: usize) -> Block {
        Block::new(i)
    }

    #[test]
    fn repeated_edges_are_kept_once_in_first_order() {
        let g = Cfg::from_edges(
            3,
            b(0),
            &[(b(0), b(2)), (b(0), b(1)), (b(0), b(2)), (b(1), b(2))],
        );
        assert_eq!(g.successors(b(0)), &[b(2), b(1)]);
        assert_eq!(g.predecessors(b(2)), &[b(0), b(1)]);
        assert_eq!(g.num_edges(), 3);
    }

    #[test]
    fn postorder_skips_unreachable_blocks() {
        let g = Cfg::from_edges(4, b(0), &[(b(0), b(1)), (b(1), b(0)), (b(3), b(1))]);
        assert_eq!(postorder(&g), vec![b(1), b(0)]);
    }
}

//! The graph interface every algorithm of this crate is written against, and [`Cfg`], its
//! compressed adjacency-list implementation.
//!
//! Invariants of a [`Cfg`]: successor and predecessor lists hold no duplicates (a repeated
//! edge is kept once, at its first position), keep the order in which edges were added, and
//! mirror each other. Walks use explicit stacks: no recursion proportional to the graph.

use crate::ids::Block;

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
    succ_start: Vec<u32>,
    succs: Vec<Block>,
    pred_start: Vec<u32>,
    preds: Vec<Block>,
}

impl Cfg {
    /// Builds the graph of `num_blocks` blocks from an edge list. Every endpoint must be
    /// below `num_blocks` (see [`Cfg::check_edges`]).
    pub fn from_edges(num_blocks: usize, entry: Block, edges: &[(Block, Block)]) -> Cfg {
        let (succ_start, succs) = group(num_blocks, edges.iter().map(|&(f, t)| (f, t)));
        let (pred_start, preds) = group(num_blocks, edges.iter().map(|&(f, t)| (t, f)));
        Cfg {
            entry,
            succ_start,
            succs,
            pred_start,
            preds,
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

/// Stable counting sort of `(key, item)` pairs into a compressed table, then one pass per
/// key that drops repeated items (keeping the first).
fn group(n: usize, pairs: impl Iterator<Item = (Block, Block)> + Clone) -> (Vec<u32>, Vec<Block>) {
    let mut start = vec![0u32; n + 1];
    for (k, _) in pairs.clone() {
        start[k.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut items = vec![Block::new(0); start[n] as usize];
    for (k, item) in pairs {
        items[fill[k.index()] as usize] = item;
        fill[k.index()] += 1;
    }
    // `seen[item] == key` once `item` is in `key`'s list.
    let mut seen = vec![u32::MAX; n];
    let mut out_start = Vec::with_capacity(n + 1);
    let mut out = Vec::with_capacity(items.len());
    out_start.push(0);
    for key in 0..n {
        for &item in &items[start[key] as usize..start[key + 1] as usize] {
            if seen[item.index()] != key as u32 {
                seen[item.index()] = key as u32;
                out.push(item);
            }
        }
        out_start.push(out.len() as u32);
    }
    (out_start, out)
}

impl Graph for Cfg {
    fn num_blocks(&self) -> usize {
        self.succ_start.len() - 1
    }
    fn entry(&self) -> Block {
        self.entry
    }
    fn successors(&self, block: Block) -> &[Block] {
        let i = block.index();
        &self.succs[self.succ_start[i] as usize..self.succ_start[i + 1] as usize]
    }
    fn predecessors(&self, block: Block) -> &[Block] {
        let i = block.index();
        &self.preds[self.pred_start[i] as usize..self.pred_start[i + 1] as usize]
    }
}

/// The part of a graph reachable from its entry: the same blocks and successor lists (every
/// successor of a reachable block is reachable), but predecessor lists without the
/// unreachable predecessors, so that backward walks need no reachability test.
#[derive(Clone, Debug)]
pub struct Reachable<'g, G> {
    graph: &'g G,
    pred_start: Vec<u32>,
    preds: Vec<Block>,
}

impl<'g, G: Graph> Reachable<'g, G> {
    /// `reachable(b)` must hold exactly for the blocks reachable from the entry.
    pub fn new(graph: &'g G, reachable: impl Fn(Block) -> bool) -> Self {
        let n = graph.num_blocks();
        let mut pred_start = Vec::with_capacity(n + 1);
        let mut preds = Vec::new();
        pred_start.push(0);
        for b in (0..n).map(Block::new) {
            if reachable(b) {
                preds.extend(
                    graph
                        .predecessors(b)
                        .iter()
                        .copied()
                        .filter(|&p| reachable(p)),
                );
            }
            pred_start.push(preds.len() as u32);
        }
        Reachable {
            graph,
            pred_start,
            preds,
        }
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
        let i = block.index();
        &self.preds[self.pred_start[i] as usize..self.pred_start[i + 1] as usize]
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

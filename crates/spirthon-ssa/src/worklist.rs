//! The worklist of blocks for the iterative solvers ([`crate::live`],
//! [`crate::frontier::iterated_frontier_rows`]), in rounds.
//!
//! Every round visits the blocks waiting in it in one fixed order: reverse post-order for a
//! forward problem, post-order for a backward one, so that the first round, which holds
//! every reachable block, settles every acyclic stretch at once (Kam and Ullman, "Global
//! Data Flow Analysis and Iterative Algorithms", JACM 1976), and memory is walked in block
//! order. A block taken back waits for the next round, or for this one if the round has not
//! yet passed it; a waiting block is never queued twice.
//!
//! A round with many blocks waiting (at least 1/16 of them) scans the whole order for them;
//! a round with few sorts just those blocks. So a round costs at most 16 times the blocks
//! it visits (plus their sort): a 100,000-deep loop nest, which needs as many rounds, stays
//! near-linear instead of scanning the function once per round.

use crate::dom::DomTree;
use crate::ids::Block;

pub(crate) struct Worklist<'d> {
    dom: &'d DomTree,
    /// Post-order rather than reverse post-order.
    backward: bool,
    /// The current round: `None` for a scan of the whole order, or the waiting blocks,
    /// sorted.
    round: Option<Vec<Block>>,
    next: usize,
    /// Blocks taken back since the round began (some may already have been visited in it).
    again: Vec<Block>,
    /// Per block: waiting.
    queued: Vec<bool>,
}

impl<'d> Worklist<'d> {
    /// A worklist over the reachable blocks of `dom` (numbered below `n`), all waiting.
    pub(crate) fn new(n: usize, dom: &'d DomTree, backward: bool) -> Self {
        Worklist {
            dom,
            backward,
            round: None,
            next: 0,
            again: Vec::new(),
            queued: vec![true; n],
        }
    }

    pub(crate) fn pop(&mut self) -> Option<Block> {
        loop {
            if let Some(b) = self.next_in_round() {
                if std::mem::replace(&mut self.queued[b.index()], false) {
                    return Some(b);
                }
                continue;
            }
            let mut waiting = std::mem::take(&mut self.again);
            waiting.retain(|b| self.queued[b.index()]);
            if waiting.is_empty() {
                return None;
            }
            self.next = 0;
            self.round = if waiting.len() * 16 >= self.dom.rpo().len() {
                None
            } else {
                let rank = |b: &Block| self.dom.rpo_index(*b).unwrap_or(0);
                match self.backward {
                    false => waiting.sort_unstable_by_key(rank),
                    true => waiting.sort_unstable_by_key(|b| std::cmp::Reverse(rank(b))),
                }
                Some(waiting)
            };
        }
    }

    fn next_in_round(&mut self) -> Option<Block> {
        let order = self.round.as_deref().unwrap_or(self.dom.rpo());
        if self.next >= order.len() {
            return None;
        }
        self.next += 1;
        Some(match (self.round.is_some(), self.backward) {
            (false, true) => order[order.len() - self.next],
            _ => order[self.next - 1],
        })
    }

    /// Takes `b` back unless it is already waiting.
    pub(crate) fn push(&mut self, b: Block) {
        if !std::mem::replace(&mut self.queued[b.index()], true) {
            self.again.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Cfg;

    fn b(i: usize) -> Block {
        Block::new(i)
    }

    fn drain(w: &mut Worklist<'_>) -> Vec<usize> {
        std::iter::from_fn(|| w.pop()).map(|b| b.index()).collect()
    }

    /// A chain `0 -> 1 -> … -> 99 -> 1` (numbered in reverse post-order) and block 100
    /// unreachable.
    fn loop_dom() -> DomTree {
        let mut edges: Vec<_> = (0..99).map(|i| (b(i), b(i + 1))).collect();
        edges.push((b(99), b(1)));
        DomTree::compute(&Cfg::from_edges(101, b(0), &edges))
    }

    #[test]
    fn a_round_visits_its_waiting_blocks_once_each_in_order() {
        let dom = loop_dom();
        let mut w = Worklist::new(101, &dom, false);
        assert_eq!((w.pop(), w.pop()), (Some(b(0)), Some(b(1))));
        // Still waiting in the first round: not queued twice.
        w.push(b(2));
        assert_eq!(drain(&mut w), (2..100).collect::<Vec<_>>());
        // Few waiting (under 1/16 of the blocks): sorted into order.
        for i in [70, 1, 70, 0, 33] {
            w.push(b(i));
        }
        assert_eq!(drain(&mut w), vec![0, 1, 33, 70]);
        // Many waiting: a scan of the whole order.
        for i in [9, 3, 95, 5, 12, 3, 60, 41] {
            w.push(b(i));
        }
        assert_eq!(drain(&mut w), vec![3, 5, 9, 12, 41, 60, 95]);
    }

    #[test]
    fn backward_rounds_go_in_post_order() {
        let dom = loop_dom();
        let mut w = Worklist::new(101, &dom, true);
        assert_eq!(drain(&mut w), (0..100).rev().collect::<Vec<_>>());
        for i in [0, 50, 2] {
            w.push(b(i));
        }
        assert_eq!(drain(&mut w), vec![50, 2, 0]);
        for i in 10..20 {
            w.push(b(i));
        }
        assert_eq!(drain(&mut w), (10..20).rev().collect::<Vec<_>>());
    }
}

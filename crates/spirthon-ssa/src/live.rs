//! Live-in blocks of one variable at a time.
//!
//! Specification (the data-flow equations, solved to their least fixpoint):
//!
//! ```text
//! live_in(b)  = depends(b) ∪ (live_out(b) − defines(b))
//! live_out(b) = ∪ live_in(s) for s in successors(b)
//! ```
//!
//! `depends` (upward-exposed uses) and `live_in` are different sets: a loop body that reads
//! and then rewrites `x` depends on `x` *and* defines it, and `x` is live into the loop
//! header only because `depends` survives the subtraction of `defines`. Conflating the two
//! drops that header's phi.
//!
//! Method: the equations are solved per variable by walking backwards from the blocks that
//! depend on it, through predecessors, stopping at blocks that define it ("path exploration",
//! as in Brandner et al., "Computing Liveness Sets for SSA-Form Programs", 2011). The cost is
//! the size of the variable's live range, not `blocks × variables`; [`crate::naive`] solves
//! the same equations densely, round-robin, as the oracle.
//!
//! Only reachable blocks are considered: uses in unreachable blocks start nothing, and the
//! walk follows the predecessor lists it is given (a [`crate::graph::Reachable`] view).

use crate::dom::DomTree;
use crate::graph::Graph;
use crate::ids::Block;

/// Reusable state: the live-in set of the last variable computed, as epoch stamps.
#[derive(Debug)]
pub struct LiveInCalculator {
    epoch: u32,
    live_in: Vec<u32>,
    live_out: Vec<u32>,
    worklist: Vec<Block>,
}

impl LiveInCalculator {
    pub fn new(num_blocks: usize) -> LiveInCalculator {
        LiveInCalculator {
            epoch: 0,
            live_in: vec![0; num_blocks],
            live_out: vec![0; num_blocks],
            worklist: Vec::new(),
        }
    }

    /// Computes the live-in blocks of a variable that is used upward-exposed in `depends`
    /// and defined in the blocks for which `defines` holds. Walks `g`'s predecessor lists as
    /// given: pass a [`crate::graph::Reachable`] view so that unreachable blocks stay out.
    pub fn compute<G: Graph>(
        &mut self,
        g: &G,
        dom: &DomTree,
        depends: &[Block],
        defines: impl Fn(Block) -> bool,
    ) {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            self.live_in.fill(0);
            self.live_out.fill(0);
        }
        self.epoch += 1;
        let epoch = self.epoch;
        for &b in depends {
            if dom.is_reachable(b) && self.live_in[b.index()] != epoch {
                self.live_in[b.index()] = epoch;
                self.worklist.push(b);
            }
        }
        while let Some(b) = self.worklist.pop() {
            for &p in g.predecessors(b) {
                self.live_out[p.index()] = epoch;
                if self.live_in[p.index()] == epoch || defines(p) {
                    continue;
                }
                self.live_in[p.index()] = epoch;
                self.worklist.push(p);
            }
        }
    }

    /// Whether the variable of the last [`LiveInCalculator::compute`] is live into `block`.
    pub fn is_live_in(&self, block: Block) -> bool {
        self.live_in[block.index()] == self.epoch
    }

    /// Whether the variable of the last [`LiveInCalculator::compute`] is live out of `block`
    /// (live into one of its successors).
    pub fn is_live_out(&self, block: Block) -> bool {
        self.live_out[block.index()] == self.epoch
    }
}

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
//! Two methods solve the same equations; [`crate::testing::naive`] solves them a third time, densely
//! and round-robin over every block, as the oracle.
//! - [`LiveSets`]: every variable at once, as one row of bits per block (`⌈variables / 64⌉`
//!   words), from a worklist that goes in rounds in post-order (module `worklist`): the
//!   first round holds every reachable block, and a block is taken back only when a
//!   successor's row grew since it was last taken. The first round settles every acyclic
//!   stretch at once (Kam and Ullman, "Global Data Flow Analysis and Iterative Algorithms",
//!   JACM 1976); a row grows at most once per variable, which bounds the rest, however deep
//!   the loop nest. SSA construction uses it when the matrix is no bigger than a small
//!   multiple of the function itself.
//! - [`LiveInCalculator`]: one variable at a time, walking backwards from the blocks that
//!   depend on it, through predecessors, stopping at blocks that define it ("path
//!   exploration", as in Brandner et al., "Computing Liveness Sets for SSA-Form Programs",
//!   2011). The cost is the size of the variable's live range, not `blocks × variables`; SSA
//!   construction falls back to it when variables are too many for the matrix.
//!
//! Only reachable blocks are considered: uses in unreachable blocks start nothing, and the
//! walks follow the graph they are given (a [`crate::graph::Reachable`] view).

use crate::dom::DomTree;
use crate::function::Function;
use crate::graph::Graph;
use crate::ids::{Block, Var};
use crate::worklist::Worklist;

/// The live-in sets of every variable at every block, as bit rows. Live-out sets are read
/// off the successors' rows on demand rather than kept: placement asks for them only in the
/// per-variable walks, and a second matrix would cost as much memory as the first.
#[derive(Clone, Debug)]
pub struct LiveSets {
    words: usize,
    live_in: Vec<u64>,
}

impl LiveSets {
    /// Words the live-in matrix of `f` takes.
    pub fn words_needed(f: &Function) -> usize {
        f.num_blocks() * row_words(f)
    }

    /// Solves the equations for every variable of `f` over the blocks `dom` finds reachable.
    /// `g` must be `f`'s graph, or a [`crate::graph::Reachable`] view of it.
    pub fn compute<G: Graph>(g: &G, dom: &DomTree, f: &Function) -> LiveSets {
        let words = row_words(f);
        let size = f.num_blocks() * words;
        let (mut defines, mut live_in) = (vec![0u64; size], vec![0u64; size]);
        let set = |rows: &mut [u64], b: Block, v: Var| set_var(&mut rows[b.index() * words..], v);
        for &b in dom.rpo() {
            for &(v, _) in f.defines(b) {
                set(&mut defines, b, v);
            }
            for &v in f.depends(b) {
                set(&mut live_in, b, v);
            }
        }
        let depends = live_in.clone();
        // A block is taken back only when a successor's live-in grew since it was last taken.
        let mut work = Worklist::new(f.num_blocks(), dom, true);
        let mut out = vec![0u64; words];
        while let Some(b) = work.pop() {
            union_of_successors(g, &live_in, words, b, &mut out);
            let r = b.index() * words;
            let mut grew = false;
            for w in 0..words {
                let new_in = depends[r + w] | (out[w] & !defines[r + w]);
                grew |= new_in != live_in[r + w];
                live_in[r + w] = new_in;
            }
            if grew {
                for &p in g.predecessors(b) {
                    work.push(p);
                }
            }
        }
        LiveSets { words, live_in }
    }

    pub fn is_live_in(&self, b: Block, v: Var) -> bool {
        self.bit(&self.live_in, b, v)
    }

    /// Whether `v` is live into some successor of `b` in `g` (the graph the sets were
    /// computed on).
    pub fn is_live_out<G: Graph>(&self, g: &G, b: Block, v: Var) -> bool {
        g.successors(b).iter().any(|&s| self.is_live_in(s, v))
    }

    /// Word `w` of `b`'s live-in row: bit `v % 64` of word `v / 64` is `v`.
    pub fn live_in_word(&self, b: Block, w: usize) -> u64 {
        self.live_in[b.index() * self.words + w]
    }

    fn bit(&self, rows: &[u64], b: Block, v: Var) -> bool {
        rows[b.index() * self.words + v.index() / 64] >> (v.index() % 64) & 1 != 0
    }
}

/// Words in one bit row of `f`'s variables: `⌈variables / 64⌉`.
pub(crate) fn row_words(f: &Function) -> usize {
    f.num_vars().div_ceil(64)
}

/// Sets `v`'s bit in a bit row (bit `v % 64` of word `v / 64`).
pub(crate) fn set_var(row: &mut [u64], v: Var) {
    row[v.index() / 64] |= 1 << (v.index() % 64);
}

/// `out = ∪ live_in(s)` over the successors `s` of `b`.
fn union_of_successors<G: Graph>(g: &G, live_in: &[u64], words: usize, b: Block, out: &mut [u64]) {
    out.fill(0);
    for &s in g.successors(b) {
        let row = &live_in[s.index() * words..][..words];
        out.iter_mut().zip(row).for_each(|(o, &i)| *o |= i);
    }
}

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
        depends: impl IntoIterator<Item = Block>,
        defines: impl Fn(Block) -> bool,
    ) {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            self.live_in.fill(0);
            self.live_out.fill(0);
        }
        self.epoch += 1;
        let epoch = self.epoch;
        for b in depends {
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

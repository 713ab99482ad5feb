//! Dominance frontiers and iterated dominance frontiers.
//!
//! - [`dominance_frontiers`] materialises every frontier with the runner walk of Cooper,
//!   Harvey and Kennedy (2001): for each join `j` and each predecessor `p`, walk from `p` up
//!   the dominator tree to `idom(j)`, adding `j` to the frontier of every block passed. The
//!   total size can be quadratic (ladder graphs), so [`dominance_frontiers_within`] gives up
//!   past a limit; SSA construction uses the frontiers when they fit, through
//!   [`iterated_frontier_rows`] (every variable at once, as bit rows) or
//!   [`IdfCalculator::compute_with_frontiers`] (Cytron et al.'s worklist, per variable).
//! - [`IdfCalculator`] computes the iterated dominance frontier `DF+(S)` of a set of
//!   defining blocks without materialising any frontier: the level-ordered walk of Sreedhar
//!   and Gao ("A Linear Time Algorithm for Placing φ-nodes", POPL 1995) as LLVM's
//!   `IDFCalculator` implements it. Roots are taken deepest first from one bucket per
//!   dominator-tree level (Sreedhar and Gao's, where LLVM keeps a priority queue of roots:
//!   a heap of the non-empty levels finds the deepest); from each root the walk descends
//!   its dominator subtree, and every CFG edge `x -> y` out of that subtree with
//!   `level(y) <= level(root)` puts `y` in `DF+`. A block already walked is not walked again for the same set, so one computation
//!   costs the size of the subtrees below the defining blocks plus their out-edges. An
//!   optional live-in filter gives pruned placement directly (Cytron et al. 1991, §5.1's
//!   liveness pruning applied inside the walk).
//!
//! Unreachable blocks are in no frontier and never reached by either walk.

use std::collections::BinaryHeap;

use crate::dom::DomTree;
use crate::graph::Graph;
use crate::ids::Block;
use crate::table::Table;
use crate::worklist::Worklist;

/// Every block's dominance frontier, as a compressed table.
#[derive(Clone, Debug)]
pub struct Frontiers {
    table: Table<Block>,
}

impl Frontiers {
    /// `DF(block)`, in the order the runner walk found its members.
    pub fn of(&self, block: Block) -> &[Block] {
        self.table.row(block.index())
    }

    /// Sum of the sizes of all frontiers.
    pub fn total_len(&self) -> usize {
        self.table.len()
    }
}

/// The runner walk over every join of the reachable graph.
pub fn dominance_frontiers<G: Graph>(g: &G, dom: &DomTree) -> Frontiers {
    dominance_frontiers_within(g, dom, usize::MAX).expect("no limit")
}

/// The runner walk, abandoned (`None`) as soon as the frontiers hold more than `limit`
/// blocks in all, or not started when it would take more than `4 × limit` steps
/// ([`runner_steps`]): the cost is `O(min(limit, total size) + edges)`.
pub fn dominance_frontiers_within<G: Graph>(
    g: &G,
    dom: &DomTree,
    limit: usize,
) -> Option<Frontiers> {
    let n = g.num_blocks();
    // The walk repeats steps where predecessors' climbs meet (several `break`s out of one
    // loop), so a count of a few times the limit may still fit; far beyond it, give up
    // without walking.
    if runner_steps(g, dom) / 4 > limit {
        return None;
    }
    // `last_join[r]` is the join most recently added to `DF(r)`: joins are taken one at a
    // time, so this removes the repeats that several predecessors' walks produce.
    let mut last_join = vec![u32::MAX; n];
    let mut pairs: Vec<(u32, Block)> = Vec::new();
    for &join in dom.rpo() {
        let preds = g.predecessors(join);
        if preds.iter().filter(|&&p| dom.is_reachable(p)).count() < 2 {
            continue;
        }
        let stop = dom.idom(join);
        for &p in preds.iter().filter(|&&p| dom.is_reachable(p)) {
            let mut runner = Some(p);
            while runner != stop {
                let Some(r) = runner else { break };
                if last_join[r.index()] != join.as_u32() {
                    last_join[r.index()] = join.as_u32();
                    pairs.push((r.as_u32(), join));
                    if pairs.len() > limit {
                        return None;
                    }
                }
                runner = dom.idom(r);
            }
        }
    }
    let rows = pairs.iter().map(|&(r, j)| (r as usize, j));
    Some(Frontiers {
        table: Table::group(n, rows),
    })
}

/// The iterated dominance frontiers of every variable at once, from materialised
/// frontiers, as one row of `words` bit words per block: bit `v` of block `z`'s row is set
/// when `z ∈ DF+` of `v`'s defining blocks, where only blocks that pass `keep` count as new
/// definitions (the same pruning as [`IdfCalculator::compute_with_frontiers`]; the phis are
/// the row `AND keep`).
///
/// Cytron et al.'s worklist run for all variables together, 64 to a word: the rows are the
/// least solution of `row(z) = ∪ { defines(x) ∪ (row(x) ∩ keep(x)) : z ∈ DF(x) }`, found
/// by a worklist (module `worklist`) that goes in rounds in reverse post-order and takes a
/// block back only when its row grew since it was last visited. Frontier edges point
/// forward except those into loop headers, so the first round settles every acyclic
/// stretch; a row grows at most once per variable, which bounds the rest. Every frontier
/// list is read once per visit of its block, instead of once per variable whose
/// definitions reach it.
///
/// `defines(x, row)` must set in `row` (zeroed beforehand) the variables `x` defines;
/// `keep(x, w)` gives word `w` of `x`'s filter.
pub fn iterated_frontier_rows(
    dom: &DomTree,
    df: &Frontiers,
    words: usize,
    mut defines: impl FnMut(Block, &mut [u64]),
    keep: impl Fn(Block, usize) -> u64,
) -> Vec<u64> {
    let n = df.table.num_rows();
    let mut rows = vec![0u64; n * words];
    let mut work = Worklist::new(n, dom, false);
    let mut out = vec![0u64; words];
    while let Some(x) = work.pop() {
        if df.of(x).is_empty() {
            continue;
        }
        out.fill(0);
        defines(x, &mut out);
        let row = &rows[x.index() * words..][..words];
        for (w, o) in out.iter_mut().enumerate() {
            *o |= row[w] & keep(x, w);
        }
        for &z in df.of(x) {
            let mut grew = false;
            for (r, &o) in rows[z.index() * words..][..words].iter_mut().zip(&out) {
                grew |= o & !*r != 0;
                *r |= o;
            }
            if grew {
                work.push(z);
            }
        }
    }
    rows
}

/// The steps the runner walk would take, from dominator-tree levels alone: from each
/// reachable predecessor `p` of a join `j` it climbs `level(p) - level(idom(j))` blocks.
/// Each step adds at most one frontier member (structured code repeats about two steps in
/// three), so this tells in `O(edges)` when the walk would pass a limit by far, as it does
/// on ladder-shaped graphs.
pub fn runner_steps<G: Graph>(g: &G, dom: &DomTree) -> usize {
    let level = |b: Block| dom.level(b).unwrap_or(0) as usize;
    let mut steps = 0;
    for &join in dom.rpo() {
        let preds = g.predecessors(join);
        if preds.len() < 2 {
            continue;
        }
        let top = dom.idom(join).map_or(0, level);
        let reachable = preds.iter().filter(|&&p| dom.is_reachable(p));
        steps += reachable.map(|&p| level(p) - top).sum::<usize>();
    }
    steps
}

#[derive(Copy, Clone, Debug)]
struct Marks {
    is_def: u32,
    walked: u32,
    in_idf: u32,
    /// The next root on the same level, while this block is a queued root.
    next: u32,
}

impl Default for Marks {
    fn default() -> Marks {
        Marks {
            is_def: 0,
            walked: 0,
            in_idf: 0,
            next: NONE,
        }
    }
}

const NONE: u32 = u32::MAX;

/// Roots waiting to be walked, deepest level first: one intrusive stack of blocks per
/// level (linked through [`Marks::next`], as a block is queued at most once per
/// computation), and a heap of the levels whose stacks are not empty. Sreedhar and Gao keep
/// one bucket per level; the heap of levels finds the deepest one without scanning the
/// empty levels in between, and holds each level once, however many roots it has, so a
/// push or pop costs `O(1)` on a level already present.
#[derive(Debug)]
struct RootQueue {
    /// Per level: the first queued root, or [`NONE`].
    head: Vec<u32>,
    levels: BinaryHeap<u32>,
}

impl RootQueue {
    fn new(num_blocks: usize) -> RootQueue {
        RootQueue {
            head: vec![NONE; num_blocks],
            levels: BinaryHeap::new(),
        }
    }

    fn push(&mut self, marks: &mut [Marks], level: u32, b: Block) {
        let head = &mut self.head[level as usize];
        if *head == NONE {
            self.levels.push(level);
        }
        marks[b.index()].next = *head;
        *head = b.as_u32();
    }

    /// The deepest queued root and its level. Leaves every head [`NONE`] once empty.
    fn pop(&mut self, marks: &[Marks]) -> Option<(u32, Block)> {
        let &level = self.levels.peek()?;
        let head = &mut self.head[level as usize];
        let b = *head;
        *head = marks[b as usize].next;
        if *head == NONE {
            self.levels.pop();
        }
        Some((level, Block::from_u32(b)))
    }
}

/// Reusable state for iterated-frontier computations over one dominator tree. Per-block
/// marks are epoch stamps, so starting a new computation costs nothing.
#[derive(Debug)]
pub struct IdfCalculator {
    epoch: u32,
    /// Per block: the epochs in which it was a definition, walked, and put in `DF+`; kept
    /// together so that one visit touches one record.
    marks: Vec<Marks>,
    queue: RootQueue,
    stack: Vec<Block>,
}

impl IdfCalculator {
    pub fn new(num_blocks: usize) -> IdfCalculator {
        IdfCalculator {
            epoch: 0,
            marks: vec![Marks::default(); num_blocks],
            queue: RootQueue::new(num_blocks),
            stack: Vec::new(),
        }
    }

    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            self.marks.fill(Marks::default());
        }
        self.epoch += 1;
        self.epoch
    }

    /// Appends to `out` the blocks of `DF+(defs)` (in unspecified order). `defs` must be
    /// reachable blocks.
    pub fn compute<G: Graph>(
        &mut self,
        g: &G,
        dom: &DomTree,
        defs: &[Block],
        out: &mut Vec<Block>,
    ) {
        self.compute_pruned(g, dom, defs, |_| true, |_| true, out)
    }

    /// Appends to `out` the blocks of `DF+(defs)` where the variable is live-in, walking
    /// only from roots, and below a block only into dominator-tree children, where it is
    /// live-out.
    ///
    /// Why skipping the others loses nothing: a phi is needed at `y` only through an edge
    /// `x -> y` with `y` live-in, so `x` is live-out. Let `q` be the nearest ancestor-or-self
    /// of `x` in the dominator tree that defines the variable or holds its phi (it exists, or
    /// `x` would see the entry's undefined value and no edge out of `x` creates a phi). If a
    /// block `w` strictly between `q` and `x` were not live-out, every path from `w` to `x`
    /// would pass a definition, and `x` would have a nearer defining or phi ancestor than
    /// `q`. So the walk from `q` reaches `x`; and `q` is the deepest root above `x`, so its
    /// level bound admits every `y` a shallower root would. The same argument with `w = q`
    /// shows `q` itself is live-out (or is `x`, which is): a root where the variable is not
    /// live-out finds nothing and is not walked.
    pub fn compute_live<G: Graph>(
        &mut self,
        g: &G,
        dom: &DomTree,
        defs: &[Block],
        live_in: impl Fn(Block) -> bool,
        live_out: impl Fn(Block) -> bool,
        out: &mut Vec<Block>,
    ) {
        self.compute_pruned(g, dom, defs, live_in, live_out, out)
    }

    /// Appends to `out` the blocks of `DF+(defs)` where `keep` holds, from materialised
    /// frontiers: the worklist of Cytron et al. (1991, fig. 11) over the defining blocks,
    /// with LLVM's pruning (a block that fails `keep` gets no phi and is not a new
    /// definition). Gives the same set as [`IdfCalculator::compute_live`] with `keep` as the
    /// live-in test, in `O(Σ |DF(x)|)` over the blocks it visits instead of their subtrees.
    pub fn compute_with_frontiers(
        &mut self,
        df: &Frontiers,
        defs: &[Block],
        keep: impl Fn(Block) -> bool,
        out: &mut Vec<Block>,
    ) {
        let epoch = self.next_epoch();
        for &d in defs {
            if self.marks[d.index()].is_def != epoch {
                self.marks[d.index()].is_def = epoch;
                self.stack.push(d);
            }
        }
        while let Some(x) = self.stack.pop() {
            for &y in df.of(x) {
                if self.marks[y.index()].in_idf == epoch {
                    continue;
                }
                self.marks[y.index()].in_idf = epoch;
                if !keep(y) {
                    continue;
                }
                out.push(y);
                if self.marks[y.index()].is_def != epoch {
                    self.stack.push(y);
                }
            }
        }
    }

    fn compute_pruned<G: Graph>(
        &mut self,
        g: &G,
        dom: &DomTree,
        defs: &[Block],
        keep: impl Fn(Block) -> bool,
        descend: impl Fn(Block) -> bool,
        out: &mut Vec<Block>,
    ) {
        let epoch = self.next_epoch();
        for &d in defs {
            if self.marks[d.index()].is_def != epoch {
                self.marks[d.index()].is_def = epoch;
                if descend(d) {
                    self.queue.push(&mut self.marks, level(dom, d), d);
                }
            }
        }
        while let Some((root_level, root)) = self.queue.pop(&self.marks) {
            // A walk from a root finds only blocks at its level or above; at level 0 that is
            // the entry alone, which is in no frontier unless some edge leads into it.
            if root_level == 0 && g.predecessors(root).is_empty() {
                continue;
            }
            self.marks[root.index()].walked = epoch;
            self.stack.push(root);
            while let Some(node) = self.stack.pop() {
                for &succ in g.successors(node) {
                    let succ_level = level(dom, succ);
                    if succ_level > root_level || self.marks[succ.index()].in_idf == epoch {
                        continue;
                    }
                    self.marks[succ.index()].in_idf = epoch;
                    if !keep(succ) {
                        continue;
                    }
                    out.push(succ);
                    if self.marks[succ.index()].is_def != epoch && descend(succ) {
                        self.queue.push(&mut self.marks, succ_level, succ);
                    }
                }
                for &child in dom.children(node) {
                    if self.marks[child.index()].walked != epoch && descend(child) {
                        self.marks[child.index()].walked = epoch;
                        self.stack.push(child);
                    }
                }
            }
        }
    }
}

fn level(dom: &DomTree, b: Block) -> u32 {
    dom.level(b).unwrap_or(u32::MAX)
}

//! Phi placement: which blocks get a phi for which variable.
//!
//! Phis go on the iterated dominance frontier of a variable's defining blocks (Cytron,
//! Ferrante, Rosen, Wegman and Zadeck 1991), restricted to blocks where the variable is
//! live-in for [`Flavour::Pruned`], to variables with an upward-exposed use for
//! [`Flavour::SemiPruned`] (Briggs, Cooper, Harvey and Simpson 1998), and unrestricted for
//! [`Flavour::Minimal`]. Only reachable definitions count. A block that fails the
//! restriction gets no phi and is no new definition (LLVM's pruning inside the walk), which
//! gives the same set as filtering the full frontier afterwards.
//!
//! Two methods, chosen by [`Options`]:
//! - **all variables at once**, when the frontiers are materialised and one bit row per
//!   block fits (the liveness matrix, for pruned SSA): [`iterated_frontier_rows`] solves the
//!   frontier equations for 64 variables per word, reading each frontier list in block
//!   order. This is the case of code Python produces.
//! - **one variable at a time** otherwise: its live-in blocks by a backward walk when the
//!   matrix is too big, then Cytron et al.'s worklist over the materialised frontiers or,
//!   when those would be quadratic, the level-ordered walk of [`IdfCalculator`]. A variable
//!   assigned in one block that strictly dominates all its reads needs no pruned phi and
//!   skips both. All per-variable state is stamped, so memory stays
//!   `O(blocks + uses + phis)`.
//!
//! Invariant of the result: phis are grouped by block in block order, variables ascending
//! within a block, every block reachable, no `(block, variable)` twice.

use crate::dom::DomTree;
use crate::frontier::{
    dominance_frontiers_within, iterated_frontier_rows, Frontiers, IdfCalculator,
};
use crate::function::Function;
use crate::graph::{Cfg, Reachable};
use crate::ids::{Block, Var};
use crate::live::{row_words, set_var, LiveInCalculator, LiveSets};
use crate::ssa::{Flavour, Method, Options};
use crate::table::Table;

/// The placed phis, grouped by block: block `b`'s are `phis[start[b]..start[b + 1]]`.
pub(crate) struct Placement {
    pub(crate) phis: Vec<(Block, Var)>,
    pub(crate) start: Vec<u32>,
}

/// Places every variable's phis as `options` say.
pub(crate) fn place(
    f: &Function,
    dom: &DomTree,
    cfg: &Reachable<'_, Cfg>,
    options: Options,
) -> Placement {
    let n = f.num_blocks();
    let size = n + f.num_uses() + f.num_defs();
    let dense_rows = match options.liveness {
        Method::Auto => LiveSets::words_needed(f) <= 4 * size,
        method => method == Method::Dense,
    };
    let pruned = options.flavour == Flavour::Pruned;
    let live_sets = (pruned && dense_rows).then(|| LiveSets::compute(cfg, dom, f));
    let limit = match options.frontiers {
        Method::Auto => Some(2 * (n + f.cfg().num_edges())),
        Method::Dense => Some(usize::MAX),
        Method::Sparse => None,
    };
    let frontiers = limit.and_then(|limit| dominance_frontiers_within(cfg, dom, limit));
    let phis = match frontiers {
        Some(df) if dense_rows => all_at_once(f, dom, &df, options.flavour, live_sets.as_ref()),
        frontiers => {
            // Each variable's phis are set as bits when the rows fit, which groups them by
            // block for free; otherwise they are listed and sorted.
            let words = row_words(f);
            let rows = dense_rows.then(|| vec![0u64; n * words]);
            let mut per_var = PerVariable::new(f, dom, cfg, live_sets, frontiers, rows);
            for v in 0..f.num_vars() {
                per_var.place(Var::new(v), options.flavour);
            }
            match per_var.rows {
                Some(rows) => phis_from_rows(words, &rows, |_, _| !0),
                None => per_var.phis,
            }
        }
    };
    group_by_block(n, phis)
}

/// Every variable's phis from [`iterated_frontier_rows`], in block order.
fn all_at_once(
    f: &Function,
    dom: &DomTree,
    df: &Frontiers,
    flavour: Flavour,
    live: Option<&LiveSets>,
) -> Vec<(Block, Var)> {
    let words = row_words(f);
    // Semi-pruned: the variables with an upward-exposed use anywhere.
    let mut used = vec![0u64; words];
    for v in (0..f.num_vars()).map(Var::new) {
        if !f.var_uses(v).is_empty() {
            set_var(&mut used, v);
        }
    }
    let keep = |b: Block, w: usize| match (flavour, live) {
        (Flavour::Pruned, Some(live)) => live.live_in_word(b, w),
        (Flavour::Pruned, None) => unreachable!("pruned placement needs the liveness rows"),
        (Flavour::SemiPruned, _) => used[w],
        (Flavour::Minimal, _) => !0,
    };
    let defines = |b: Block, row: &mut [u64]| {
        for &(v, _) in f.defines(b) {
            set_var(row, v);
        }
    };
    let rows = iterated_frontier_rows(dom, df, words, defines, keep);
    phis_from_rows(words, &rows, keep)
}

/// The `(block, variable)` pairs set in `rows AND keep` (`words` words per block), in block
/// order, variables ascending.
fn phis_from_rows(
    words: usize,
    rows: &[u64],
    keep: impl Fn(Block, usize) -> u64,
) -> Vec<(Block, Var)> {
    if words == 0 {
        return Vec::new();
    }
    let blocks = || {
        rows.chunks_exact(words)
            .enumerate()
            .map(|(i, row)| (Block::new(i), row))
    };
    // Counted first: a vector grown by doubling would touch about twice the memory.
    let mut count = 0;
    for (b, row) in blocks() {
        for (w, &word) in row.iter().enumerate() {
            count += (word & keep(b, w)).count_ones() as usize;
        }
    }
    let mut phis = Vec::with_capacity(count);
    for (b, row) in blocks() {
        for (w, &word) in row.iter().enumerate() {
            let mut bits = word & keep(b, w);
            while bits != 0 {
                phis.push((b, Var::new(w * 64 + bits.trailing_zeros() as usize)));
                bits &= bits - 1;
            }
        }
    }
    phis
}

/// Groups the phis by block: kept as they are when already in block order, else a stable
/// counting sort ([`Table::group`]), so a variable-major list comes out with variables
/// ascending within each block.
fn group_by_block(n: usize, phis: Vec<(Block, Var)>) -> Placement {
    if phis.windows(2).all(|w| w[0].0 <= w[1].0) {
        let start = block_starts(n, &phis);
        return Placement { phis, start };
    }
    let (start, phis) =
        Table::group(n, phis.iter().map(|&(b, v)| (b.index(), (b, v)))).into_parts();
    Placement { phis, start }
}

/// Where each of `n` blocks' phis start in `phis`, which is in block order; one more entry
/// gives the end.
pub(crate) fn block_starts(n: usize, phis: &[(Block, Var)]) -> Vec<u32> {
    let mut start = vec![0u32; n + 1];
    for &(b, _) in phis {
        start[b.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    start
}

/// Placement one variable at a time, with reusable stamped state.
struct PerVariable<'a> {
    f: &'a Function,
    dom: &'a DomTree,
    cfg: &'a Reachable<'a, Cfg>,
    live: LiveInCalculator,
    live_sets: Option<LiveSets>,
    idf: IdfCalculator,
    frontiers: Option<Frontiers>,
    def_blocks: Vec<Block>,
    /// `v + 1` on the reachable blocks defining `v`, while `v` is placed.
    def_mark: Vec<u32>,
    phi_blocks: Vec<Block>,
    /// The phis placed, as bit rows (`⌈variables / 64⌉` words per block) if given...
    rows: Option<Vec<u64>>,
    /// ...else listed, variable-major.
    phis: Vec<(Block, Var)>,
}

impl<'a> PerVariable<'a> {
    fn new(
        f: &'a Function,
        dom: &'a DomTree,
        cfg: &'a Reachable<'a, Cfg>,
        live_sets: Option<LiveSets>,
        frontiers: Option<Frontiers>,
        rows: Option<Vec<u64>>,
    ) -> Self {
        let n = f.num_blocks();
        PerVariable {
            f,
            dom,
            cfg,
            live: LiveInCalculator::new(if live_sets.is_some() { 0 } else { n }),
            live_sets,
            idf: IdfCalculator::new(n),
            frontiers,
            def_blocks: Vec::new(),
            def_mark: vec![0; n],
            phi_blocks: Vec::new(),
            rows,
            phis: Vec::new(),
        }
    }

    /// Places the phis of `v`.
    fn place(&mut self, v: Var, flavour: Flavour) {
        let (f, dom) = (self.f, self.dom);
        if f.var_uses(v).is_empty() && flavour != Flavour::Minimal {
            return;
        }
        // Stamps are `v + 1`, unique per variable, so no mark is ever cleared.
        let stamp = v.as_u32() + 1;
        self.def_blocks.clear();
        for &(b, _) in f.var_defs(v) {
            if dom.is_reachable(b) {
                self.def_mark[b.index()] = stamp;
                self.def_blocks.push(b);
            }
        }
        if flavour == Flavour::Pruned && self.single_reaching_definition(v) {
            return;
        }
        self.phi_blocks.clear();
        let pruned = flavour == Flavour::Pruned;
        if pruned && self.live_sets.is_none() {
            let marks = &self.def_mark;
            self.live.compute(self.cfg, dom, f.var_depends(v), |b| {
                marks[b.index()] == stamp
            });
        }
        let (sets, live, cfg) = (&self.live_sets, &self.live, self.cfg);
        let live_in = |b| match sets {
            _ if !pruned => true,
            Some(sets) => sets.is_live_in(b, v),
            None => live.is_live_in(b),
        };
        let live_out = |b| match sets {
            _ if !pruned => true,
            Some(sets) => sets.is_live_out(cfg, b, v),
            None => live.is_live_out(b),
        };
        match &self.frontiers {
            Some(df) => {
                self.idf
                    .compute_with_frontiers(df, &self.def_blocks, live_in, &mut self.phi_blocks)
            }
            None => self.idf.compute_live(
                self.cfg,
                dom,
                &self.def_blocks,
                live_in,
                live_out,
                &mut self.phi_blocks,
            ),
        }
        match &mut self.rows {
            Some(rows) => {
                let words = row_words(f);
                for &b in &self.phi_blocks {
                    set_var(&mut rows[b.index() * words..], v);
                }
            }
            None => self.phis.extend(self.phi_blocks.iter().map(|&b| (b, v))),
        }
    }

    /// The common case of a variable assigned in one block `d` that strictly dominates every
    /// block reading it upward-exposed (or assigned nowhere): every path from a block of
    /// `DF+(d)` to a read passes `d`'s definition, so the variable is live into none of them
    /// and pruned SSA places no phi (every read sees `d`'s definition, or nothing). True in
    /// that case, found without liveness or frontier walks.
    fn single_reaching_definition(&self, v: Var) -> bool {
        let dom = self.dom;
        match self.def_blocks[..] {
            [] => true,
            [d] => self
                .f
                .var_depends(v)
                .all(|b| !dom.is_reachable(b) || dom.strictly_dominates(d, b)),
            _ => false,
        }
    }
}

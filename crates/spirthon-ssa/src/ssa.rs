//! SSA construction: phi placement, lookup, trivial-phi removal, and the "may be used before
//! it is assigned" analysis.
//!
//! Phis are placed for each variable in turn (all per-variable state is stamped, so memory
//! stays `O(blocks + uses + phis)`):
//! 1. its defining blocks are those of [`Function::var_defs`] that are reachable; when there
//!    is none, or one that strictly dominates every read, pruned SSA needs no phi (the
//!    common case of a variable assigned once);
//! 2. [`Flavour::Pruned`] computes its live-in blocks ([`crate::live`]);
//! 3. phis go on the iterated dominance frontier of the defining blocks
//!    ([`crate::frontier::IdfCalculator`]), restricted to live-in blocks when pruned (Cytron
//!    et al. 1991), to variables with an upward-exposed use when semi-pruned (Briggs et al.
//!    1998), and unrestricted when minimal.
//!
//! Then every upward-exposed use, and every phi argument (the value at the end of the
//! predecessor), is looked up along the dominator chain, for all variables together in one
//! preorder walk of the dominator tree (module `lookup`).
//!
//! On the phis as placed, a phi "may be unassigned" when one of its arguments is undefined
//! (the lookup reached the entry) or such a phi; every use whose value is undefined or such a
//! phi is reported. Then phis whose arguments are all one value or the phi itself are
//! replaced by that value (Braun et al. 2013, `tryRemoveTrivialPhi`), repeatedly until a
//! full pass finds none.
//!
//! Invariants of the result ([`crate::verify()`] checks them): every phi is in a reachable
//! block and has exactly one argument per reachable predecessor; each argument's definition
//! dominates the end of its predecessor; every use's definition strictly dominates the use's
//! block (a phi in the use's own block counts, since phis come first); no value refers to an
//! unresolved read. Uses in unreachable blocks resolve to [`Val::Undef`] and are not
//! reported: that code never runs.
//!
//! What it does not do: it does not copy-propagate client values, fold constants or remove
//! dead phis (minimal and semi-pruned SSA keep theirs; that is their point).

use crate::dom::DomTree;
use crate::frontier::{dominance_frontiers_within, Frontiers, IdfCalculator};
use crate::function::{Function, Operand};
use crate::graph::{Cfg, Graph, Reachable};
use crate::ids::{Block, Phi, UseId, Value, Var};
use crate::live::{LiveInCalculator, LiveSets};
use crate::lookup::{resolve_all, Raw};
use crate::table::Table;

/// Which blocks get phis, as the literature defines the three forms.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Flavour {
    /// Every block of the iterated dominance frontier of a variable's definitions.
    Minimal,
    /// As minimal, but only for variables read in some block before being defined there.
    SemiPruned,
    /// As minimal, but only where the variable is live-in.
    #[default]
    Pruned,
}

/// How [`construct_with`] solves liveness and iterated frontiers. Every choice gives the same
/// result; the methods differ in speed, and the forced ones let tests compare them.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Method {
    /// The dense method when its tables stay within a few times the function's own size
    /// (see [`Options`]); the sparse one otherwise.
    #[default]
    Auto,
    /// Liveness: one bit matrix for all variables ([`crate::live::LiveSets`]). Frontiers:
    /// materialised by the runner walk, then a worklist per variable.
    Dense,
    /// Liveness: one backward walk per variable ([`crate::live::LiveInCalculator`]).
    /// Frontiers: the level-ordered walk per variable, materialising nothing.
    Sparse,
}

/// What to build and how. `Options::default()` is pruned SSA with automatic methods.
///
/// With [`Method::Auto`], liveness is dense when the matrix needs at most
/// `4 × (blocks + uses + definitions)` words (always, for up to 256 variables), and
/// frontiers are materialised unless their total size passes `2 × (blocks + edges)` (as it
/// does on ladder-shaped graphs, where it is quadratic). Memory stays
/// `O(blocks + edges + uses + phis)` either way.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Options {
    pub flavour: Flavour,
    pub liveness: Method,
    pub frontiers: Method,
}

/// A resolved value: a client value, a phi, or undefined.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Val {
    Value(Value),
    Phi(Phi),
    Undef,
}

/// Counts that let flavours be compared.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    /// Phis placed before trivial ones were removed.
    pub placed: usize,
    /// Phis removed as trivial.
    pub trivial: usize,
}

/// The SSA form of a [`Function`]: side tables keyed by block, phi and use.
#[derive(Clone, Debug)]
pub struct Ssa {
    dom: DomTree,
    phi_block: Vec<Block>,
    phi_var: Vec<Var>,
    arg_start: Vec<u32>,
    args: Vec<(Block, Val)>,
    block_phi_start: Vec<u32>,
    use_values: Vec<Val>,
    maybe_undefined: Vec<UseId>,
    stats: Stats,
}

impl Ssa {
    pub fn dom(&self) -> &DomTree {
        &self.dom
    }
    /// The dominator tree, for a client that keeps it after the rest is no longer needed.
    pub fn into_dom(self) -> DomTree {
        self.dom
    }
    pub fn num_phis(&self) -> usize {
        self.phi_block.len()
    }
    pub fn phi_block(&self, p: Phi) -> Block {
        self.phi_block[p.index()]
    }
    pub fn phi_var(&self, p: Phi) -> Var {
        self.phi_var[p.index()]
    }
    /// One `(predecessor, value)` per reachable predecessor, in predecessor order.
    pub fn phi_args(&self, p: Phi) -> &[(Block, Val)] {
        &self.args[self.arg_start[p.index()] as usize..self.arg_start[p.index() + 1] as usize]
    }
    /// The phis at the top of `b`, ordered by variable. Phi ids are dense and grouped by block.
    pub fn phis_in(&self, b: Block) -> impl ExactSizeIterator<Item = Phi> + '_ {
        let (s, e) = (
            self.block_phi_start[b.index()],
            self.block_phi_start[b.index() + 1],
        );
        (s..e).map(Phi::from_u32)
    }
    pub fn use_value(&self, u: UseId) -> Val {
        self.use_values[u.index()]
    }
    /// What an operand of the input denotes in SSA form.
    pub fn resolve(&self, op: Operand) -> Val {
        match op {
            Operand::Value(v) => Val::Value(v),
            Operand::Use(u) => self.use_value(u),
        }
    }
    /// Uses that some path from the entry reaches with the variable unassigned, in order.
    pub fn maybe_undefined(&self) -> &[UseId] {
        &self.maybe_undefined
    }
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

/// Builds SSA form of the given flavour with automatic methods. Infallible: a [`Function`]
/// is well-formed by construction.
pub fn construct(f: &Function, flavour: Flavour) -> Ssa {
    construct_with(
        f,
        Options {
            flavour,
            ..Options::default()
        },
    )
}

/// Builds SSA form as `options` say.
pub fn construct_with(f: &Function, options: Options) -> Ssa {
    let dom = DomTree::compute(f.cfg());
    let mut c = Construction::new(f, &dom, options);
    for v in 0..f.num_vars() {
        c.place(Var::new(v), options.flavour);
    }
    c.resolve_reads();
    let placed = c.phis.len();
    let maybe_undefined = c.unassigned_uses();
    let removed = c.remove_trivial_phis();
    let (phi_block, phi_var, arg_start, args, block_phi_start, use_values) = c.compact();
    Ssa {
        dom,
        phi_block,
        phi_var,
        arg_start,
        args,
        block_phi_start,
        use_values,
        maybe_undefined,
        stats: Stats {
            placed,
            trivial: removed,
        },
    }
}

struct Construction<'a> {
    f: &'a Function,
    dom: &'a DomTree,
    cfg: Reachable<'a, Cfg>,
    live: LiveInCalculator,
    live_sets: Option<LiveSets>,
    idf: IdfCalculator,
    frontiers: Option<Frontiers>,
    phis: Vec<(Block, Var)>,
    arg_start: Vec<u32>,
    args: Vec<(Block, Raw)>,
    uses: Vec<Raw>,
    replaced: Vec<Option<Raw>>,
    def_blocks: Vec<Block>,
    /// `v + 1` on the reachable blocks defining `v`, while `v` is placed.
    def_mark: Vec<u32>,
    phi_blocks: Vec<Block>,
}

impl<'a> Construction<'a> {
    fn new(f: &'a Function, dom: &'a DomTree, options: Options) -> Self {
        let n = f.num_blocks();
        let cfg = Reachable::new(f.cfg(), |b| dom.is_reachable(b));
        let size = n + f.num_uses() + f.num_defs();
        let dense_live = match options.liveness {
            Method::Auto => LiveSets::words_needed(f) <= 4 * size,
            method => method == Method::Dense,
        };
        let live_sets = (options.flavour == Flavour::Pruned && dense_live)
            .then(|| LiveSets::compute(&cfg, dom, f));
        let limit = match options.frontiers {
            Method::Auto => Some(2 * (n + f.cfg().num_edges())),
            Method::Dense => Some(usize::MAX),
            Method::Sparse => None,
        };
        let frontiers = limit.and_then(|limit| dominance_frontiers_within(&cfg, dom, limit));
        Construction {
            f,
            dom,
            cfg,
            live: LiveInCalculator::new(if live_sets.is_some() { 0 } else { n }),
            live_sets,
            idf: IdfCalculator::new(n),
            frontiers,
            phis: Vec::new(),
            arg_start: vec![0],
            args: Vec::new(),
            uses: vec![Raw::Undef; f.num_uses()],
            replaced: Vec::new(),
            def_blocks: Vec::new(),
            def_mark: vec![0; n],
            phi_blocks: Vec::new(),
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
            self.live.compute(&self.cfg, dom, f.var_depends(v), |b| {
                marks[b.index()] == stamp
            });
        }
        let (sets, live) = (&self.live_sets, &self.live);
        let live_in = |b| match sets {
            _ if !pruned => true,
            Some(sets) => sets.is_live_in(b, v),
            None => live.is_live_in(b),
        };
        let live_out = |b| match sets {
            _ if !pruned => true,
            Some(sets) => sets.is_live_out(b, v),
            None => live.is_live_out(b),
        };
        match &self.frontiers {
            Some(df) => {
                self.idf
                    .compute_with_frontiers(df, &self.def_blocks, live_in, &mut self.phi_blocks)
            }
            None => self.idf.compute_live(
                &self.cfg,
                dom,
                &self.def_blocks,
                live_in,
                live_out,
                &mut self.phi_blocks,
            ),
        }
        for &b in &self.phi_blocks {
            self.phis.push((b, v));
            let preds = self.cfg.predecessors(b);
            self.args.extend(preds.iter().map(|&p| (p, Raw::Undef)));
            self.arg_start.push(self.args.len() as u32);
        }
    }

    /// Resolves every use and phi argument ([`crate::lookup`]).
    fn resolve_reads(&mut self) {
        resolve_all(
            self.f,
            &self.cfg,
            self.dom,
            &self.phis,
            &self.arg_start,
            &mut self.args,
            &mut self.uses,
        );
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

    /// Uses in reachable blocks that some path reaches with their variable unassigned.
    ///
    /// Computed on the phis as placed, before reads and trivial phis are resolved: there,
    /// [`Raw::Undef`] means exactly "the lookup reached the entry with no definition". (After
    /// resolution, `x = x; y = x` would make the second read look undefined too, though `x`
    /// was assigned.) A phi is tainted when an argument is undefined or a tainted phi.
    fn unassigned_uses(&self) -> Vec<UseId> {
        let n = self.phis.len();
        let mut worklist: Vec<usize> = (0..n)
            .filter(|&p| self.args[self.args_of(p)].iter().any(|a| a.1 == Raw::Undef))
            .collect();
        let mut tainted = vec![false; n];
        for &p in &worklist {
            tainted[p] = true;
        }
        let users = phi_users(n, &self.arg_start, &self.args);
        while let Some(p) = worklist.pop() {
            for &u in users.row(p) {
                if !tainted[u as usize] {
                    tainted[u as usize] = true;
                    worklist.push(u as usize);
                }
            }
        }
        (0..self.uses.len())
            .filter(|&u| self.dom.is_reachable(self.f.use_site(UseId::new(u)).0))
            .filter(|&u| match self.uses[u] {
                Raw::Undef => true,
                Raw::Phi(p) => tainted[p.index()],
                Raw::Value(_) | Raw::Use(_) => false,
            })
            .map(UseId::new)
            .collect()
    }

    /// Follows reads to what they read and removed phis to their replacements, compressing
    /// the path. The result is a client value, a live phi, or undefined.
    fn resolve(&mut self, r: Raw) -> Raw {
        let mut end = r;
        loop {
            end = match end {
                Raw::Use(u) => self.uses[u.index()],
                Raw::Phi(p) => match self.replaced[p.index()] {
                    Some(next) => next,
                    None => break,
                },
                _ => break,
            };
        }
        let mut cur = r;
        while cur != end {
            cur = match cur {
                Raw::Use(u) => std::mem::replace(&mut self.uses[u.index()], end),
                Raw::Phi(p) => self.replaced[p.index()].replace(end).unwrap_or(end),
                _ => end,
            };
        }
        end
    }

    fn args_of(&self, p: usize) -> std::ops::Range<usize> {
        self.arg_start[p] as usize..self.arg_start[p + 1] as usize
    }

    /// The value a trivial phi stands for, or `None` if the phi merges two distinct values.
    fn trivial_value(&mut self, p: usize) -> Option<Raw> {
        let me = Raw::Phi(Phi::new(p));
        let mut same = None;
        for i in self.args_of(p) {
            let a = self.resolve(self.args[i].1);
            self.args[i].1 = a;
            if a == me || Some(a) == same {
                continue;
            }
            if same.is_some() {
                return None;
            }
            same = Some(a);
        }
        Some(same.unwrap_or(Raw::Undef))
    }

    /// Removes trivial phis until none is left; returns how many went.
    ///
    /// A worklist of phis to (re)examine: replacing `p` by a value sends every phi that
    /// reads `p` back to the list, since one of its arguments changed. When `p` is replaced
    /// by another phi `q`, `p`'s readers now read `q` and must come back when `q` goes too:
    /// `q` takes over `p`'s readers by joining `p`'s list of merged phis onto its own (a
    /// linked list, so the join is `O(1)`), and replacing `q` revisits the readers of every
    /// phi merged into it (Braun et al. 2013 rewire the users the same way).
    fn remove_trivial_phis(&mut self) -> usize {
        let n = self.phis.len();
        self.replaced = vec![None; n];
        for i in 0..self.args.len() {
            self.args[i].1 = self.resolve(self.args[i].1);
        }
        let users = phi_users(n, &self.arg_start, &self.args);
        let mut merged = Merged::new(n);
        let mut removed = 0;
        let mut worklist: Vec<usize> = (0..n).rev().collect();
        let mut queued = vec![true; n];
        while let Some(p) = worklist.pop() {
            queued[p] = false;
            if self.replaced[p].is_some() {
                continue;
            }
            let Some(value) = self.trivial_value(p) else {
                continue;
            };
            self.replaced[p] = Some(value);
            removed += 1;
            for m in merged.members(p) {
                for &u in users.row(m) {
                    let u = u as usize;
                    if !queued[u] && self.replaced[u].is_none() {
                        queued[u] = true;
                        worklist.push(u);
                    }
                }
            }
            if let Raw::Phi(q) = value {
                merged.join(q.index(), p);
            }
        }
        removed
    }

    /// Renumbers the surviving phis grouped by block and turns every value into a [`Val`].
    #[allow(clippy::type_complexity)]
    fn compact(
        &mut self,
    ) -> (
        Vec<Block>,
        Vec<Var>,
        Vec<u32>,
        Vec<(Block, Val)>,
        Vec<u32>,
        Vec<Val>,
    ) {
        let nb = self.f.num_blocks();
        let mut start = vec![0u32; nb + 1];
        for (p, &(b, _)) in self.phis.iter().enumerate() {
            if self.replaced[p].is_none() {
                start[b.index() + 1] += 1;
            }
        }
        for i in 0..nb {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut new_id = vec![u32::MAX; self.phis.len()];
        let mut order = vec![0usize; start[nb] as usize];
        for (p, &(b, _)) in self.phis.iter().enumerate() {
            if self.replaced[p].is_none() {
                new_id[p] = fill[b.index()];
                order[fill[b.index()] as usize] = p;
                fill[b.index()] += 1;
            }
        }
        let finish = |r: Raw| match r {
            Raw::Value(v) => Val::Value(v),
            Raw::Phi(p) => Val::Phi(Phi::from_u32(new_id[p.index()])),
            Raw::Undef | Raw::Use(_) => Val::Undef,
        };
        let mut phi_block = Vec::with_capacity(order.len());
        let mut phi_var = Vec::with_capacity(order.len());
        let mut arg_start = vec![0u32];
        let mut args = Vec::new();
        for &p in &order {
            phi_block.push(self.phis[p].0);
            phi_var.push(self.phis[p].1);
            for i in self.args_of(p) {
                let (pred, a) = self.args[i];
                let a = self.resolve(a);
                args.push((pred, finish(a)));
            }
            arg_start.push(args.len() as u32);
        }
        let use_values = (0..self.uses.len())
            .map(|u| {
                let r = self.resolve(Raw::Use(UseId::new(u)));
                finish(r)
            })
            .collect();
        (phi_block, phi_var, arg_start, args, start, use_values)
    }
}

/// For each phi, the phis merged into it by trivial-phi removal, as singly linked lists
/// that start at the phi itself and keep a tail pointer.
struct Merged {
    tail: Vec<u32>,
    next: Vec<u32>,
}

impl Merged {
    fn new(n: usize) -> Merged {
        Merged {
            tail: (0..n as u32).collect(),
            next: vec![u32::MAX; n],
        }
    }

    /// Appends `p`'s list to `q`'s.
    fn join(&mut self, q: usize, p: usize) {
        let t = self.tail[q] as usize;
        self.next[t] = p as u32;
        self.tail[q] = self.tail[p];
    }

    fn members(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(p as u32), |&m| {
            let next = self.next[m as usize];
            (next != u32::MAX).then_some(next)
        })
        .map(|m| m as usize)
    }
}

/// For each phi, the phis that take it as an argument.
fn phi_users(n: usize, arg_start: &[u32], args: &[(Block, Raw)]) -> Table<u32> {
    let mut pairs = Vec::new();
    for p in 0..n {
        for &(_, a) in &args[arg_start[p] as usize..arg_start[p + 1] as usize] {
            if let Raw::Phi(q) = a {
                if q.index() != p {
                    pairs.push((q.index(), p as u32));
                }
            }
        }
    }
    Table::group(n, pairs.into_iter())
}

/// A readable listing of the SSA form: per reachable block in reverse post-order, its idom,
/// its phis with their arguments, and its resolved uses.
pub fn dump(f: &Function, ssa: &Ssa) -> String {
    use std::fmt::Write;
    let mut uses_by_block: Vec<Vec<UseId>> = vec![Vec::new(); f.num_blocks()];
    for u in 0..f.num_uses() {
        let u = UseId::new(u);
        uses_by_block[f.use_site(u).0.index()].push(u);
    }
    let mut out = String::new();
    for &b in ssa.dom().rpo() {
        let idom = ssa.dom().idom(b).map_or("-".to_string(), |d| d.to_string());
        let _ = writeln!(out, "{b}: idom {idom}");
        for p in ssa.phis_in(b) {
            let args: Vec<String> = ssa
                .phi_args(p)
                .iter()
                .map(|(pred, a)| format!("{pred}: {}", show(*a)))
                .collect();
            let _ = writeln!(out, "  {p} = phi {} [{}]", ssa.phi_var(p), args.join(", "));
        }
        for &u in &uses_by_block[b.index()] {
            let _ = writeln!(
                out,
                "  {u} {} = {}",
                f.use_site(u).1,
                show(ssa.use_value(u))
            );
        }
    }
    out
}

fn show(v: Val) -> String {
    match v {
        Val::Value(x) => x.to_string(),
        Val::Phi(p) => p.to_string(),
        Val::Undef => "undef".to_string(),
    }
}

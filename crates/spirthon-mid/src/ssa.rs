//! Applying SSA construction (the `spirthon-ssa` crate: pruned SSA after Cytron et al. 1991)
//! to a lowered function, and the two errors it finds in the source.
//!
//! - A variable read that no assignment reaches on some path: "`x` may be used before it is
//!   assigned", once per name, at its first such read. Paths follow Python's control
//!   flow without evaluating conditions, except the lowering's own flags: a loop's "left by
//!   `break`" flag, which decides whether its `else` clause runs, and the value of `and`/`or`
//!   on bools, which is its left operand's where that decided it. A branch on such a flag
//!   goes only the way the flag's value on the path allows. So `m` assigned before every
//!   `break` and in the `else` clause is assigned after the loop, though the loop's merge
//!   block joins the two ways out before the flag splits them again; and `y` in
//!   `if a and (y := f()):` is assigned in the `if`'s body, as `r` is in a case's guard and
//!   body after `case 1 | 2 as r if r == 2:`.
//! - A func that must return a value whose end is reachable: "missing return".
//!
//! The result is the same CFG with every operand a [`Ref`] (an instruction, a phi, or an
//! undefined value of the variable's type) and `phis` and `reachable` filled.

use spirthon_ir::lowered::Lowered;
use spirthon_ir::{
    Block, BlockData, Const, Diagnostic, Function, Inst, Op, Operand, PhiData, Ref, Term, Ty, Var,
};
use spirthon_ssa::{Flavour, Phi, Val};

fn to_ref(v: Val, ty: Ty) -> Ref {
    match v {
        Val::Value(v) => Ref::Inst(v),
        Val::Phi(p) => Ref::Phi(p),
        Val::Undef => Ref::Undef(ty),
    }
}

/// SSA form of one lowered function; its source errors go to `diags`. A variable the
/// lowering introduced (no name) that may be read unassigned is no error of the source: it
/// follows an error lowering reported (it stopped half-way through an expression), or it is
/// a compiler bug; `hidden_unassigned` is set, and the caller decides which.
pub fn apply(
    l: Lowered,
    diags: &mut Vec<Diagnostic>,
    hidden_unassigned: &mut bool,
) -> Function<Ref> {
    let ssa = spirthon_ssa::construct(&l.ssa_in, Flavour::Pruned);
    let f = l.func;
    report_undefined(&l.ssa_in, &l.use_spans, &ssa, &f, diags, hidden_unassigned);
    let dom = ssa.dom();
    if let Some(b) = l.fallthrough {
        if dom.is_reachable(b) {
            diags.push(missing_return(&f, &l.source_name));
        }
    }
    let resolve = |o: Operand| -> Ref {
        match o {
            Operand::Value(v) => Ref::Inst(v),
            Operand::Use(u) => to_ref(ssa.use_value(u), f.vars[l.ssa_in.use_site(u).1].ty),
        }
    };
    let insts = f
        .insts
        .iter()
        .map(|i| Inst {
            op: i.op,
            ty: i.ty,
            args: i.args.iter().map(|&a| resolve(a)).collect(),
            span: i.span,
            var: i.var,
        })
        .collect();
    let blocks = f
        .blocks
        .iter()
        .map(|b| BlockData {
            insts: b.insts.clone(),
            merge: b.merge,
            term: match &b.term {
                Term::Open | Term::Unreachable => Term::Unreachable,
                Term::Jump(t) => Term::Jump(*t),
                Term::Branch(c, t, e) => Term::Branch(resolve(*c), *t, *e),
                Term::Switch(c, d, cases) => Term::Switch(resolve(*c), *d, cases.clone()),
                Term::Return(r) => Term::Return(r.map(resolve)),
            },
        })
        .collect();
    let phis = (0..ssa.num_phis())
        .map(|i| {
            let p = Phi::new(i);
            let ty = f.vars[ssa.phi_var(p)].ty;
            PhiData {
                block: ssa.phi_block(p),
                var: ssa.phi_var(p),
                ty,
                args: ssa.phi_args(p).map(|(b, v)| (b, to_ref(v, ty))).collect(),
                live: true,
            }
        })
        .collect();
    let reachable = (0..f.blocks.len())
        .map(|b| dom.is_reachable(Block::new(b)))
        .collect();
    Function {
        name: f.name,
        span: f.span,
        params: f.params,
        ret: f.ret,
        insts,
        blocks,
        order: f.order,
        vars: f.vars,
        phis,
        reachable,
    }
}

/// "may be used before it is assigned", once per Python name, at its first such read.
fn report_undefined(
    ssa_in: &spirthon_ssa::Function,
    use_spans: &[spirthon_ir::Span],
    ssa: &spirthon_ssa::Ssa,
    f: &Function<Operand>,
    diags: &mut Vec<Diagnostic>,
    hidden_unassigned: &mut bool,
) {
    let mut reported = vec![false; f.vars.len()];
    let mut names = std::collections::HashSet::new();
    let mut flags = None;
    for &u in ssa.maybe_undefined() {
        let (block, var) = ssa_in.use_site(u);
        if reported[var.index()] {
            continue;
        }
        let flags = flags.get_or_insert_with(|| Flags::of(ssa_in, f));
        if !flags.unassigned_on_some_path(ssa_in, f, var, block) {
            continue;
        }
        reported[var.index()] = true;
        let name = &f.vars[var].name;
        if name.is_empty() {
            *hidden_unassigned = true;
            continue;
        }
        // One Python name may stand for several variables (a local read before the
        // assignment that types it); the error is the name's, once.
        if !names.insert(name.as_str()) {
            continue;
        }
        diags.push(
            Diagnostic::error(
                use_spans[u.index()],
                format!("`{name}` may be used before it is assigned"),
            )
            .with_label(format!("`{name}` is not assigned on every path to here")),
        );
    }
}

/// The lowering's hidden flags: variables it introduces (no name) with a known value on
/// some path. A bool with a constant definition (a loop's "left by `break`" flag), or
/// defined by the value its block then branches on (an `and`/`or` of bools, known on the way
/// the left operand decided); an int whose constant definitions all give one value (a
/// `for` loop's counter at its start), known to hold it after such a definition. Up to 64
/// are tracked, each a bit of a path's state: known after such a definition or branch,
/// unknown after another definition. A branch on a known flag, or on a comparison of known
/// counters and constants in its block, goes only the way their values allow; any other
/// branch goes both ways.
struct Flags {
    /// Per variable, its bit when it is tracked.
    bit: Vec<Option<u8>>,
    /// Per variable, the value of a tracked int counter.
    count: Vec<Option<i128>>,
    /// The bits of flags that are not constants everywhere: forgotten once read (their
    /// reader is the branch or value right after the `and`/`or`, or the loop's test), so
    /// that paths that differ only in them join again.
    forget: u64,
}

/// A path's knowledge of the flags: which are known, and their values.
type FlagState = (u64, u64);

/// The most (block, flag state) pairs one search visits before it gives up and reports (as
/// a path-insensitive analysis would).
const MAX_STATES: usize = 1 << 16;

/// The kinds of tracked flags, in the order they take bits.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    Constant,
    Branched,
    Counter,
}

impl Flags {
    fn of(ssa_in: &spirthon_ssa::Function, f: &Function<Operand>) -> Flags {
        let mut bit = vec![None; f.vars.len()];
        let mut count = vec![None; f.vars.len()];
        let mut forget = 0u64;
        let mut next = 0u8;
        // Constant flags first, as many as before the others were tracked.
        for kind in [Kind::Constant, Kind::Branched, Kind::Counter] {
            for (var, info) in f.vars.iter_enumerated() {
                // A variable SSA construction never saw (made after lowering gave up on an
                // expression) has no definitions to track.
                if next == 64
                    || bit[var.index()].is_some()
                    || !info.name.is_empty()
                    || var.index() >= ssa_in.num_vars()
                {
                    continue;
                }
                let defs = ssa_in.var_defs(var);
                let tracked = match kind {
                    Kind::Constant => {
                        info.ty == Ty::BOOL
                            && !defs.is_empty()
                            && defs.iter().all(|&(_, o)| const_bool(f, o).is_some())
                    }
                    Kind::Branched => {
                        info.ty == Ty::BOOL
                            && defs
                                .iter()
                                .any(|&(b, o)| const_bool(f, o).is_some() || branches_on(f, b, o))
                    }
                    Kind::Counter => {
                        let mut values = defs.iter().filter_map(|&(_, o)| const_int(f, o));
                        let first = values.next();
                        count[var.index()] = first.filter(|&c| values.all(|v| v == c));
                        count[var.index()].is_some()
                    }
                };
                if tracked {
                    bit[var.index()] = Some(next);
                    if kind != Kind::Constant {
                        forget |= 1u64 << next;
                    }
                    next += 1;
                }
            }
        }
        Flags { bit, count, forget }
    }

    /// Whether definition `d = o` makes tracked `d` known: `Some(value)` (a counter's is
    /// `false`, its value being `count`), or `None` when it makes it unknown.
    fn known_def(&self, f: &Function<Operand>, d: Var, o: Operand) -> Option<bool> {
        match self.count[d.index()] {
            Some(c) => (const_int(f, o) == Some(c)).then_some(false),
            None => const_bool(f, o),
        }
    }

    /// Whether some path from the entry reaches block `b` with `v` unassigned (`b` reads `v`
    /// before assigning it), a branch on a tracked flag going only the way its value allows.
    fn unassigned_on_some_path(
        &self,
        ssa_in: &spirthon_ssa::Function,
        f: &Function<Operand>,
        v: Var,
        b: Block,
    ) -> bool {
        use spirthon_ssa::Graph;
        let cfg = ssa_in.cfg();
        let mut seen: std::collections::HashSet<(Block, FlagState)> = Default::default();
        let mut stack = vec![(cfg.entry(), (0u64, 0u64))];
        while let Some((x, state)) = stack.pop() {
            if x == b {
                return true;
            }
            if !seen.insert((x, state)) {
                continue;
            }
            if seen.len() > MAX_STATES {
                return true;
            }
            let defines = ssa_in.defines(x);
            if defines.iter().any(|&(d, _)| d == v) {
                continue;
            }
            let taken = match &f.blocks[x].term {
                Term::Branch(c, t, e) => {
                    self.value(ssa_in, f, x, *c, state)
                        .map(|c| if c { *t } else { *e })
                }
                _ => None,
            };
            // Read, a flag that is not constant everywhere is forgotten; then each
            // definition makes its flag known (a constant) or unknown (another value).
            let mut out = state;
            for (_, d) in ssa_in.uses_in(x) {
                if let Some(k) = self.bit[d.index()] {
                    let m = (1u64 << k) & self.forget;
                    out = (out.0 & !m, out.1 & !m);
                }
            }
            for &(d, o) in defines {
                if let Some(k) = self.bit[d.index()] {
                    let m = 1u64 << k;
                    out = match self.known_def(f, d, o) {
                        Some(c) => (out.0 | m, (out.1 & !m) | if c { m } else { 0 }),
                        None => (out.0 & !m, out.1 & !m),
                    };
                }
            }
            for &s in cfg.successors(x) {
                if taken.is_some_and(|t| t != s) {
                    continue;
                }
                // A flag this block defined by the value it branches on is known on each
                // way out.
                let mut out = out;
                if let Term::Branch(c, t, e) = &f.blocks[x].term {
                    if t != e {
                        for &(d, o) in defines {
                            if let (Some(k), true) = (self.bit[d.index()], o == *c) {
                                let m = 1u64 << k;
                                let known = if s == *t { m } else { 0 };
                                out = (out.0 | m, (out.1 & !m) | known);
                            }
                        }
                    }
                }
                stack.push((s, out));
            }
        }
        false
    }

    /// The value of branch condition `c` of block `x` entered with `state`: a constant, a
    /// tracked flag read before the block assigns it, or a comparison made in the block of
    /// constants and counters so read.
    fn value(
        &self,
        ssa_in: &spirthon_ssa::Function,
        f: &Function<Operand>,
        x: Block,
        c: Operand,
        state: FlagState,
    ) -> Option<bool> {
        let known = |var: Var| {
            let m = 1u64 << self.bit[var.index()]?;
            (state.0 & m != 0).then_some(state.1 & m != 0)
        };
        match c {
            Operand::Value(v) => match &f.inst(v).op {
                Op::Cmp(op) if f.blocks[x].insts.contains(&v) => {
                    let int = |o: Operand| match o {
                        Operand::Value(_) => const_int(f, o),
                        Operand::Use(u) => {
                            let var = ssa_in.use_site(u).1;
                            known(var)?;
                            self.count[var.index()]
                        }
                    };
                    let args = &f.inst(v).args;
                    let (a, b) = (int(*args.first()?)?, int(*args.get(1)?)?);
                    Some(op.holds(Some(a.cmp(&b))))
                }
                _ => const_bool(f, c),
            },
            Operand::Use(u) => {
                let var = ssa_in.use_site(u).1;
                self.count[var.index()].is_none().then_some(())?;
                known(var)
            }
        }
    }
}

/// The value of `o` when it is an int constant.
fn const_int(f: &Function<Operand>, o: Operand) -> Option<i128> {
    match o {
        Operand::Value(v) => match f.inst(v).op {
            Op::Const(c) => c.int_value(),
            _ => None,
        },
        Operand::Use(_) => None,
    }
}

/// Whether block `b` ends in a branch on `o`.
fn branches_on(f: &Function<Operand>, b: Block, o: Operand) -> bool {
    matches!(&f.blocks[b].term, Term::Branch(c, t, e) if *c == o && t != e)
}

/// The value of `o` when it is a bool constant.
fn const_bool(f: &Function<Operand>, o: Operand) -> Option<bool> {
    match o {
        Operand::Value(v) => match f.inst(v).op {
            Op::Const(Const::Bool(c)) => Some(c),
            _ => None,
        },
        Operand::Use(_) => None,
    }
}

fn missing_return(f: &Function<Operand>, name: &str) -> Diagnostic {
    Diagnostic::error(
        f.span,
        format!(
            "missing return: `{}` can reach its end without returning a value of type {}",
            name,
            f.ret.map_or(String::new(), |t| t.name())
        ),
    )
    .with_help("return a value on every path")
}

//! Which invocations of a workgroup take each barrier, and what an invocation that returned
//! early still runs.
//!
//! A barrier is a meeting of every invocation of a workgroup: on a GPU, one that some of them
//! skip is undefined behaviour (wrong results or a hang, with no error). So each `barrier()`,
//! and each call of a func that takes one, must sit in control flow that every invocation of
//! the workgroup takes alike: *workgroup-uniform* control flow. A value is uniform when it is
//! computed (without memory reads) from literals, module constants, the kernel's scalar,
//! vector and struct parameters, `len()` and `.shape`, `workgroup_id()`, `num_workgroups()`
//! and `num_threads()`; a func's parameter when every call of it that reaches a barrier
//! passes a uniform value. A local is uniform when every assignment of it assigns a uniform
//! value in uniform control flow. Control flow is uniform under a test, a loop condition or a
//! `range` that is uniform, in a loop that no `break` or `continue` leaves in some
//! invocations only. This is the divergence analysis of Karrenberg and Hack ("Whole-function
//! vectorization", CGO 2011) on the syntax tree: conservative, a fixpoint over the def (the
//! sets of non-uniform locals and of loops left non-uniformly only grow), then over the call
//! graph (the funcs' non-uniform parameters only grow).
//!
//! A `return` is not a divergence: the CUDA idiom `if i >= n: return` before a barrier means,
//! in Python, that the invocation does nothing more. An invocation that returns where a
//! barrier may still follow becomes *inactive* instead (see `lower`): it keeps running the
//! statements the plan keeps (those that take a barrier, assign a uniform local, or jump in a
//! loop it runs), so it takes the barriers the others take and computes the uniform values
//! that steer them, and skips everything else.
//!
//! Invariants of a [`BarrierPlan`]: every statement of `kept` sits in uniform control flow
//! (a barrier outside it is reported); its ancestors are kept too; `clears` holds `returns`
//! and every statement that contains one.

use spirthon_ir::hash::{FastMap, FastSet};
use spirthon_ir::{Diagnostic, Span};

use super::{Global, Lib, ModuleInfo, ParamKind};
use crate::ast::*;

/// What lowering does with the early `return`s of a def that reaches a barrier.
#[derive(Clone, Debug, Default)]
pub struct BarrierPlan {
    /// The `return`s after which the def may still take a barrier: the invocation becomes
    /// inactive there instead of leaving.
    pub returns: FastSet<StmtId>,
    /// The statements that contain such a `return`, and the returns themselves.
    pub clears: FastSet<StmtId>,
    /// The statements an inactive invocation still runs (their bodies sorted again).
    pub kept: FastSet<StmtId>,
    /// The statements that take a barrier, themselves or in their bodies.
    pub takes_barrier: FastSet<StmtId>,
    /// Kept statements that take a barrier through a call and would also act otherwise (a
    /// call that writes, an augmented store): where, for the error lowering reports when an
    /// inactive invocation may run one.
    pub acting: FastMap<StmtId, Span>,
}

/// Plans the defs that reach a barrier (by their `Item::Def`) and reports every barrier in
/// control flow that not every invocation of a workgroup takes.
pub(super) fn plan(
    m: &ModuleInfo,
    ast: &Ast,
    diags: &mut Vec<Diagnostic>,
) -> FastMap<usize, BarrierPlan> {
    let defs: Vec<usize> = (0..m.defs.len())
        .filter(|&d| m.reaches_barrier[d])
        .collect();
    let mut uniform_params: Vec<Vec<bool>> =
        m.defs.iter().map(|s| vec![true; s.params.len()]).collect();
    // The funcs' parameters: non-uniform once a call that reaches a barrier passes a
    // non-uniform value (a worklist to the fixpoint: the sets only grow).
    let mut scans: Vec<Option<Scan<'_>>> = (0..m.defs.len()).map(|_| None).collect();
    // Where each became non-uniform: the first argument found that differs.
    let mut origins: FastMap<(usize, usize), Span> = FastMap::default();
    let mut work: Vec<usize> = defs.clone();
    while let Some(d) = work.pop() {
        let scan = Scan::new(m, ast, d, &uniform_params[d]);
        for &(callee, param, at) in &scan.non_uniform_args {
            if uniform_params[callee][param] {
                uniform_params[callee][param] = false;
                origins.insert((callee, param), at);
                if !work.contains(&callee) {
                    work.push(callee);
                }
            }
        }
        scans[d] = Some(scan);
    }
    let mut plans = FastMap::default();
    for d in defs {
        let scan = scans[d].take().expect("every planned def was scanned");
        diags.extend(scan.report(d, &origins));
        plans.insert(m.defs[d].item, scan.plan());
    }
    plans
}

/// A statement, its parent and its slot there (see [`Slot`]).
type Placed = (StmtId, Option<(StmtId, Slot)>);

/// Why a statement or expression runs in non-uniform control flow: where, and a label.
type Why = Option<(Span, String)>;

/// Where a child statement list sits in its parent.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Slot {
    /// An `if`'s branches, a `match`'s chain.
    Branch,
    /// A loop's body.
    Body,
    /// A loop's `else`.
    Else,
}

/// The facts about one def.
struct Scan<'a> {
    m: &'a ModuleInfo,
    ast: &'a Ast,
    def: &'a FuncDef,
    is_kernel: bool,
    name: &'a str,
    /// The statements in pre-order, each with its parent and slot there.
    order: Vec<Placed>,
    /// Each nested statement's parent.
    parent: FastMap<StmtId, StmtId>,
    /// The innermost loop of each statement (a loop's `else` is its enclosing loop's).
    loop_of: FastMap<StmtId, StmtId>,
    locals: FastSet<String>,
    params: FastMap<&'a str, (bool, bool)>,
    arrays: FastSet<String>,
    non_uniform: FastSet<String>,
    /// Loops some `break` or `continue` leaves in some invocations only: the jump's span.
    diverges: FastMap<StmtId, (Span, bool)>,
    /// Whether the statement's own list, and its bodies, run in uniform control flow.
    ctx: FastMap<StmtId, bool>,
    inner: FastMap<StmtId, bool>,
    contains_barrier: FastSet<StmtId>,
    /// The `return`s a barrier may follow (see [`Scan::find_returns`]).
    returns: Vec<StmtId>,
    /// Calls of barrier-reaching funcs that pass a non-uniform value: (callee, parameter,
    /// the argument).
    non_uniform_args: Vec<(usize, usize, Span)>,
}

impl<'a> Scan<'a> {
    fn new(m: &'a ModuleInfo, ast: &'a Ast, d: usize, uniform_params: &[bool]) -> Scan<'a> {
        let sig = &m.defs[d];
        let def = m.def(ast, d);
        let generic: FastSet<usize> = sig.generic.iter().map(|g| g.param).collect();
        let params = sig
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let array = generic.contains(&k)
                    || matches!(p.kind, ParamKind::Array(..) | ParamKind::Records(..));
                (p.name.as_str(), (array, uniform_params[k]))
            })
            .collect();
        let mut s = Scan {
            m,
            ast,
            def,
            is_kernel: sig.is_kernel,
            name: sig.source_name(),
            order: Vec::new(),
            parent: FastMap::default(),
            loop_of: FastMap::default(),
            locals: crate::lower::assigned_names(ast, def),
            params,
            arrays: FastSet::default(),
            non_uniform: FastSet::default(),
            diverges: FastMap::default(),
            ctx: FastMap::default(),
            inner: FastMap::default(),
            contains_barrier: FastSet::default(),
            returns: Vec::new(),
            non_uniform_args: Vec::new(),
        };
        s.walk_order();
        s.find_arrays();
        while s.settle() {}
        s.find_barriers();
        s.returns = s.find_returns();
        s.find_calls();
        s
    }

    /// Pre-order, with parents and innermost loops (an explicit stack: an `elif` chain
    /// nests as deep as it is long).
    fn walk_order(&mut self) {
        let mut stack: Vec<(Placed, Option<StmtId>)> = self
            .def
            .body
            .iter()
            .rev()
            .map(|&s| ((s, None), None))
            .collect();
        while let Some(((s, parent), lp)) = stack.pop() {
            self.order.push((s, parent));
            if let Some((p, _)) = parent {
                self.parent.insert(s, p);
            }
            if let Some(l) = lp {
                self.loop_of.insert(s, l);
            }
            let mut push = |list: &[StmtId], slot: Slot, lp: Option<StmtId>| {
                stack.extend(list.iter().rev().map(|&c| ((c, Some((s, slot))), lp)));
            };
            match &self.ast.stmt(s).kind {
                StmtKind::If(_, a, b) => {
                    push(b, Slot::Branch, lp);
                    push(a, Slot::Branch, lp);
                }
                StmtKind::While(_, body, orelse) | StmtKind::For(_, _, body, orelse) => {
                    push(orelse, Slot::Else, lp);
                    push(body, Slot::Body, Some(s));
                }
                StmtKind::Match(_, _, chain) => push(std::slice::from_ref(chain), Slot::Branch, lp),
                _ => {}
            }
        }
    }

    /// Locals bound to arrays: `shared_array`/`local_array` results and copies of arrays.
    fn find_arrays(&mut self) {
        loop {
            let before = self.arrays.len();
            for &(s, _) in &self.order {
                let (targets, v): (&[ExprId], ExprId) = match &self.ast.stmt(s).kind {
                    StmtKind::Assign(t, v) => (t, *v),
                    StmtKind::AnnAssign(t, _, Some(v)) => (std::slice::from_ref(t), *v),
                    _ => continue,
                };
                if !self.is_array_value(v) {
                    continue;
                }
                for &t in targets {
                    if let ExprKind::Name(n) = &self.ast.expr(t).kind {
                        self.arrays.insert(n.clone());
                    }
                }
            }
            if self.arrays.len() == before {
                return;
            }
        }
    }

    fn is_array_value(&self, v: ExprId) -> bool {
        match &self.ast.expr(v).kind {
            ExprKind::Name(_) => self.is_array(v),
            ExprKind::Call { func, .. } => matches!(
                self.lib(*func),
                Some((Lib::Spirthon, "shared_array" | "local_array"))
            ),
            _ => false,
        }
    }

    /// Whether `e` names an array (or may: a generic parameter).
    fn is_array(&self, e: ExprId) -> bool {
        match &self.ast.expr(e).kind {
            ExprKind::Name(n) => {
                self.arrays.contains(n) || self.params.get(n.as_str()).is_some_and(|p| p.0)
            }
            _ => false,
        }
    }

    fn lib(&self, e: ExprId) -> Option<(Lib, &'a str)> {
        let locals = &self.locals;
        self.m.lib_item(self.ast, e, &|n| locals.contains(n))
    }

    /// One pass of the fixpoint: the uniform contexts top-down, the non-uniform locals and
    /// the loops left non-uniformly; whether anything grew.
    fn settle(&mut self) -> bool {
        let mut grew = false;
        for k in 0..self.order.len() {
            let (s, parent) = self.order[k];
            // A loop's `else` runs in every invocation that no `break` took out of the loop:
            // where its own statement runs, unless a `break` leaves in some only.
            let ctx = parent.is_none_or(|(p, slot)| match slot {
                Slot::Else => self.ctx[&p] && !matches!(self.diverges.get(&p), Some((_, true))),
                _ => self.inner[&p],
            });
            self.ctx.insert(s, ctx);
            let mut marks: Vec<(ExprId, bool)> = Vec::new();
            let inner = match &self.ast.stmt(s).kind {
                StmtKind::Assign(targets, v) => {
                    let u = ctx && self.uniform(*v);
                    marks.extend(targets.iter().map(|&t| (t, u)));
                    ctx
                }
                StmtKind::AnnAssign(t, _, Some(v)) => {
                    marks.push((*t, ctx && self.uniform(*v)));
                    ctx
                }
                StmtKind::AugAssign(t, _, v) => {
                    marks.push((*t, ctx && self.uniform(*v) && self.uniform(*t)));
                    ctx
                }
                StmtKind::If(test, ..) => ctx && self.uniform(*test),
                StmtKind::While(test, ..) => {
                    ctx && self.uniform(*test) && !self.diverges.contains_key(&s)
                }
                StmtKind::For(t, iter, ..) => {
                    let inner = ctx && self.uniform(*iter) && !self.diverges.contains_key(&s);
                    marks.push((*t, inner));
                    inner
                }
                StmtKind::Match(hidden, subject, _) => {
                    marks.push((*hidden, ctx && self.uniform(*subject)));
                    ctx
                }
                StmtKind::Break | StmtKind::Continue if !ctx => {
                    if let Some(&l) = self.loop_of.get(&s) {
                        let brk = matches!(self.ast.stmt(s).kind, StmtKind::Break);
                        if !self.diverges.contains_key(&l) {
                            self.diverges.insert(l, (self.ast.stmt(s).span, brk));
                            grew = true;
                        }
                    }
                    ctx
                }
                _ => ctx,
            };
            self.inner.insert(s, inner);
            for e in own_exprs(self.ast, s) {
                self.each_expr(e, |ast, x| {
                    if let ExprKind::Walrus(t, _) = ast.expr(x).kind {
                        marks.push((t, false));
                    }
                });
            }
            for (t, u) in marks {
                grew |= self.mark(t, u);
            }
        }
        grew
    }

    /// Records an assignment to target `t` of a value uniform or not; whether a local became
    /// non-uniform.
    fn mark(&mut self, t: ExprId, uniform: bool) -> bool {
        let mut grew = false;
        let mut work = vec![(t, uniform)];
        while let Some((t, u)) = work.pop() {
            match &self.ast.expr(t).kind {
                ExprKind::Name(n) if !u => grew |= self.non_uniform.insert(n.clone()),
                ExprKind::Tuple(items) => work.extend(items.iter().map(|&i| (i, u))),
                ExprKind::Subscript(base, index) => {
                    let u = u && self.uniform(*index);
                    work.push((*base, u));
                }
                ExprKind::Attr(base, _) => work.push((*base, u)),
                _ => {}
            }
        }
        grew
    }

    fn each_expr(&self, e: ExprId, mut f: impl FnMut(&Ast, ExprId)) {
        let mut work = vec![e];
        while let Some(x) = work.pop() {
            f(self.ast, x);
            self.ast.expr(x).kind.children(|c| work.push(c));
        }
    }

    /// Whether `e` has one value in every invocation of a workgroup (see the module doc).
    fn uniform(&self, e: ExprId) -> bool {
        let mut work = vec![e];
        while let Some(x) = work.pop() {
            match &self.ast.expr(x).kind {
                ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Bool(_)
                | ExprKind::None
                | ExprKind::Str(_)
                | ExprKind::Error => {}
                ExprKind::FString(_) | ExprKind::Walrus(..) => return false,
                ExprKind::Name(n) => {
                    if !self.uniform_name(n) {
                        return false;
                    }
                }
                ExprKind::Attr(base, attr) => {
                    if attr != "shape" {
                        work.push(*base);
                    }
                }
                ExprKind::Subscript(base, index) => {
                    if self.is_array(*base) || !self.indexable(*base) {
                        return false;
                    }
                    work.extend([*base, *index]);
                }
                ExprKind::Call {
                    func,
                    args,
                    keywords,
                } => match self.call_purity(*func) {
                    Purity::Uniform => {}
                    Purity::OfArgs => {
                        work.extend(args.iter().copied());
                        work.extend(keywords.iter().map(|k| k.value));
                    }
                    Purity::No => return false,
                },
                kind => kind.children(|c| work.push(c)),
            }
        }
        true
    }

    /// Whether subscripting `base` reads no memory: a vector, matrix, tuple or constant table
    /// (a name that is no array, or `.shape`).
    fn indexable(&self, base: ExprId) -> bool {
        match &self.ast.expr(base).kind {
            ExprKind::Name(_) => true,
            ExprKind::Attr(_, a) => a == "shape",
            ExprKind::Subscript(b, _) => self.indexable(*b) && !self.is_array(*b),
            _ => false,
        }
    }

    fn uniform_name(&self, n: &str) -> bool {
        if let Some(&(_, u)) = self.params.get(n) {
            return u;
        }
        if self.locals.contains(n) {
            return !self.non_uniform.contains(n);
        }
        match self.m.globals.get(n) {
            Some(Global::Opaque { .. }) => false,
            Some(_) => true,
            // A Python built-in as a value (`True` is a literal): nothing the language has.
            None => false,
        }
    }

    fn call_purity(&self, func: ExprId) -> Purity {
        if let Some((lib, item)) = self.lib(func) {
            return match (lib, item) {
                (Lib::Spirthon, "shared_array" | "local_array") => Purity::Uniform,
                (Lib::Spirthon, "subgroup_size") => Purity::OfArgs,
                (Lib::Spirthon, i)
                    if matches!(i, "global_id" | "local_id" | "local_index" | "barrier")
                        || ["subgroup_", "atomic_", "rand", "sample_"]
                            .iter()
                            .any(|p| i.starts_with(p)) =>
                {
                    Purity::No
                }
                _ => Purity::OfArgs,
            };
        }
        match &self.ast.expr(func).kind {
            ExprKind::Name(n) if self.locals.contains(n) => Purity::No,
            ExprKind::Name(n) => match self.m.globals.get(n) {
                Some(Global::Struct(_)) => Purity::OfArgs,
                Some(_) => Purity::No,
                None => match n.as_str() {
                    "len" => Purity::Uniform,
                    "print" => Purity::No,
                    _ => Purity::OfArgs,
                },
            },
            _ => Purity::No,
        }
    }

    /// Whether a call of `func` may act: an atomic, `print`, a stream's draw, or a func
    /// (which may write an array).
    fn acts(&self, func: ExprId) -> bool {
        match self.lib(func) {
            Some((Lib::Spirthon, i)) => {
                i == "print"
                    || ["atomic_", "rand", "sample_"]
                        .iter()
                        .any(|p| i.starts_with(p))
            }
            Some(_) => false,
            None => match &self.ast.expr(func).kind {
                ExprKind::Name(n) if !self.locals.contains(n) => match self.m.globals.get(n) {
                    Some(Global::Def(_)) => true,
                    Some(_) => false,
                    None => n == "print",
                },
                _ => true,
            },
        }
    }

    /// The def that a call of `func` calls, when it reaches a barrier.
    fn barrier_callee(&self, func: ExprId) -> Option<Option<usize>> {
        if let Some((Lib::Spirthon, "barrier")) = self.lib(func) {
            return Some(None);
        }
        match &self.ast.expr(func).kind {
            ExprKind::Name(n) if !self.locals.contains(n) => match self.m.globals.get(n) {
                Some(&Global::Def(c)) if self.m.reaches_barrier[c] => Some(Some(c)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Each call in the statement's own expressions that takes a barrier, with why the
    /// invocations may not all reach it: (call, callee, the culprit's span and label).
    fn barrier_calls(&self, s: StmtId) -> Vec<(ExprId, Option<usize>, Why)> {
        let mut out = Vec::new();
        let stmt_why = self.why(s);
        for e in own_exprs(self.ast, s) {
            let mut work: Vec<(ExprId, Why)> = vec![(e, stmt_why.clone())];
            while let Some((x, why)) = work.pop() {
                match &self.ast.expr(x).kind {
                    ExprKind::IfExp(test, body, orelse) => {
                        work.push((*test, why.clone()));
                        let why = why.or_else(|| {
                            (!self.uniform(*test))
                                .then(|| (self.ast.expr(*test).span, CONDITION_DIFFERS.to_string()))
                        });
                        work.push((*body, why.clone()));
                        work.push((*orelse, why));
                    }
                    ExprKind::BoolOp(_, items) => {
                        let mut why = why;
                        for &i in items {
                            work.push((i, why.clone()));
                            if why.is_none() && !self.uniform(i) {
                                why = Some((self.ast.expr(i).span, CONDITION_DIFFERS.to_string()));
                            }
                        }
                    }
                    kind => {
                        if let ExprKind::Call { func, .. } = kind {
                            if let Some(callee) = self.barrier_callee(*func) {
                                out.push((x, callee, why.clone()));
                            }
                        }
                        kind.children(|c| work.push((c, why.clone())));
                    }
                }
            }
        }
        out
    }

    /// Why statement `s` runs in non-uniform control flow: the construct where uniformity
    /// ends, at its condition (or the jump that leaves its loop), and a label.
    fn why(&self, s: StmtId) -> Why {
        if self.ctx[&s] {
            return None;
        }
        let mut cur = s;
        while let Some(&p) = self.parent.get(&cur) {
            if self.ctx[&p] && !self.inner[&p] {
                return Some(self.culprit(p));
            }
            cur = p;
        }
        None
    }

    fn culprit(&self, p: StmtId) -> (Span, String) {
        if let Some(&(span, brk)) = self.diverges.get(&p) {
            let what = if brk {
                "this `break` leaves the loop in some invocations only"
            } else {
                "this `continue` skips the rest of the loop in some invocations only"
            };
            return (span, what.into());
        }
        match &self.ast.stmt(p).kind {
            StmtKind::If(test, ..) => (self.ast.expr(*test).span, CONDITION_DIFFERS.into()),
            StmtKind::While(test, ..) => (
                self.ast.expr(*test).span,
                "this loop condition can differ between the invocations of a workgroup".into(),
            ),
            StmtKind::For(_, iter, ..) => (
                self.ast.expr(*iter).span,
                "this range can differ between the invocations of a workgroup".into(),
            ),
            _ => (self.ast.stmt(p).span, CONDITION_DIFFERS.into()),
        }
    }

    /// The statements that take a barrier, themselves or in their bodies.
    fn find_barriers(&mut self) {
        for k in (0..self.order.len()).rev() {
            let (s, parent) = self.order[k];
            let own = own_exprs(self.ast, s).into_iter().any(|e| {
                let mut found = false;
                self.each_expr(e, |ast, x| {
                    if let ExprKind::Call { func, .. } = &ast.expr(x).kind {
                        found |= self.barrier_callee(*func).is_some();
                    }
                });
                found
            });
            if own || self.contains_barrier.contains(&s) {
                self.contains_barrier.insert(s);
                if let Some((p, _)) = parent {
                    self.contains_barrier.insert(p);
                }
            }
        }
    }

    /// The arguments this def passes to the parameters of funcs that reach a barrier, when
    /// they are not uniform.
    fn find_calls(&mut self) {
        let mut out = Vec::new();
        for &(s, _) in &self.order {
            for (call, callee, why) in self.barrier_calls(s) {
                let Some(c) = callee else { continue };
                let ExprKind::Call { args, keywords, .. } = &self.ast.expr(call).kind else {
                    continue;
                };
                let params = &self.m.defs[c].params;
                for (k, &a) in args.iter().enumerate() {
                    if k < params.len() && (why.is_some() || !self.uniform(a)) {
                        out.push((c, k, self.ast.expr(a).span));
                    }
                }
                for kw in keywords {
                    if let Some(k) = params.iter().position(|p| p.name == kw.name) {
                        if why.is_some() || !self.uniform(kw.value) {
                            out.push((c, k, kw.span));
                        }
                    }
                }
            }
        }
        self.non_uniform_args = out;
    }

    /// The barriers in non-uniform control flow, and the early `return value`s of a func
    /// that a barrier may follow.
    fn report(&self, d: usize, origins: &FastMap<(usize, usize), Span>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for &(s, _) in &self.order {
            for (call, callee, why) in self.barrier_calls(s) {
                let Some((at, label)) = why else { continue };
                // A parameter that differs because of a call: that call's argument.
                let passed = self.m.defs[d].params.iter().enumerate().find_map(|(k, p)| {
                    let read = self.reads_at(at, &p.name);
                    origins.get(&(d, k)).filter(|_| read).map(|&o| (o, &p.name))
                });
                let span = self.ast.expr(call).span;
                let what = match callee {
                    None => "`barrier()` is".to_string(),
                    Some(c) => format!(
                        "`{}()` takes `barrier()`, and this call is",
                        self.m.defs[c].source_name()
                    ),
                };
                let diag = Diagnostic::error(
                    span,
                    format!(
                        "{what} in control flow that not every invocation of the workgroup takes"
                    ),
                )
                .with_secondary(at, label);
                let diag = match passed {
                    Some((o, name)) => diag.with_secondary(
                        o,
                        format!(
                            "a call passes `{name}` a value that can differ between invocations"
                        ),
                    ),
                    None => diag,
                };
                out.push(
                    diag.with_note("every invocation of a workgroup must take the same barriers: on a GPU, a barrier that some of them skip is undefined behaviour (wrong results or a hang, with no error)")
                    .with_help("take the barrier where every invocation reaches it (an invocation that returned early still takes the barriers after its `return`), or make the condition depend only on values every invocation computes alike: literals, module constants, the kernel's scalar parameters, `len()`, `workgroup_id()`, `num_workgroups()`, `num_threads()` and locals assigned only from them (a value read from memory, a func's result or a walrus target counts as differing)"),
                );
            }
        }
        // A `while True:` with barriers that only `return`s leave: the inactive invocations
        // would go on taking its barriers for ever.
        for &(l, _) in &self.order {
            let StmtKind::While(test, body, _) = &self.ast.stmt(l).kind else {
                continue;
            };
            let forever = matches!(self.ast.expr(*test).kind, ExprKind::Bool(true))
                || matches!(self.ast.expr(*test).kind, ExprKind::Int(v) if v != 0);
            if !forever
                || !self.contains_barrier.contains(&l)
                || crate::lower::has_jump(self.ast, body, false)
            {
                continue;
            }
            if let Some(&r) = self.returns.iter().find(|&&r| self.inside(r, l)) {
                out.push(
                    Diagnostic::error(self.ast.stmt(r).span, "an invocation that returns here would take the barriers of this loop for ever: it ends only by `return`")
                        .with_secondary(self.ast.expr(*test).span, "this loop takes a barrier and has no condition")
                        .with_help("give the loop a condition that every invocation of the workgroup computes alike, or `break` from it under one"),
                );
            }
        }
        if !self.is_kernel {
            for &s in &self.returns {
                out.push(
                    Diagnostic::error(
                        self.ast.stmt(s).span,
                        format!("`{}` returns here, before a `barrier()` it takes", self.name),
                    )
                    .with_note("an invocation that returns from a func goes on in its caller, so it would skip the func's later barriers while the others of its workgroup wait at them")
                    .with_help("instead of returning, put the rest of the work under an `if` (a kernel may return before a barrier: the invocation then does nothing more)"),
                );
            }
        }
        out
    }

    /// Whether statement `s` is nested in statement `l`.
    fn inside(&self, s: StmtId, l: StmtId) -> bool {
        let mut cur = s;
        while let Some(&p) = self.parent.get(&cur) {
            if p == l {
                return true;
            }
            cur = p;
        }
        false
    }

    /// Whether the expression at `span` (a condition) reads `name`.
    fn reads_at(&self, span: Span, name: &str) -> bool {
        let ids = self.def.exprs.clone();
        ids.map(ExprId).any(|e| {
            let x = self.ast.expr(e);
            span.start <= x.span.start
                && x.span.end <= span.end
                && matches!(&x.kind, ExprKind::Name(n) if n == name)
        })
    }

    /// The `return`s that a barrier may follow: one later in a list that holds the return,
    /// or in a loop around it.
    fn find_returns(&self) -> Vec<StmtId> {
        let mut out = Vec::new();
        let mut stack: Vec<(&[StmtId], bool)> = vec![(&self.def.body, false)];
        while let Some((list, after_list)) = stack.pop() {
            let mut after = after_list;
            for &s in list.iter().rev() {
                match &self.ast.stmt(s).kind {
                    StmtKind::Return(_) if after => out.push(s),
                    StmtKind::If(_, a, b) => stack.extend([(&a[..], after), (&b[..], after)]),
                    StmtKind::Match(_, _, chain) => {
                        stack.push((std::slice::from_ref(chain), after))
                    }
                    StmtKind::While(_, body, orelse) | StmtKind::For(_, _, body, orelse) => {
                        stack.push((body, after || self.contains_barrier.contains(&s)));
                        stack.push((orelse, after));
                    }
                    _ => {}
                }
                after |= self.contains_barrier.contains(&s);
            }
        }
        out
    }

    fn plan(&self) -> BarrierPlan {
        let returns: FastSet<StmtId> = self.returns.iter().copied().collect();
        // A kernel without such a return has no inactive invocations; a func's caller may
        // be one, so every func that reaches a barrier has a plan.
        if returns.is_empty() && self.is_kernel {
            return BarrierPlan::default();
        }
        let mut clears = FastSet::default();
        let mut kept = FastSet::default();
        // Bottom-up: children come after their parents in pre-order.
        for k in (0..self.order.len()).rev() {
            let (s, parent) = self.order[k];
            if returns.contains(&s) {
                clears.insert(s);
            }
            if self.keeps_itself(s) {
                kept.insert(s);
            }
            if let Some((p, _)) = parent {
                if clears.contains(&s) {
                    clears.insert(p);
                }
                if kept.contains(&s) {
                    kept.insert(p);
                }
            }
        }
        // A jump in a loop the inactive invocations run is theirs too, up to the loop.
        for &(s, _) in &self.order {
            if !matches!(self.ast.stmt(s).kind, StmtKind::Break | StmtKind::Continue) {
                continue;
            }
            let Some(&l) = self.loop_of.get(&s) else {
                continue;
            };
            if !kept.contains(&l) {
                continue;
            }
            let mut cur = s;
            while cur != l && kept.insert(cur) {
                cur = self.parent[&cur];
            }
        }
        let acting = kept
            .iter()
            .filter_map(|&s| self.acting(s).map(|at| (s, at)))
            .collect();
        BarrierPlan {
            returns,
            clears,
            kept,
            takes_barrier: self.contains_barrier.clone(),
            acting,
        }
    }

    /// For a simple statement that takes a barrier: a call in it that acts (other than the
    /// barrier's), or an augmented store, that an inactive invocation must not run.
    fn acting(&self, s: StmtId) -> Option<Span> {
        match &self.ast.stmt(s).kind {
            StmtKind::AugAssign(t, ..) if !matches!(self.ast.expr(*t).kind, ExprKind::Name(_)) => {
                return Some(self.ast.expr(*t).span)
            }
            StmtKind::Expr(_)
            | StmtKind::Assign(..)
            | StmtKind::AugAssign(..)
            | StmtKind::AnnAssign(..)
            | StmtKind::Return(_) => {}
            _ => return None,
        }
        let mut found = None;
        for e in own_exprs(self.ast, s) {
            self.each_expr(e, |ast, x| {
                if let ExprKind::Call { func, .. } = &ast.expr(x).kind {
                    if self.barrier_callee(*func).is_none() && self.acts(*func) {
                        found = found.or(Some(ast.expr(x).span));
                    }
                }
            });
        }
        found
    }

    /// Whether statement `s` itself must run in an inactive invocation: it takes a barrier,
    /// or assigns a uniform local (a loop whose variable is read after it).
    fn keeps_itself(&self, s: StmtId) -> bool {
        if self.contains_barrier.contains(&s) {
            return true;
        }
        if !self.ctx[&s] {
            return false;
        }
        let uniform_target = |t: ExprId| {
            let mut work = vec![t];
            let mut any = false;
            while let Some(t) = work.pop() {
                match &self.ast.expr(t).kind {
                    ExprKind::Name(n) => any |= !self.non_uniform.contains(n),
                    ExprKind::Tuple(items) => work.extend(items.iter().copied()),
                    ExprKind::Subscript(b, _) | ExprKind::Attr(b, _) if !self.is_array(*b) => {
                        work.push(*b)
                    }
                    _ => {}
                }
            }
            any
        };
        match &self.ast.stmt(s).kind {
            StmtKind::Assign(targets, _) => targets.iter().any(|&t| uniform_target(t)),
            StmtKind::AnnAssign(t, _, Some(_)) | StmtKind::AugAssign(t, ..) => uniform_target(*t),
            StmtKind::For(t, ..) => self.inner[&s] && self.read_outside(*t, s),
            _ => false,
        }
    }

    /// Whether a name of target `t` of loop `l` is read outside the loop.
    fn read_outside(&self, t: ExprId, l: StmtId) -> bool {
        let mut names = FastSet::default();
        self.each_expr(t, |ast, x| {
            if let ExprKind::Name(n) = &ast.expr(x).kind {
                names.insert(n.clone());
            }
        });
        self.order.iter().any(|&(s, _)| {
            s != l
                && !self.inside(s, l)
                && own_exprs(self.ast, s).into_iter().any(|e| {
                    let mut found = false;
                    self.each_expr(e, |ast, x| {
                        if let ExprKind::Name(n) = &ast.expr(x).kind {
                            found |= names.contains(n);
                        }
                    });
                    found
                })
        })
    }
}

enum Purity {
    /// Uniform whatever its arguments (`len`, an array's allocation).
    Uniform,
    /// Uniform when its arguments are.
    OfArgs,
    /// Not uniform: it reads the invocation, memory or a stream, or acts.
    No,
}

const CONDITION_DIFFERS: &str = "this condition can differ between the invocations of a workgroup";

/// The expressions a statement evaluates itself (not those of its bodies).
fn own_exprs(ast: &Ast, s: StmtId) -> Vec<ExprId> {
    match &ast.stmt(s).kind {
        StmtKind::Expr(e) | StmtKind::If(e, ..) | StmtKind::While(e, ..) => vec![*e],
        StmtKind::Assign(targets, v) => targets.iter().copied().chain([*v]).collect(),
        StmtKind::AugAssign(t, _, v) => vec![*t, *v],
        StmtKind::AnnAssign(t, _, v) => [*t].into_iter().chain(*v).collect(),
        StmtKind::For(t, iter, ..) => vec![*t, *iter],
        StmtKind::Return(v) => v.iter().copied().collect(),
        StmtKind::Assert(test, _) => vec![*test],
        StmtKind::Match(_, subject, _) => vec![*subject],
        _ => Vec::new(),
    }
}

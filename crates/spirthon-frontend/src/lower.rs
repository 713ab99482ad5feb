//! Typed lowering: one kernel or func body to a CFG over variables.
//!
//! Types are checked while lowering, in source order, which is exactly the language's rule:
//! a local variable's type is fixed by its first assignment in the text. Literals stay
//! untyped ([`Lit`]) until they meet a typed operand, and literal expressions are folded with
//! Python's arithmetic.
//!
//! No "assign" instruction is ever emitted: an assignment records `var = operand` in the
//! current block ([`FunctionBuilder::def_var`]), a read is [`FunctionBuilder::use_var`], and
//! SSA construction resolves the rest. Control flow follows Python's own structure: every
//! `if` (and every short-circuit `and`/`or`/conditional expression that needs a branch) is a
//! selection with its own merge block, every loop has a header, a continue block and a merge
//! block, recorded as [`Merge`] on the header. Code after `return`/`break`/`continue` is
//! lowered into a fresh block with no predecessors (it is checked, never emitted).
//!
//! What it does not do: SSA, folding of values that are not literals, or deciding which
//! arrays are written (the middle end, `spirthon-mid`, does those).

use std::collections::{HashMap, HashSet};

use spirthon_ir::cfg::*;
use spirthon_ir::lowered::Lowered;
use spirthon_ir::{Const, Diagnostic, Scalar, Span, Ty};
use spirthon_ssa::FunctionBuilder;

use crate::ast::*;
use crate::lit::{self, Lit};
use crate::module::{DefSig, Global, Lib, ModuleInfo, ParamKind};

/// Module-wide state while functions are lowered.
pub struct Ctx<'a> {
    pub ast: &'a Ast,
    pub m: &'a ModuleInfo,
    pub arrays: Vec<GlobalArray>,
    /// Per function id: the def and the arrays bound to its array parameters.
    pub jobs: Vec<(usize, Vec<ArrayId>)>,
    pub job_ids: HashMap<(usize, Vec<ArrayId>), FuncId>,
    pub diags: Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    /// New module arrays for the array parameters of `sig`, bound 1, 2, … in order.
    pub fn add_arrays(&mut self, sig: &DefSig) -> Vec<ArrayId> {
        let mut ids = Vec::new();
        for p in &sig.params {
            if let ParamKind::Array(elem) = p.kind {
                ids.push(ArrayId(self.arrays.len() as u32));
                self.arrays.push(GlobalArray {
                    name: p.name.clone(),
                    elem,
                    binding: ids.len() as u32,
                    written: false,
                });
            }
        }
        ids
    }

    /// The function id for `def` with these arrays, queued for lowering on first request.
    pub fn instance(&mut self, def: usize, arrays: Vec<ArrayId>) -> FuncId {
        let key = (def, arrays);
        if let Some(&id) = self.job_ids.get(&key) {
            return id;
        }
        let id = FuncId(self.jobs.len() as u32);
        self.jobs.push(key.clone());
        self.job_ids.insert(key, id);
        id
    }
}

#[derive(Copy, Clone, Debug)]
enum Ex {
    Val(Operand, Ty),
    Lit(Lit),
    Array(ArrayId),
    /// A call of a function that returns nothing.
    Void,
    /// Already reported.
    Err,
}

#[derive(Copy, Clone)]
enum Local {
    Var(Var),
    Array(ArrayId),
}

struct LoopCtx {
    brk: Block,
    cont: Block,
    /// The loop's hidden "left by `break`" flag, when its `else` needs one.
    broke: Option<Var>,
}

/// The arguments of a `for` loop's `range(...)`.
struct RangeArgs {
    start: Operand,
    stop: Operand,
    step: Step,
    ty: Ty,
}

/// The step of a `range`: its sign is known at compile time unless it is a run-time value.
#[derive(Copy, Clone)]
enum Step {
    /// No step argument: 1.
    One,
    Literal(Operand, i64),
    Runtime(Operand),
}

/// Where a loop's `else` clause goes.
#[derive(Copy, Clone)]
enum LoopElse {
    /// No `break` can skip it: it simply follows the loop, in the merge block.
    InMerge,
    /// The loop's condition branches to this block when it fails, inside the loop construct;
    /// the clause runs there and then leaves the loop like a `break`. Exact for definite
    /// assignment: code after the loop sees only the paths that really reach it.
    Inside(Block),
    /// The clause must run after the loop (it has its own `break`/`continue` for an outer
    /// loop, or the condition is not in the header, where only an edge to the merge block is
    /// structured): a hidden flag, false before the loop and set by every `break`, decides
    /// whether it runs. Every exit edge goes straight to the merge block.
    Flag(Var),
}

struct Lower<'c, 'a> {
    cx: &'c mut Ctx<'a>,
    ast: &'a Ast,
    m: &'a ModuleInfo,
    sig: &'a DefSig,
    b: FunctionBuilder,
    f: Function<Operand>,
    cur: Block,
    locals: HashMap<String, Local>,
    /// Span of each variable's first assignment.
    var_spans: Vec<Span>,
    /// Names assigned anywhere in the body: local to the whole body, as in Python.
    assigned: HashSet<String>,
    loops: Vec<LoopCtx>,
    consts: HashMap<Const, Value>,
    use_spans: Vec<Span>,
    /// Names whose first assignment had an error: reads of them report nothing more.
    poisoned: HashSet<String>,
    /// The merge blocks of the structured constructs open at this point, innermost last.
    open: Vec<Block>,
    /// The statement being lowered, for errors that belong to no expression.
    stmt_span: Span,
    /// Whether the construct nesting limit was reported (once per function).
    too_deep: bool,
    /// How many branches target each block so far, by block index.
    joins: Vec<u32>,
    /// Whether the join limit was reported (once per function).
    too_many_joins: bool,
}

/// Lowers function `id` of the context (a kernel when `sig.is_kernel`).
pub fn lower_function(cx: &mut Ctx<'_>, id: FuncId) -> Lowered {
    let (def_index, arrays) = cx.jobs[id.index()].clone();
    let ast = cx.ast;
    let m = cx.m;
    let sig = &m.defs[def_index];
    let def = m.def(ast, def_index);
    let mut l = Lower {
        cx,
        ast,
        m,
        sig,
        b: FunctionBuilder::new(),
        f: Function {
            name: sig.name.clone(),
            span: sig.span,
            params: Vec::new(),
            ret: sig.ret,
            insts: Vec::new(),
            blocks: Vec::new(),
            order: Vec::new(),
            vars: Vec::new(),
            phis: Vec::new(),
            reachable: Vec::new(),
        },
        cur: Block::new(0),
        locals: HashMap::new(),
        var_spans: Vec::new(),
        assigned: assigned_names(ast, def),
        loops: Vec::new(),
        consts: HashMap::new(),
        use_spans: Vec::new(),
        poisoned: HashSet::new(),
        open: Vec::new(),
        stmt_span: sig.span,
        too_deep: false,
        joins: Vec::new(),
        too_many_joins: false,
    };
    let entry = l.new_block();
    l.switch(entry);
    if sig.is_kernel {
        l.launch_guard();
    }
    l.params(&arrays);
    l.stmts(&def.body);
    let mut fallthrough = None;
    match sig.ret {
        Some(_) if !sig.is_kernel => {
            fallthrough = Some(l.cur);
            l.terminate(Term::Unreachable);
        }
        _ => l.terminate(Term::Return(None)),
    }
    let ssa_in =
        l.b.finish()
            .expect("lowering never branches into the entry block");
    Lowered {
        func: l.f,
        ssa_in,
        use_spans: l.use_spans,
        fallthrough,
    }
}

/// Every name bound by an assignment or a `for` anywhere in the def's body.
fn assigned_names(ast: &Ast, def: &FuncDef) -> HashSet<String> {
    let mut out: HashSet<String> = def.params.iter().map(|p| p.name.clone()).collect();
    let mut targets = Vec::new();
    for s in def.stmts.clone() {
        match &ast.stmts[s as usize].kind {
            StmtKind::Assign(ts, _) => targets.extend(ts.iter().copied()),
            StmtKind::AugAssign(t, ..) | StmtKind::AnnAssign(t, ..) | StmtKind::For(t, ..) => {
                targets.push(*t)
            }
            _ => {}
        }
    }
    while let Some(t) = targets.pop() {
        match &ast.expr(t).kind {
            ExprKind::Name(n) => {
                out.insert(n.clone());
            }
            ExprKind::Tuple(items) => targets.extend(items.iter().copied()),
            _ => {}
        }
    }
    out
}

/// Whether a statement list contains a `break` (or, with `continues`, a `continue`) for the
/// loop it belongs to. (An explicit stack: an `elif` chain nests as deep as it is long.)
fn has_jump(ast: &Ast, body: &[StmtId], continues: bool) -> bool {
    let mut work: Vec<&[StmtId]> = vec![body];
    while let Some(list) = work.pop() {
        for &s in list {
            match &ast.stmt(s).kind {
                StmtKind::Break => return true,
                StmtKind::Continue if continues => return true,
                StmtKind::If(_, a, b) => work.extend([a.as_slice(), b.as_slice()]),
                // A jump inside a nested loop's body belongs to that loop; one in its `else`
                // is ours.
                StmtKind::While(_, _, e) | StmtKind::For(_, _, _, e) => work.push(e),
                _ => {}
            }
        }
    }
    false
}

/// Chains of more links than this are lowered flat (see `Lower::if_stmt`).
const FLAT_CHAIN: usize = 16;

/// The most links of a flat chain in one loop construct; a longer chain continues in a loop
/// nested in the `else` path of this one, so no block joins more than this many branches.
const CHAIN_CHUNK: usize = 4096;

/// The most branches to one block (see `Lower::count_join`): 65,535 words of a phi, less its
/// three words of header, at two words per incoming branch, rounded down.
const MAX_JOINS: usize = 32_000;

/// SPIR-V's limit on nested control-flow constructs (spirv-val's universal limit).
const MAX_CONSTRUCT_DEPTH: usize = 1023;

fn math_fn(name: &str) -> Option<MathFn> {
    use MathFn::*;
    Some(match name {
        "sqrt" => Sqrt,
        "sin" => Sin,
        "cos" => Cos,
        "tan" => Tan,
        "asin" => Asin,
        "acos" => Acos,
        "atan" => Atan,
        "atan2" => Atan2,
        "sinh" => Sinh,
        "cosh" => Cosh,
        "tanh" => Tanh,
        "exp" => Exp,
        "exp2" => Exp2,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "pow" => Pow,
        "fabs" => Abs,
        "floor" => Floor,
        "ceil" => Ceil,
        "trunc" => Trunc,
        "copysign" => Copysign,
        "hypot" => Hypot,
        "fmod" => Fmod,
        "isnan" => IsNan,
        "isinf" => IsInf,
        _ => return None,
    })
}

/// `math.f` on literals, in `f64` as CPython computes it.
fn fold_math(name: &str, a: f64, b: f64) -> Option<Lit> {
    Some(match name {
        "sqrt" => Lit::Float(a.sqrt()),
        "sin" => Lit::Float(a.sin()),
        "cos" => Lit::Float(a.cos()),
        "tan" => Lit::Float(a.tan()),
        "asin" => Lit::Float(a.asin()),
        "acos" => Lit::Float(a.acos()),
        "atan" => Lit::Float(a.atan()),
        "atan2" => Lit::Float(a.atan2(b)),
        "sinh" => Lit::Float(a.sinh()),
        "cosh" => Lit::Float(a.cosh()),
        "tanh" => Lit::Float(a.tanh()),
        "exp" => Lit::Float(a.exp()),
        "exp2" => Lit::Float(a.exp2()),
        "log" => Lit::Float(a.ln()),
        "log2" => Lit::Float(a.log2()),
        "log10" => Lit::Float(a.log10()),
        "pow" => Lit::Float(a.powf(b)),
        "fabs" => Lit::Float(a.abs()),
        "floor" => Lit::Int(a.floor() as i64),
        "ceil" => Lit::Int(a.ceil() as i64),
        "trunc" => Lit::Int(a.trunc() as i64),
        "copysign" => Lit::Float(a.copysign(b)),
        "hypot" => Lit::Float(a.hypot(b)),
        "fmod" => Lit::Float(a % b),
        "isnan" => Lit::Bool(a.is_nan()),
        "isinf" => Lit::Bool(a.is_infinite()),
        "isfinite" => Lit::Bool(a.is_finite()),
        _ => return None,
    })
}

fn lit_f64(l: Lit) -> f64 {
    match l {
        Lit::Int(i) => i as f64,
        Lit::Float(f) => f,
        Lit::Bool(b) => b as u8 as f64,
    }
}

impl<'c, 'a> Lower<'c, 'a> {
    // ----- building blocks -------------------------------------------------------------

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.cx.diags.push(Diagnostic::error(span, message));
    }

    fn new_block(&mut self) -> Block {
        let b = self.b.create_block();
        self.f.blocks.push(BlockData::default());
        b
    }

    fn switch(&mut self, b: Block) {
        self.b.switch_to_block(b);
        self.f.order.push(b);
        self.cur = b;
        // Constructs close in the order they opened: reaching a merge block closes its own.
        if self.open.last() == Some(&b) {
            self.open.pop();
        }
    }

    fn terminate(&mut self, term: Term<Operand>) {
        for s in term.successors() {
            self.b.add_edge(self.cur, s);
            self.count_join(s);
        }
        self.f.blocks[self.cur.index()].term = term;
    }

    fn jump(&mut self, to: Block) {
        self.terminate(Term::Jump(to));
    }

    /// Counts a branch to `to`. A phi takes two words per incoming branch and an instruction
    /// at most 65,535 words, so past [`MAX_JOINS`] branches to one block (the `break`s or
    /// `continue`s of one loop) the module could not be written.
    fn count_join(&mut self, to: Block) {
        let i = to.index();
        if self.joins.len() <= i {
            self.joins.resize(i + 1, 0);
        }
        self.joins[i] += 1;
        if self.joins[i] as usize > MAX_JOINS && !self.too_many_joins {
            self.too_many_joins = true;
            self.cx.diags.push(
                Diagnostic::error(
                    self.stmt_span,
                    format!("more than {MAX_JOINS} branches lead to one point, more than SPIR-V can join"),
                )
                .with_note("every `break` of a loop leads to its end, and every `continue` to its next iteration")
                .with_help("move part of the work into a @func"),
            );
        }
    }

    /// Ends the current block with `term` and continues in a block nothing reaches.
    fn terminate_dead(&mut self, term: Term<Operand>) {
        self.terminate(term);
        let dead = self.new_block();
        self.switch(dead);
    }

    /// Makes the current block the header of a construct that ends at `merge`'s merge block.
    fn set_merge(&mut self, merge: Merge) {
        self.f.blocks[self.cur.index()].merge = merge;
        let end = match merge {
            Merge::Selection(m) | Merge::Loop { merge: m, .. } => m,
            Merge::None => return,
        };
        self.open.push(end);
        if self.open.len() > MAX_CONSTRUCT_DEPTH && !self.too_deep {
            self.too_deep = true;
            self.cx.diags.push(
                Diagnostic::error(
                    self.stmt_span,
                    format!("control flow nested more than {MAX_CONSTRUCT_DEPTH} levels deep, more than SPIR-V allows"),
                )
                .with_note("each enclosing `if`/`elif`, loop, lazy `and`/`or`, chained comparison and conditional expression counts one level; a long `elif` chain counts one level per branch when a branch has a `break` or `continue` for an enclosing loop")
                .with_help("move part of the work into a @func, or split the chain"),
            );
        }
    }

    fn emit(&mut self, op: Op, ty: Option<Ty>, args: Vec<Operand>, span: Span) -> Value {
        let v = Value::new(self.f.insts.len());
        self.f.insts.push(Inst {
            op,
            ty,
            args,
            span,
            var: None,
        });
        self.f.blocks[self.cur.index()].insts.push(v);
        v
    }

    fn val(&mut self, op: Op, ty: Ty, args: Vec<Operand>, span: Span) -> Operand {
        Operand::Value(self.emit(op, Some(ty), args, span))
    }

    /// A constant: one instruction per distinct constant, in no block (the backend emits
    /// constants at module level), so equal constants are one value and phis of them fold.
    fn konst(&mut self, c: Const) -> Operand {
        if let Some(&v) = self.consts.get(&c) {
            return Operand::Value(v);
        }
        let v = Value::new(self.f.insts.len());
        self.f.insts.push(Inst {
            op: Op::Const(c),
            ty: Some(c.ty()),
            args: Vec::new(),
            span: Span::default(),
            var: None,
        });
        self.consts.insert(c, v);
        Operand::Value(v)
    }

    fn new_var(&mut self, name: &str, ty: Ty, span: Span) -> Var {
        let v = Var::new(self.f.vars.len());
        self.f.vars.push(VarInfo {
            name: name.to_string(),
            ty,
        });
        self.var_spans.push(span);
        if !name.is_empty() {
            self.locals.insert(name.to_string(), Local::Var(v));
        }
        v
    }

    fn def(&mut self, var: Var, op: Operand) {
        if let Operand::Value(v) = op {
            let inst = &mut self.f.insts[v.index()];
            if inst.var.is_none() && !matches!(inst.op, Op::Const(_)) {
                inst.var = Some(var);
            }
        }
        self.b.def_var(var, op);
    }

    fn read(&mut self, var: Var, span: Span) -> Operand {
        let op = self.b.use_var(var);
        if let Operand::Use(u) = op {
            if u.index() == self.use_spans.len() {
                self.use_spans.push(span);
            }
        }
        op
    }

    // ----- prologue ----------------------------------------------------------------------

    fn launch_guard(&mut self) {
        let span = self.sig.span;
        let out = self.val(Op::OutsideLaunch, Ty::BOOL, vec![], span);
        let ret = self.new_block();
        let rest = self.new_block();
        self.set_merge(Merge::Selection(rest));
        self.terminate(Term::Branch(out, ret, rest));
        self.switch(ret);
        self.terminate(Term::Return(None));
        self.switch(rest);
    }

    fn params(&mut self, arrays: &[ArrayId]) {
        let mut next_array = arrays.iter();
        let mut scalar = 0u32;
        for p in &self.sig.params {
            match p.kind {
                ParamKind::Scalar(t) => {
                    if !self.sig.is_kernel {
                        self.f.params.push(t);
                    }
                    let v = self.val(Op::Param(scalar), t, vec![], p.span);
                    scalar += 1;
                    let var = self.new_var(&p.name, t, p.span);
                    self.def(var, v);
                }
                ParamKind::Array(_) => {
                    let a = *next_array.next().expect("one array per array parameter");
                    self.locals.insert(p.name.clone(), Local::Array(a));
                }
            }
        }
    }

    // ----- statements --------------------------------------------------------------------

    fn stmts(&mut self, body: &[StmtId]) {
        for &s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: StmtId) {
        let stmt = self.ast.stmt(s);
        let span = stmt.span;
        let outer = std::mem::replace(&mut self.stmt_span, span);
        self.stmt_kind(s, span);
        self.stmt_span = outer;
    }

    fn stmt_kind(&mut self, s: StmtId, span: Span) {
        let stmt = self.ast.stmt(s);
        match &stmt.kind {
            StmtKind::Expr(e) => self.expr_stmt(*e),
            StmtKind::Assign(targets, value) => self.assign(targets, *value),
            StmtKind::AugAssign(t, op, v) => self.aug_assign(*t, *op, *v, span),
            StmtKind::AnnAssign(t, ann, v) => self.ann_assign(*t, *ann, *v),
            StmtKind::If(..) => self.if_stmt(s),
            StmtKind::While(test, body, orelse) => self.while_stmt(*test, body, orelse),
            StmtKind::For(t, iter, body, orelse) => self.for_stmt(*t, *iter, body, orelse, span),
            StmtKind::Break => match self.loops.last() {
                Some(l) => {
                    let (to, broke) = (l.brk, l.broke);
                    if let Some(flag) = broke {
                        let t = self.konst(Const::Bool(true));
                        self.def(flag, t);
                    }
                    self.terminate_dead(Term::Jump(to));
                }
                None => self.error(span, "`break` outside a loop"),
            },
            StmtKind::Continue => match self.loops.last() {
                Some(l) => {
                    let to = l.cont;
                    self.terminate_dead(Term::Jump(to));
                }
                None => self.error(span, "`continue` outside a loop"),
            },
            StmtKind::Return(v) => self.return_stmt(*v, span),
            StmtKind::Pass | StmtKind::Error => {}
            StmtKind::Assert(test) => self.assert_stmt(*test),
        }
    }

    /// Outside checked mode an assertion is type-checked only, as `python -O` skips it: its
    /// test is lowered in a block that nothing reaches (and folding removes), so every error
    /// in it is reported and nothing of it runs.
    fn assert_stmt(&mut self, test: ExprId) {
        let cont = self.new_block();
        self.jump(cont);
        let dead = self.new_block();
        self.switch(dead);
        let _ = self.cond(test);
        self.terminate(Term::Unreachable);
        self.switch(cont);
    }

    fn expr_stmt(&mut self, e: ExprId) {
        let expr = self.ast.expr(e);
        match expr.kind {
            ExprKind::Call { .. } => {
                let _ = self.expr(e);
            }
            ExprKind::Error => {}
            _ => self.cx.diags.push(
                Diagnostic::error(expr.span, "this expression has no effect")
                    .with_help("only calls can stand alone as statements"),
            ),
        }
    }

    fn assign(&mut self, targets: &[ExprId], value: ExprId) {
        let value_expr = self.ast.expr(value);
        if let ExprKind::Tuple(items) = &value_expr.kind {
            // Every right-hand value is evaluated before any store.
            let vals: Vec<(Ex, Span)> = items
                .iter()
                .map(|&i| (self.expr(i), self.ast.expr(i).span))
                .collect();
            for &t in targets {
                match &self.ast.expr(t).kind {
                    ExprKind::Tuple(ts) if ts.len() == vals.len() => {
                        for (&ti, &(ex, sp)) in ts.iter().zip(&vals) {
                            self.assign_to(ti, ex, sp);
                        }
                    }
                    ExprKind::Tuple(ts) => {
                        let msg = format!(
                            "cannot unpack {} values into {} targets",
                            vals.len(),
                            ts.len()
                        );
                        self.error(self.ast.expr(t).span, msg);
                    }
                    _ => self.error(
                        value_expr.span,
                        "a tuple is not a value in kernels: assign its items to as many targets",
                    ),
                }
            }
            return;
        }
        let ex = self.expr(value);
        for &t in targets {
            if let ExprKind::Tuple(ts) = &self.ast.expr(t).kind {
                self.unpack(ts, ex, value_expr.span);
            } else {
                self.assign_to(t, ex, value_expr.span);
            }
        }
    }

    /// After an unpacking that failed, its names report nothing more where they are read.
    fn poison_targets(&mut self, targets: &[ExprId]) {
        for &t in targets {
            if let ExprKind::Name(n) = &self.ast.expr(t).kind {
                self.poisoned.insert(n.clone());
            }
        }
    }

    fn unpack(&mut self, targets: &[ExprId], ex: Ex, span: Span) {
        let (o, ty) = match ex {
            Ex::Val(o, ty @ Ty::Vector(..)) => (o, ty),
            Ex::Err => return self.poison_targets(targets),
            _ => {
                self.error(
                    span,
                    "only a vector (such as `global_id()`) or a tuple can be unpacked",
                );
                return self.poison_targets(targets);
            }
        };
        let Ty::Vector(s, n) = ty else { return };
        if targets.len() != n as usize {
            let msg = format!(
                "cannot unpack a value of type {} ({n} components) into {} targets",
                ty.name(),
                targets.len()
            );
            self.error(span, msg);
            return self.poison_targets(targets);
        }
        for (i, &t) in targets.iter().enumerate() {
            let c = self.val(Op::Extract(i as u32), Ty::Scalar(s), vec![o], span);
            self.assign_to(t, Ex::Val(c, Ty::Scalar(s)), span);
        }
    }

    fn assign_to(&mut self, target: ExprId, ex: Ex, value_span: Span) {
        let t = self.ast.expr(target);
        match &t.kind {
            ExprKind::Name(n) => self.assign_name(n, ex, t.span, value_span, None),
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                let Some(a) = self.array_of(base) else { return };
                let Some(i) = self.index(index) else { return };
                self.store(a, i, ex, value_span, t.span);
            }
            ExprKind::Attr(..) => self.error(t.span, "assigning to an attribute is not supported"),
            ExprKind::Error => {}
            _ => self.error(t.span, "cannot assign to this expression"),
        }
    }

    fn store(&mut self, a: ArrayId, index: Operand, ex: Ex, value_span: Span, span: Span) {
        let elem = self.cx.arrays[a.index()].elem;
        let what = format!(
            "stored into `{}`, an Array[{elem}]",
            self.cx.arrays[a.index()].name
        );
        if let Some(v) = self.coerce(ex, elem, value_span, &what) {
            self.emit(Op::Store(a), None, vec![index, v], span);
        }
    }

    fn assign_name(
        &mut self,
        name: &str,
        ex: Ex,
        target_span: Span,
        value_span: Span,
        declared: Option<Ty>,
    ) {
        match self.locals.get(name).copied() {
            Some(Local::Array(_)) => {
                self.error(
                    target_span,
                    format!("cannot assign to `{name}`: it is an array parameter"),
                );
            }
            Some(Local::Var(var)) => {
                let ty = self.f.vars[var.index()].ty;
                if let Some(d) = declared {
                    if d != ty {
                        let first = self.var_spans[var.index()];
                        self.cx.diags.push(
                            Diagnostic::error(target_span, format!("`{name}` already has type {ty}; an annotation cannot change it"))
                                .with_secondary(first, format!("`{name}` got type {ty} here")),
                        );
                        return;
                    }
                }
                if let Some(o) = self.coerce_assign(ex, var, name, value_span) {
                    self.def(var, o);
                }
            }
            None => {
                let (o, ty) = match declared {
                    Some(t) => {
                        let what = format!("assigned to `{name}: {t}`");
                        match self.coerce(ex, t, value_span, &what) {
                            Some(o) => (o, t),
                            None => {
                                self.poisoned.insert(name.to_string());
                                return;
                            }
                        }
                    }
                    None => match self.value(ex, value_span) {
                        Some(x) => x,
                        None => {
                            self.poisoned.insert(name.to_string());
                            return;
                        }
                    },
                };
                let var = self.new_var(name, ty, target_span);
                self.def(var, o);
            }
        }
    }

    /// `ex` as a new value of `var`, which already has a type.
    fn coerce_assign(&mut self, ex: Ex, var: Var, name: &str, span: Span) -> Option<Operand> {
        let ty = self.f.vars[var.index()].ty;
        match ex {
            Ex::Val(o, t) if t == ty => Some(o),
            Ex::Val(o, t) if ty == Ty::F32 && t.as_scalar().is_some_and(Scalar::is_int) => {
                Some(self.val(Op::Convert, Ty::F32, vec![o], span))
            }
            Ex::Val(_, t) => {
                let first = self.var_spans[var.index()];
                let help = if t == Ty::F32 && ty.scalar().is_int() {
                    format!("to make `{name}` a float, give its first assignment a float value (`{name} = 0.0`) or annotate it (`{name}: f32 = 0`)")
                } else {
                    format!("convert the value, for example `{}(...)`", ty.name())
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("`{name}` has type {ty}, but this value is {t}"),
                    )
                    .with_label(format!("this is {t}"))
                    .with_secondary(
                        first,
                        format!("`{name}` got type {ty} here, at its first assignment"),
                    )
                    .with_help(help),
                );
                None
            }
            Ex::Lit(l) => match l.to_const(ty.scalar()) {
                Ok(c) => Some(self.konst(c)),
                Err(e) => {
                    let first = self.var_spans[var.index()];
                    self.cx.diags.push(
                        Diagnostic::error(
                            span,
                            format!("cannot assign this to `{name}`, which has type {ty}"),
                        )
                        .with_label(e)
                        .with_secondary(first, format!("`{name}` got type {ty} here")),
                    );
                    None
                }
            },
            other => self.value(other, span).map(|x| x.0),
        }
    }

    fn aug_assign(&mut self, target: ExprId, op: BinaryOp, value: ExprId, span: Span) {
        let t = self.ast.expr(target);
        match &t.kind {
            ExprKind::Name(n) => {
                let cur = self.name(n, t.span);
                let rhs = self.expr(value);
                let r = self.binary(op, cur, rhs, t.span, self.ast.expr(value).span, span);
                let n = n.clone();
                if let Some(Local::Var(var)) = self.locals.get(&n).copied() {
                    if let Some(o) = self.coerce_assign(r, var, &n, span) {
                        self.def(var, o);
                    }
                }
            }
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                let Some(a) = self.array_of(base) else { return };
                let Some(i) = self.index(index) else { return };
                let elem = self.cx.arrays[a.index()].elem;
                let cur = self.val(Op::Load(a), elem, vec![i], t.span);
                let rhs = self.expr(value);
                let r = self.binary(
                    op,
                    Ex::Val(cur, elem),
                    rhs,
                    t.span,
                    self.ast.expr(value).span,
                    span,
                );
                self.store(a, i, r, span, t.span);
            }
            ExprKind::Error => {}
            _ => self.error(t.span, "cannot assign to this expression"),
        }
    }

    fn ann_assign(&mut self, target: ExprId, ann: ExprId, value: Option<ExprId>) {
        let t = self.ast.expr(target);
        let ExprKind::Name(name) = &t.kind else {
            self.error(t.span, "only a plain name can be annotated");
            return;
        };
        let ty = match self.m.annotation(self.ast, ann) {
            Ok(crate::module::Ann::Value(ty)) => ty,
            Ok(_) => {
                self.error(
                    self.ast.expr(ann).span,
                    "a local variable holds a number or a bool",
                );
                return;
            }
            Err(d) => {
                self.cx.diags.push(d);
                return;
            }
        };
        match value {
            Some(v) => {
                let ex = self.expr(v);
                let vspan = self.ast.expr(v).span;
                self.assign_name(name, ex, t.span, vspan, Some(ty));
            }
            None => {
                if let Some(Local::Var(var)) = self.locals.get(name).copied() {
                    let old = self.f.vars[var.index()].ty;
                    if old != ty {
                        self.error(
                            t.span,
                            format!(
                                "`{name}` already has type {old}; an annotation cannot change it"
                            ),
                        );
                    }
                } else {
                    self.new_var(name, ty, t.span);
                }
            }
        }
    }

    /// An `if` and its `elif` chain, walked iteratively. Up to [`FLAT_CHAIN`] links, each
    /// `elif` is a selection in the `else` of the one before (as Python nests them). A longer
    /// chain would nest as deep as it is long (SPIR-V allows 1023 levels, and spirv-val's
    /// time grows with the cube of the depth), so it becomes a one-trip loop construct in
    /// which each link is a selection whose true side runs its body and leaves the loop: all
    /// links are at one depth (past [`CHAIN_CHUNK`] links, the rest go in a loop nested
    /// where the chain continues, so no merge joins too many branches). Every path still runs exactly one body (or the `else`), so
    /// definite assignment is as exact as in the nested form. That needs every
    /// `break`/`continue` in the chain to be its own loop's, so a long chain with a jump for
    /// an enclosing loop stays nested (and is bounded by the depth limit).
    fn if_stmt(&mut self, s: StmtId) {
        let (links, orelse) = self.ast.if_chain(s);
        let flat = links.len() > FLAT_CHAIN
            && !links.iter().any(|l| has_jump(self.ast, l.body, true))
            && !has_jump(self.ast, orelse, true);
        if flat {
            self.flat_chain(&links, orelse);
        } else {
            self.nested_chain(&links, orelse);
        }
    }

    fn nested_chain(&mut self, links: &[IfLink<'_>], orelse: &[StmtId]) {
        let mut merges = Vec::with_capacity(links.len());
        for (k, &IfLink { test, body, .. }) in links.iter().enumerate() {
            let last = k + 1 == links.len();
            // A nesting error belongs to the link that passes the limit.
            self.stmt_span = self.ast.expr(test).span;
            let c = self.cond(test);
            let then_b = self.new_block();
            let else_b = (!last || !orelse.is_empty()).then(|| self.new_block());
            let merge = self.new_block();
            self.set_merge(Merge::Selection(merge));
            self.terminate(Term::Branch(c, then_b, else_b.unwrap_or(merge)));
            self.switch(then_b);
            self.stmts(body);
            self.jump(merge);
            merges.push(merge);
            match else_b {
                Some(e) => self.switch(e),
                None => {
                    merges.pop();
                    self.switch(merge);
                }
            }
        }
        self.stmts(orelse);
        for merge in merges.into_iter().rev() {
            self.jump(merge);
            self.switch(merge);
        }
    }

    fn flat_chain(&mut self, links: &[IfLink<'_>], orelse: &[StmtId]) {
        let mut loops = Vec::new();
        for chunk in links.chunks(CHAIN_CHUNK) {
            let (header, cont, merge) = self.open_loop();
            let first = self.new_block();
            self.jump(first);
            self.switch(first);
            for &IfLink { test, body, .. } in chunk {
                let c = self.cond(test);
                let then_b = self.new_block();
                let next = self.new_block();
                self.set_merge(Merge::Selection(next));
                self.terminate(Term::Branch(c, then_b, next));
                self.switch(then_b);
                self.stmts(body);
                self.jump(merge);
                self.switch(next);
            }
            // No link of this chunk was taken: the next chunk runs inside this loop.
            loops.push((header, cont, merge));
        }
        self.stmts(orelse);
        for (header, cont, merge) in loops.into_iter().rev() {
            self.jump(merge);
            // Nothing reaches the continue block: every path leaves the loop.
            self.switch(cont);
            self.jump(header);
            self.switch(merge);
        }
    }

    /// Opens a loop: jumps to a new header and records the loop's structure on it.
    /// Returns (header, continue, merge).
    fn open_loop(&mut self) -> (Block, Block, Block) {
        let header = self.new_block();
        let cont = self.new_block();
        let merge = self.new_block();
        self.jump(header);
        self.switch(header);
        self.set_merge(Merge::Loop { merge, cont });
        (header, cont, merge)
    }

    /// The loop's body, continue block, and `else` clause. `exit` is where the loop goes
    /// when its condition fails; `flag` is the hidden "left normally" variable when the loop
    /// has both `break` and `else`.
    #[allow(clippy::too_many_arguments)]
    fn close_loop(
        &mut self,
        header: Block,
        cont: Block,
        merge: Block,
        body_b: Block,
        body: &[StmtId],
        orelse: &[StmtId],
        exit: LoopElse,
        prologue: impl FnOnce(&mut Self),
        step: impl FnOnce(&mut Self),
    ) {
        let broke = match exit {
            LoopElse::Flag(flag) => Some(flag),
            _ => None,
        };
        self.loops.push(LoopCtx {
            brk: merge,
            cont,
            broke,
        });
        self.switch(body_b);
        prologue(self);
        self.stmts(body);
        self.jump(cont);
        self.loops.pop();
        self.switch(cont);
        step(self);
        self.jump(header);
        if let LoopElse::Inside(else_b) = exit {
            self.switch(else_b);
            self.stmts(orelse);
            self.jump(merge);
            self.switch(merge);
        } else if let LoopElse::Flag(flag) = exit {
            self.switch(merge);
            let broke = self.read(flag, Span::default());
            let else_b = self.new_block();
            let after = self.new_block();
            self.set_merge(Merge::Selection(after));
            self.terminate(Term::Branch(broke, after, else_b));
            self.switch(else_b);
            self.stmts(orelse);
            self.jump(after);
            self.switch(after);
        } else {
            self.switch(merge);
            self.stmts(orelse);
        }
    }

    /// Where the loop's `else` clause goes (see [`LoopElse`]); `cond_in_header` says the
    /// loop's condition is evaluated in its header block, whose `OpLoopMerge` makes a branch
    /// into the loop construct structured.
    fn loop_exit(&mut self, body: &[StmtId], orelse: &[StmtId], cond_in_header: bool) -> LoopElse {
        if orelse.is_empty() || !has_jump(self.ast, body, false) {
            return LoopElse::InMerge;
        }
        if cond_in_header && !has_jump(self.ast, orelse, true) {
            return LoopElse::Inside(self.new_block());
        }
        let flag = self.new_var("", Ty::BOOL, Span::default());
        let f = self.konst(Const::Bool(false));
        self.def(flag, f);
        LoopElse::Flag(flag)
    }

    /// Where the loop goes when its condition fails.
    fn exit_target(exit: LoopElse, merge: Block) -> Block {
        match exit {
            LoopElse::InMerge | LoopElse::Flag(_) => merge,
            LoopElse::Inside(b) => b,
        }
    }

    fn while_stmt(&mut self, test: ExprId, body: &[StmtId], orelse: &[StmtId]) {
        let separate_cond = self.needs_blocks(test);
        let exit = self.loop_exit(body, orelse, !separate_cond);
        let (header, cont, merge) = self.open_loop();
        if separate_cond {
            let cond_b = self.new_block();
            self.jump(cond_b);
            self.switch(cond_b);
        }
        // `while True:` (any constant true test) leaves only by `break` or `return`: the
        // header goes straight to the body, so code after a loop without `break` is known
        // unreachable (a func ending in such a loop needs no return after it).
        let is_local = |n: &str| self.is_local(n);
        let always = !separate_cond
            && matches!(self.m.const_eval(self.ast, test, &is_local), Ok(Some(l)) if l.truthy());
        let body_b = self.new_block();
        if always {
            self.jump(body_b);
        } else {
            let c = self.cond(test);
            self.terminate(Term::Branch(c, body_b, Self::exit_target(exit, merge)));
        }
        self.close_loop(
            header,
            cont,
            merge,
            body_b,
            body,
            orelse,
            exit,
            |_| {},
            |_| {},
        );
    }

    fn for_stmt(
        &mut self,
        target: ExprId,
        iter: ExprId,
        body: &[StmtId],
        orelse: &[StmtId],
        span: Span,
    ) {
        let t = self.ast.expr(target);
        let ExprKind::Name(name) = &t.kind else {
            self.error(t.span, "a `for` loop takes one variable name");
            return;
        };
        let Some(RangeArgs {
            start,
            stop,
            step,
            ty,
        }) = self.range_args(iter)
        else {
            return;
        };
        let counter = self.new_var("", ty, span);
        self.def(counter, start);
        let exit = self.loop_exit(body, orelse, true);
        let (header, cont, merge) = self.open_loop();
        let k = self.read(counter, span);
        let c = match step {
            Step::One | Step::Literal(..) => {
                let up = !matches!(step, Step::Literal(_, s) if s < 0);
                let op = if up { CmpOp::Lt } else { CmpOp::Gt };
                self.val(Op::Cmp(op), Ty::BOOL, vec![k, stop], span)
            }
            Step::Runtime(step) => {
                // The sign of the step is known at run time only; a zero step runs nothing.
                let zero = self.konst(Const::zero(ty.scalar()));
                let up = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, vec![step, zero], span);
                let down = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, vec![step, zero], span);
                let lt = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, vec![k, stop], span);
                let gt = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, vec![k, stop], span);
                let a = self.val(Op::Binary(BinOp::And), Ty::BOOL, vec![up, lt], span);
                let b = self.val(Op::Binary(BinOp::And), Ty::BOOL, vec![down, gt], span);
                self.val(Op::Binary(BinOp::Or), Ty::BOOL, vec![a, b], span)
            }
        };
        let body_b = self.new_block();
        self.terminate(Term::Branch(c, body_b, Self::exit_target(exit, merge)));
        let name = name.clone();
        let tspan = t.span;
        let step = match step {
            Step::Literal(s, _) | Step::Runtime(s) => s,
            Step::One => self.konst(Const::one(ty.scalar())),
        };

        // The loop variable is assigned from the counter at the top of each iteration, so
        // assigning to it in the body does not change the iteration (as in Python).
        let prologue = |l: &mut Self| {
            let kb = l.read(counter, span);
            l.assign_name(&name, Ex::Val(kb, ty), tspan, tspan, None);
        };
        self.close_loop(
            header,
            cont,
            merge,
            body_b,
            body,
            orelse,
            exit,
            prologue,
            move |l| {
                let k = l.read(counter, span);
                let next = l.val(Op::Binary(BinOp::Add), ty, vec![k, step], span);
                l.def(counter, next);
            },
        );
    }

    /// The arguments of `range(...)`, all of one integer type.
    fn range_args(&mut self, iter: ExprId) -> Option<RangeArgs> {
        let e = self.ast.expr(iter);
        let bad = "kernels loop only over `range(stop)`, `range(start, stop)` or `range(start, stop, step)`";
        let ExprKind::Call {
            func,
            args,
            keywords,
        } = &e.kind
        else {
            self.error(e.span, bad);
            return None;
        };
        let is_range = matches!(&self.ast.expr(*func).kind, ExprKind::Name(n) if n == "range" && !self.assigned.contains(n) && !self.m.globals.contains_key(n));
        if !is_range || args.is_empty() || args.len() > 3 || !keywords.is_empty() {
            self.error(e.span, bad);
            return None;
        }
        let exs: Vec<(Ex, Span)> = args
            .iter()
            .map(|&a| (self.expr(a), self.ast.expr(a).span))
            .collect();
        // The common integer type: the first typed argument's, else i32.
        let mut ty = None;
        for &(ex, sp) in &exs {
            match ex {
                Ex::Val(_, t) if t.as_scalar().is_some_and(Scalar::is_int) => {
                    if ty.is_some_and(|u| u != t) {
                        self.error(sp, "the arguments of `range` mix i32 and u32");
                        return None;
                    }
                    ty = Some(t);
                }
                Ex::Val(_, t) => {
                    self.error(sp, format!("`range` needs integers, not {t}"));
                    return None;
                }
                Ex::Lit(Lit::Float(_)) => {
                    self.error(sp, "`range` needs integers, not floats");
                    return None;
                }
                Ex::Err => return None,
                _ => {}
            }
        }
        let ty = ty.unwrap_or(Ty::I32);
        let mut ops = Vec::new();
        for &(ex, sp) in &exs {
            ops.push(self.coerce(ex, ty, sp, "passed to `range`")?);
        }
        let step = match exs.get(2) {
            Some(&(Ex::Lit(Lit::Int(0)), sp)) => {
                self.error(sp, "`range` step must not be zero");
                return None;
            }
            Some(&(Ex::Lit(Lit::Int(s)), _)) => Step::Literal(ops[2], s),
            Some(_) => Step::Runtime(ops[2]),
            None => Step::One,
        };
        let (start, stop) = if ops.len() == 1 {
            (self.konst(Const::zero(ty.scalar())), ops[0])
        } else {
            (ops[0], ops[1])
        };
        Some(RangeArgs {
            start,
            stop,
            step,
            ty,
        })
    }

    fn return_stmt(&mut self, value: Option<ExprId>, span: Span) {
        let sig = self.sig;
        match (value, sig.ret) {
            (Some(v), _) if sig.is_kernel => {
                self.error(
                    self.ast.expr(v).span,
                    "a kernel cannot return a value: write results into an array",
                );
            }
            (Some(v), None) => {
                let msg = format!(
                    "`{}` has no return type, so it cannot return a value",
                    sig.name
                );
                self.cx.diags.push(
                    Diagnostic::error(self.ast.expr(v).span, msg)
                        .with_help("annotate the return type, as in `-> f32`"),
                );
            }
            (None, Some(t)) => {
                self.error(
                    span,
                    format!("`{}` must return a value of type {t}", sig.name),
                );
            }
            (Some(v), Some(t)) => {
                let ex = self.expr(v);
                let what = format!("returned from `{}`, which returns {t}", sig.name);
                match self.coerce(ex, t, self.ast.expr(v).span, &what) {
                    Some(o) => self.terminate_dead(Term::Return(Some(o))),
                    // Already reported; the path still ends here.
                    None => self.terminate_dead(Term::Unreachable),
                }
                return;
            }
            (None, None) => {}
        }
        self.terminate_dead(Term::Return(None));
    }

    // ----- expressions -------------------------------------------------------------------

    fn is_local(&self, name: &str) -> bool {
        self.assigned.contains(name) || self.locals.contains_key(name)
    }

    /// Whether evaluating `e` has no effect and cannot fault, so it may be evaluated
    /// whether or not Python would (a select instead of a branch).
    fn is_pure(&self, e: ExprId) -> bool {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                ExprKind::Subscript(..) => return false,
                ExprKind::Call { func, args, .. } => {
                    if let ExprKind::Name(n) = &self.ast.expr(*func).kind {
                        if matches!(self.m.globals.get(n), Some(Global::Def(_))) {
                            return false;
                        }
                    }
                    work.extend(args.iter().copied());
                }
                ExprKind::Attr(b, _) => work.push(*b),
                ExprKind::Unary(_, a) => work.push(*a),
                ExprKind::Binary(_, a, b) => work.extend([*a, *b]),
                ExprKind::BoolOp(_, v) | ExprKind::Tuple(v) => work.extend(v.iter().copied()),
                ExprKind::Compare(a, rest) => {
                    work.push(*a);
                    work.extend(rest.iter().map(|r| r.1));
                }
                ExprKind::IfExp(a, b, c) => work.extend([*a, *b, *c]),
                _ => {}
            }
        }
        true
    }

    /// Whether lowering `e` as a condition creates blocks.
    fn needs_blocks(&self, e: ExprId) -> bool {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                ExprKind::BoolOp(_, v) => {
                    if v[1..].iter().any(|&x| !self.is_pure(x)) {
                        return true;
                    }
                    work.extend(v.iter().copied());
                }
                ExprKind::IfExp(a, b, c) => {
                    if !self.is_pure(*b) || !self.is_pure(*c) {
                        return true;
                    }
                    work.push(*a);
                }
                ExprKind::Compare(a, rest) => {
                    if rest.len() > 1 && rest[1..].iter().any(|r| !self.is_pure(r.1)) {
                        return true;
                    }
                    work.push(*a);
                    work.extend(rest.iter().map(|r| r.1));
                }
                ExprKind::Unary(_, a) | ExprKind::Attr(a, _) => work.push(*a),
                ExprKind::Binary(_, a, b) | ExprKind::Subscript(a, b) => work.extend([*a, *b]),
                ExprKind::Call { args, .. } => work.extend(args.iter().copied()),
                _ => {}
            }
        }
        false
    }

    fn expr(&mut self, e: ExprId) -> Ex {
        let expr = self.ast.expr(e);
        let span = expr.span;
        match &expr.kind {
            ExprKind::Int(i) => Ex::Lit(Lit::Int(*i)),
            ExprKind::Float(f) => Ex::Lit(Lit::Float(*f)),
            ExprKind::Bool(b) => Ex::Lit(Lit::Bool(*b)),
            ExprKind::None => {
                self.error(span, "`None` is not a value in kernels");
                Ex::Err
            }
            ExprKind::Name(n) => self.name(n, span),
            ExprKind::Attr(base, attr) => self.attr(e, *base, attr, span),
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                let Some(a) = self.array_of(base) else {
                    return Ex::Err;
                };
                let Some(i) = self.index(index) else {
                    return Ex::Err;
                };
                let elem = self.cx.arrays[a.index()].elem;
                Ex::Val(self.val(Op::Load(a), elem, vec![i], span), elem)
            }
            ExprKind::Call {
                func,
                args,
                keywords,
            } => self.call(*func, args, keywords, span),
            ExprKind::Unary(op, a) => {
                // `not x` looks only at the truth of `x`.
                let x = if *op == UnaryOp::Not {
                    self.test_ex(*a)
                } else {
                    self.expr(*a)
                };
                self.unary(*op, x, span)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(*a);
                let y = self.expr(*b);
                self.binary(
                    *op,
                    x,
                    y,
                    self.ast.expr(*a).span,
                    self.ast.expr(*b).span,
                    span,
                )
            }
            ExprKind::BoolOp(is_and, values) => self.bool_op(*is_and, values, span, false),
            ExprKind::Compare(left, rest) => self.compare_chain(*left, rest, span),
            ExprKind::IfExp(test, body, orelse) => self.if_exp(*test, *body, *orelse, span),
            ExprKind::Tuple(_) => {
                self.error(
                    span,
                    "a tuple is not a value in kernels (only on either side of `=`)",
                );
                Ex::Err
            }
            ExprKind::Error => Ex::Err,
        }
    }

    fn name(&mut self, n: &str, span: Span) -> Ex {
        match self.locals.get(n).copied() {
            Some(Local::Var(v)) => return Ex::Val(self.read(v, span), self.f.vars[v.index()].ty),
            Some(Local::Array(a)) => return Ex::Array(a),
            None => {}
        }
        if self.poisoned.contains(n) {
            return Ex::Err;
        }
        if self.assigned.contains(n) {
            self.cx.diags.push(
                Diagnostic::error(span, format!("`{n}` may be used before it is assigned"))
                    .with_label(format!("`{n}` is not assigned on every path to here")),
            );
            return Ex::Err;
        }
        match self.m.globals.get(n) {
            Some(Global::Const { lit, ty: None, .. }) => Ex::Lit(*lit),
            Some(Global::Const {
                lit, ty: Some(s), ..
            }) => match lit.to_const(*s) {
                Ok(c) => Ex::Val(self.konst(c), Ty::Scalar(*s)),
                Err(_) => Ex::Err,
            },
            Some(Global::Opaque {
                span: def_span,
                what,
            }) => {
                let d = Diagnostic::error(
                    span,
                    format!("`{n}` cannot be used in a kernel: it is {what}"),
                )
                .with_secondary(*def_span, format!("`{n}` is defined here"));
                self.cx.diags.push(d);
                Ex::Err
            }
            Some(Global::Item(Lib::Math, item)) if crate::module::math_const(item).is_some() => {
                Ex::Lit(Lit::Float(crate::module::math_const(item).unwrap_or(0.0)))
            }
            Some(_) => {
                self.error(span, format!("`{n}` is not a value"));
                Ex::Err
            }
            None => {
                self.error(span, format!("undefined name `{n}`"));
                Ex::Err
            }
        }
    }

    fn attr(&mut self, e: ExprId, base: ExprId, attr: &str, span: Span) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Some((lib, item)) = self.m.lib_item(self.ast, e, &is_local) {
            if lib == Lib::Math {
                if let Ok(Some(l)) = self.m.const_eval(self.ast, e, &is_local) {
                    return Ex::Lit(l);
                }
            }
            let item = item.to_string();
            self.error(span, format!("`{item}` must be called"));
            return Ex::Err;
        }
        if let ExprKind::Name(n) = &self.ast.expr(base).kind {
            if !self.is_local(n) && matches!(self.m.globals.get(n), Some(Global::Module(_))) {
                self.error(span, format!("`{n}` has no `{attr}` that kernels can use"));
                return Ex::Err;
            }
        }
        let b = self.expr(base);
        match b {
            Ex::Val(o, Ty::Vector(s, n)) => {
                let idx = ["x", "y", "z", "w"]
                    .iter()
                    .position(|c| *c == attr)
                    .map(|i| i as u32)
                    .filter(|&i| i < n as u32);
                let Some(idx) = idx else {
                    self.error(
                        span,
                        format!("a {} has no component `{attr}`", Ty::Vector(s, n)),
                    );
                    return Ex::Err;
                };
                Ex::Val(
                    self.val(Op::Extract(idx), Ty::Scalar(s), vec![o], span),
                    Ty::Scalar(s),
                )
            }
            Ex::Err => Ex::Err,
            Ex::Array(_) if attr == "shape" => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        "arrays have no `.shape` in this version: they are one-dimensional",
                    )
                    .with_help("`len(a)` is the element count"),
                );
                Ex::Err
            }
            Ex::Array(_) => {
                self.cx.diags.push(
                    Diagnostic::error(span, format!("an array has no attribute `{attr}`"))
                        .with_help("an array has `a[i]`, `a[i] = v` and `len(a)`"),
                );
                Ex::Err
            }
            _ => {
                self.error(span, format!("no attribute `{attr}` here: only vectors have components (`.x`, `.y`, `.z`)"));
                Ex::Err
            }
        }
    }

    fn array_of(&mut self, base: ExprId) -> Option<ArrayId> {
        let sp = self.ast.expr(base).span;
        match self.expr(base) {
            Ex::Array(a) => Some(a),
            Ex::Err => None,
            Ex::Val(_, t @ Ty::Vector(..)) => {
                self.cx.diags.push(
                    Diagnostic::error(
                        sp,
                        format!("`{t}` values cannot be indexed in this version"),
                    )
                    .with_help("use its components: `.x`, `.y`, `.z`, as in `global_id().x`"),
                );
                None
            }
            _ => {
                self.error(sp, "only arrays can be indexed");
                None
            }
        }
    }

    fn index(&mut self, index: ExprId) -> Option<Operand> {
        let sp = self.ast.expr(index).span;
        if let ExprKind::Tuple(_) = self.ast.expr(index).kind {
            self.cx.diags.push(
                Diagnostic::error(
                    sp,
                    "arrays have one index in this version: they are one-dimensional",
                )
                .with_help("store a grid row by row and index it as `a[i * width + j]`"),
            );
            return None;
        }
        match self.expr(index) {
            Ex::Val(o, t) if t.as_scalar().is_some_and(Scalar::is_int) => Some(o),
            Ex::Lit(l @ Lit::Int(_)) => match l.to_const(Scalar::I32) {
                Ok(c) => Some(self.konst(c)),
                Err(e) => {
                    self.error(sp, e);
                    None
                }
            },
            Ex::Err => None,
            Ex::Val(_, t) => {
                self.cx.diags.push(
                    Diagnostic::error(sp, format!("an array index must be an integer, not {t}"))
                        .with_help("convert it with `int(...)`"),
                );
                None
            }
            _ => {
                self.error(sp, "an array index must be an integer");
                None
            }
        }
    }

    /// A literal or value as a typed value.
    fn value(&mut self, ex: Ex, span: Span) -> Option<(Operand, Ty)> {
        match ex {
            Ex::Val(o, t) => Some((o, t)),
            Ex::Lit(l) => match l.default_scalar().and_then(|s| l.to_const(s)) {
                Ok(c) => Some((self.konst(c), c.ty())),
                Err(e) => {
                    self.error(span, e);
                    None
                }
            },
            Ex::Array(_) => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        "an array is not a value: index it, or pass it to a func",
                    )
                    .with_help("arrays cannot be copied or assigned to variables"),
                );
                None
            }
            Ex::Void => {
                self.error(span, "this call returns nothing, so it has no value");
                None
            }
            Ex::Err => None,
        }
    }

    /// `ex` converted implicitly to `to`, or an error saying where it was `what`.
    fn coerce(&mut self, ex: Ex, to: Ty, span: Span, what: &str) -> Option<Operand> {
        match ex {
            Ex::Val(o, t) if t == to => Some(o),
            Ex::Val(o, t) if to == Ty::F32 && t.as_scalar().is_some_and(Scalar::is_int) => {
                Some(self.val(Op::Convert, Ty::F32, vec![o], span))
            }
            Ex::Val(_, t) => {
                let help = match (t.scalar(), to.scalar()) {
                    (Scalar::F32, s) if s.is_int() => {
                        "convert explicitly with `int(...)`".to_string()
                    }
                    (Scalar::I32, Scalar::U32) | (Scalar::U32, Scalar::I32) => {
                        format!("convert explicitly with `{}(...)`", to.name())
                    }
                    _ => format!("the value must be {to}"),
                };
                self.cx.diags.push(
                    Diagnostic::error(span, format!("expected {to}, found {t}"))
                        .with_label(format!("this {t} is {what}"))
                        .with_help(help),
                );
                None
            }
            Ex::Lit(l) => match l.to_const(to.scalar()) {
                Ok(c) if to.as_scalar().is_some() => Some(self.konst(c)),
                Ok(_) => None,
                Err(e) => {
                    self.cx
                        .diags
                        .push(Diagnostic::error(span, e).with_label(what.to_string()));
                    None
                }
            },
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// Python truthiness as a `bool` operand.
    fn truthy(&mut self, ex: Ex, span: Span) -> Option<Operand> {
        match ex {
            Ex::Lit(l) => Some(self.konst(Const::Bool(l.truthy()))),
            Ex::Val(o, Ty::Scalar(Scalar::Bool)) => Some(o),
            Ex::Val(o, Ty::Scalar(s)) => {
                let zero = self.konst(Const::zero(s));
                Some(self.val(Op::Cmp(CmpOp::Ne), Ty::BOOL, vec![o, zero], span))
            }
            Ex::Val(_, t) => {
                self.error(span, format!("a {t} has no truth value in kernels"));
                None
            }
            other => self.value(other, span).map(|x| x.0),
        }
    }

    fn cond(&mut self, e: ExprId) -> Operand {
        let span = self.ast.expr(e).span;
        let ex = self.test_ex(e);
        self.truthy(ex, span)
            .unwrap_or_else(|| self.konst(Const::Bool(false)))
    }

    /// `e` in a test position (the condition of `if`/`elif`/`while`, the test of `x if c else
    /// y`, the operand of `not`, `assert`), where only its truth matters: a bool value or
    /// literal. There `and`/`or` test each operand's truth in turn (short-circuit kept), so
    /// their operands may have different types, as in Python.
    fn test_ex(&mut self, e: ExprId) -> Ex {
        let span = self.ast.expr(e).span;
        let ex = match &self.ast.expr(e).kind {
            ExprKind::BoolOp(is_and, values) => return self.bool_op(*is_and, values, span, true),
            ExprKind::IfExp(t, b, o) => return self.test_if_exp(*t, *b, *o, span),
            _ => self.expr(e),
        };
        match ex {
            Ex::Lit(l) => Ex::Lit(Lit::Bool(l.truthy())),
            Ex::Err => Ex::Err,
            other => match self.truthy(other, span) {
                Some(b) => Ex::Val(b, Ty::BOOL),
                None => Ex::Err,
            },
        }
    }

    /// Brings two operands to one type for arithmetic or comparison: literals take the
    /// other operand's type; int and float promote to float; i32 and u32 do not mix.
    fn unify(
        &mut self,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        op: &str,
    ) -> Option<(Operand, Operand, Ty)> {
        for (x, sp) in [(&a, a_span), (&b, b_span)] {
            if let Ex::Val(_, t @ Ty::Vector(..)) = x {
                self.cx.diags.push(
                    Diagnostic::error(
                        sp,
                        format!("`{op}` on a `{t}` is not supported by this version"),
                    )
                    .with_help("work on its components: `.x`, `.y`, `.z`"),
                );
                return None;
            }
        }
        match (a, b) {
            (Ex::Err, _) | (_, Ex::Err) => None,
            (Ex::Lit(l), Ex::Val(o, t)) => {
                let (o2, t2) = self.lit_meets(l, o, t, b_span);
                Some((self.lit_const(l, t2, a_span)?, o2, t2))
            }
            (Ex::Val(o, t), Ex::Lit(l)) => {
                let (o2, t2) = self.lit_meets(l, o, t, a_span);
                Some((o2, self.lit_const(l, t2, b_span)?, t2))
            }
            (Ex::Val(x, tx), Ex::Val(y, ty)) => {
                if tx == ty {
                    return Some((x, y, tx));
                }
                match (tx.as_scalar(), ty.as_scalar()) {
                    (Some(sx), Some(Scalar::F32)) if sx.is_int() => {
                        Some((self.val(Op::Convert, Ty::F32, vec![x], a_span), y, Ty::F32))
                    }
                    (Some(Scalar::F32), Some(sy)) if sy.is_int() => {
                        Some((x, self.val(Op::Convert, Ty::F32, vec![y], b_span), Ty::F32))
                    }
                    _ => {
                        let mut d = Diagnostic::error(
                            a_span.to(b_span),
                            format!("`{op}` cannot mix {tx} and {ty}"),
                        )
                        .with_secondary(a_span, format!("this is {tx}"))
                        .with_secondary(b_span, format!("this is {ty}"));
                        if tx.scalar().is_int() && ty.scalar().is_int() {
                            d = d.with_help("convert one side with `i32(...)` or `u32(...)`");
                        } else if tx == Ty::BOOL || ty == Ty::BOOL {
                            d = d.with_help("convert the bool with `int(...)`");
                        }
                        self.cx.diags.push(d);
                        None
                    }
                }
            }
            (a, b) => {
                let (x, tx) = self.value(a, a_span)?;
                let (y, ty) = self.value(b, b_span)?;
                self.unify(Ex::Val(x, tx), Ex::Val(y, ty), a_span, b_span, op)
            }
        }
    }

    /// A literal meeting a typed value: a float literal promotes an int value to f32.
    fn lit_meets(&mut self, l: Lit, o: Operand, t: Ty, o_span: Span) -> (Operand, Ty) {
        if matches!(l, Lit::Float(_)) && t.as_scalar().is_some_and(Scalar::is_int) {
            return (self.val(Op::Convert, Ty::F32, vec![o], o_span), Ty::F32);
        }
        (o, t)
    }

    fn lit_const(&mut self, l: Lit, t: Ty, span: Span) -> Option<Operand> {
        match l.to_const(t.scalar()) {
            Ok(c) => Some(self.konst(c)),
            Err(e) => {
                self.error(span, e);
                None
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, x: Ex, span: Span) -> Ex {
        match x {
            Ex::Lit(l) => match lit::unary(op, l) {
                Ok(r) => Ex::Lit(r),
                Err(e) => {
                    self.error(span, e);
                    Ex::Err
                }
            },
            Ex::Err => Ex::Err,
            Ex::Val(_, t @ Ty::Vector(..)) if op != UnaryOp::Not => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("a unary operator on a `{t}` is not supported by this version"),
                    )
                    .with_help("work on its components: `.x`, `.y`, `.z`"),
                );
                Ex::Err
            }
            _ if op == UnaryOp::Not => match self.truthy(x, span) {
                Some(b) => Ex::Val(
                    self.val(Op::Unary(UnOp::Not), Ty::BOOL, vec![b], span),
                    Ty::BOOL,
                ),
                None => Ex::Err,
            },
            Ex::Val(o, t) => match (op, t.scalar()) {
                (_, Scalar::Bool) => {
                    self.cx.diags.push(
                        Diagnostic::error(
                            span,
                            format!(
                                "`{}` on a bool is not supported",
                                if op == UnaryOp::Invert { "~" } else { "-" }
                            ),
                        )
                        .with_help("use `not`, or convert with `int(...)`"),
                    );
                    Ex::Err
                }
                (UnaryOp::Pos, _) => x,
                (UnaryOp::Neg, _) => Ex::Val(self.val(Op::Unary(UnOp::Neg), t, vec![o], span), t),
                (UnaryOp::Invert, s) if s.is_int() => {
                    Ex::Val(self.val(Op::Unary(UnOp::BitNot), t, vec![o], span), t)
                }
                _ => {
                    self.error(span, format!("`~` needs an integer, not {t}"));
                    Ex::Err
                }
            },
            other => {
                let _ = self.value(other, span);
                Ex::Err
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: Ex, b: Ex, a_span: Span, b_span: Span, span: Span) -> Ex {
        if let (Ex::Lit(x), Ex::Lit(y)) = (a, b) {
            return match lit::binary(op, x, y) {
                Ok(r) => Ex::Lit(r),
                Err(e) => {
                    self.error(span, e);
                    Ex::Err
                }
            };
        }
        let sym = op.symbol();
        match op {
            BinaryOp::Pow => self.pow(a, b, a_span, b_span, span),
            BinaryOp::Div => {
                let x = self.coerce_float(a, a_span, sym);
                let y = self.coerce_float(b, b_span, sym);
                match (x, y) {
                    (Some(x), Some(y)) => Ex::Val(
                        self.val(Op::Binary(BinOp::Div), Ty::F32, vec![x, y], span),
                        Ty::F32,
                    ),
                    _ => Ex::Err,
                }
            }
            BinaryOp::Shl | BinaryOp::Shr => self.shift(op, a, b, a_span, b_span, span),
            _ => {
                let arithmetic =
                    !matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
                let is_bool = |x: &Ex| matches!(x, Ex::Val(_, t) if *t == Ty::BOOL);
                if arithmetic && (is_bool(&a) || is_bool(&b)) {
                    self.cx.diags.push(
                        Diagnostic::error(span, format!("`{sym}` on bools is not supported"))
                            .with_help("convert with `int(...)`"),
                    );
                    return Ex::Err;
                }
                let Some((x, y, t)) = self.unify(a, b, a_span, b_span, sym) else {
                    return Ex::Err;
                };
                let bin = match op {
                    BinaryOp::Add => BinOp::Add,
                    BinaryOp::Sub => BinOp::Sub,
                    BinaryOp::Mul => BinOp::Mul,
                    BinaryOp::FloorDiv => BinOp::FloorDiv,
                    BinaryOp::Mod => BinOp::Mod,
                    BinaryOp::BitAnd => BinOp::BitAnd,
                    BinaryOp::BitOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                let bitwise = matches!(bin, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
                match t.scalar() {
                    Scalar::Bool if bitwise => {}
                    Scalar::Bool => {
                        self.cx.diags.push(
                            Diagnostic::error(span, format!("`{sym}` on bools is not supported"))
                                .with_help("convert with `int(...)`"),
                        );
                        return Ex::Err;
                    }
                    Scalar::F32 if bitwise => {
                        self.error(span, format!("`{sym}` needs integers, not f32"));
                        return Ex::Err;
                    }
                    _ => {}
                }
                Ex::Val(self.val(Op::Binary(bin), t, vec![x, y], span), t)
            }
        }
    }

    fn coerce_float(&mut self, x: Ex, span: Span, op: &str) -> Option<Operand> {
        match x {
            Ex::Val(_, t) if t == Ty::BOOL => {
                self.error(span, format!("`{op}` on a bool is not supported"));
                None
            }
            other => self.coerce(other, Ty::F32, span, &format!("an operand of `{op}`")),
        }
    }

    fn shift(&mut self, op: BinaryOp, a: Ex, b: Ex, a_span: Span, b_span: Span, span: Span) -> Ex {
        let (x, t) = match a {
            Ex::Lit(l) => match b {
                // The count's type decides a literal left operand's.
                Ex::Val(_, tb) => match self.lit_const(l, tb, a_span) {
                    Some(o) => (o, tb),
                    None => return Ex::Err,
                },
                _ => return Ex::Err,
            },
            other => match self.value(other, a_span) {
                Some(v) => v,
                None => return Ex::Err,
            },
        };
        if !t.scalar().is_int() {
            self.error(
                a_span,
                format!("`{}` needs an integer, not {t}", op.symbol()),
            );
            return Ex::Err;
        }
        let y = match b {
            Ex::Lit(l) => match self.lit_const(l, t, b_span) {
                Some(o) => o,
                None => return Ex::Err,
            },
            Ex::Val(o, tb) if tb == t => o,
            Ex::Val(o, tb) if tb.scalar().is_int() => self.val(Op::Convert, t, vec![o], b_span),
            Ex::Val(_, tb) => {
                self.error(
                    b_span,
                    format!("a shift count must be an integer, not {tb}"),
                );
                return Ex::Err;
            }
            _ => return Ex::Err,
        };
        let bin = if op == BinaryOp::Shl {
            BinOp::Shl
        } else {
            BinOp::Shr
        };
        Ex::Val(self.val(Op::Binary(bin), t, vec![x, y], span), t)
    }

    /// `x ** n`: repeated multiplication for a literal integer `n` (exact), else `pow` on
    /// floats. `int ** int` with a run-time exponent has no static type in Python.
    fn pow(&mut self, a: Ex, b: Ex, a_span: Span, b_span: Span, span: Span) -> Ex {
        match b {
            Ex::Lit(Lit::Int(n)) => {
                let Some((x, t)) = self.value(a, a_span) else {
                    return Ex::Err;
                };
                if t == Ty::BOOL {
                    self.error(a_span, "`**` on a bool is not supported");
                    return Ex::Err;
                }
                let (x, t) = if n < 0 {
                    match self.coerce(
                        Ex::Val(x, t),
                        Ty::F32,
                        a_span,
                        "the base of `**` with a negative exponent",
                    ) {
                        Some(x) => (x, Ty::F32),
                        None => return Ex::Err,
                    }
                } else {
                    (x, t)
                };
                let p = self.power(x, t, n.unsigned_abs(), span);
                if n < 0 {
                    let one = self.konst(Const::f32(1.0));
                    Ex::Val(
                        self.val(Op::Binary(BinOp::Div), Ty::F32, vec![one, p], span),
                        Ty::F32,
                    )
                } else {
                    Ex::Val(p, t)
                }
            }
            _ => {
                let int_exp = matches!(b, Ex::Val(_, t) if t.scalar().is_int());
                let int_base = matches!(a, Ex::Lit(Lit::Int(_)))
                    || matches!(a, Ex::Val(_, t) if t.scalar().is_int());
                if int_exp && int_base {
                    self.cx.diags.push(Diagnostic::error(span, "`int ** int` needs a literal exponent")
                        .with_note("with a run-time exponent, Python's result is an int or a float depending on its sign")
                        .with_help("write `float(x) ** n` for a float result, or multiply in a loop"));
                    return Ex::Err;
                }
                let x = self.coerce_float(a, a_span, "**");
                let y = self.coerce_float(b, b_span, "**");
                match (x, y) {
                    (Some(x), Some(y)) => Ex::Val(
                        self.val(Op::Math(MathFn::Pow), Ty::F32, vec![x, y], span),
                        Ty::F32,
                    ),
                    _ => Ex::Err,
                }
            }
        }
    }

    /// `x ** n` by square-and-multiply.
    fn power(&mut self, x: Operand, t: Ty, mut n: u64, span: Span) -> Operand {
        let one = Const::one(t.scalar());
        let mut result: Option<Operand> = None;
        let mut base = x;
        while n > 0 {
            if n & 1 == 1 {
                result = Some(match result {
                    None => base,
                    Some(r) => self.val(Op::Binary(BinOp::Mul), t, vec![r, base], span),
                });
            }
            n >>= 1;
            if n > 0 {
                base = self.val(Op::Binary(BinOp::Mul), t, vec![base, base], span);
            }
        }
        result.unwrap_or_else(|| self.konst(one))
    }

    fn compare(&mut self, op: CmpOp, a: Ex, b: Ex, a_span: Span, b_span: Span, span: Span) -> Ex {
        if let (Ex::Lit(x), Ex::Lit(y)) = (a, b) {
            return Ex::Lit(Lit::Bool(lit::compare(op, x, y)));
        }
        let Some((x, y, t)) = self.unify(a, b, a_span, b_span, "comparison") else {
            return Ex::Err;
        };
        if t == Ty::BOOL && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            self.error(span, "bools can be compared only with `==` and `!=`");
            return Ex::Err;
        }
        Ex::Val(self.val(Op::Cmp(op), Ty::BOOL, vec![x, y], span), Ty::BOOL)
    }

    fn compare_chain(&mut self, left: ExprId, rest: &[(CmpOp, ExprId)], span: Span) -> Ex {
        let mut a = self.expr(left);
        let mut a_span = self.ast.expr(left).span;
        let (op0, b0) = rest[0];
        let b = self.expr(b0);
        let b_span = self.ast.expr(b0).span;
        let mut result = self.compare(op0, a, b, a_span, b_span, span);
        a = b;
        a_span = b_span;
        if rest.len() == 1 {
            return result;
        }
        let lazy = rest[1..].iter().any(|r| !self.is_pure(r.1));
        if !lazy {
            for &(op, e) in &rest[1..] {
                let b = self.expr(e);
                let b_span = self.ast.expr(e).span;
                let r = self.compare(op, a, b, a_span, b_span, span);
                result = self.and_bools(result, r, span);
                a = b;
                a_span = b_span;
            }
            return result;
        }
        // `a < b < c` is `a < b and b < c`, with `c` evaluated only when `a < b`: each further
        // comparison is a selection nested in the true side of the one before, so that an
        // operand evaluated there (`x[2]` in `a < x[2] < d`) dominates its second use.
        let Some(r0) = self.truthy(result, span) else {
            return Ex::Err;
        };
        let t = self.new_var("", Ty::BOOL, span);
        self.def(t, r0);
        let mut merges = Vec::with_capacity(rest.len() - 1);
        for &(op, e) in &rest[1..] {
            let cur = self.read(t, span);
            let next = self.new_block();
            let merge = self.new_block();
            self.set_merge(Merge::Selection(merge));
            self.terminate(Term::Branch(cur, next, merge));
            self.switch(next);
            let b = self.expr(e);
            let b_span = self.ast.expr(e).span;
            let r = self.compare(op, a, b, a_span, b_span, span);
            if let Some(r) = self.truthy(r, span) {
                self.def(t, r);
            }
            merges.push(merge);
            a = b;
            a_span = b_span;
        }
        for merge in merges.into_iter().rev() {
            self.jump(merge);
            self.switch(merge);
        }
        Ex::Val(self.read(t, span), Ty::BOOL)
    }

    fn and_bools(&mut self, a: Ex, b: Ex, span: Span) -> Ex {
        match (a, b) {
            (Ex::Lit(Lit::Bool(false)), _) | (_, Ex::Lit(Lit::Bool(false))) => {
                Ex::Lit(Lit::Bool(false))
            }
            (Ex::Lit(Lit::Bool(true)), x) | (x, Ex::Lit(Lit::Bool(true))) => x,
            (Ex::Val(x, _), Ex::Val(y, _)) => Ex::Val(
                self.val(Op::Binary(BinOp::And), Ty::BOOL, vec![x, y], span),
                Ty::BOOL,
            ),
            _ => Ex::Err,
        }
    }

    /// `a and b and ...` / `a or b or ...`. With `test`, in a test position: each operand
    /// is taken for its truth ([`Self::test_ex`]) and the result is a bool.
    fn bool_op(&mut self, is_and: bool, values: &[ExprId], span: Span, test: bool) -> Ex {
        let op_name = if is_and { "and" } else { "or" };
        let operand = |l: &mut Self, e: ExprId| if test { l.test_ex(e) } else { l.expr(e) };
        let mut i = 0;
        let mut cur = operand(self, values[0]);
        let mut cur_span = self.ast.expr(values[0]).span;
        while i + 1 < values.len() {
            let next = values[i + 1];
            let next_span = self.ast.expr(next).span;
            i += 1;
            // A literal left operand decides at compile time.
            if let Ex::Lit(l) = cur {
                if l.truthy() == is_and {
                    cur = operand(self, next);
                    cur_span = next_span;
                    continue;
                }
                return cur;
            }
            if matches!(cur, Ex::Err) {
                return Ex::Err;
            }
            let Some((a, t)) = self.value(cur, cur_span) else {
                return Ex::Err;
            };
            if self.is_pure(next) {
                let b = operand(self, next);
                let Some(b) = self.same_type(b, t, next_span, op_name, cur_span) else {
                    return Ex::Err;
                };
                let r = if t == Ty::BOOL {
                    let op = if is_and { BinOp::And } else { BinOp::Or };
                    self.val(Op::Binary(op), Ty::BOOL, vec![a, b], span)
                } else {
                    let Some(c) = self.truthy(Ex::Val(a, t), cur_span) else {
                        return Ex::Err;
                    };
                    let args = if is_and { vec![c, b, a] } else { vec![c, a, b] };
                    self.val(Op::Select, t, args, span)
                };
                cur = Ex::Val(r, t);
            } else {
                let var = self.new_var("", t, span);
                self.def(var, a);
                let Some(c) = self.truthy(Ex::Val(a, t), cur_span) else {
                    return Ex::Err;
                };
                let rhs = self.new_block();
                let merge = self.new_block();
                self.set_merge(Merge::Selection(merge));
                let term = if is_and {
                    Term::Branch(c, rhs, merge)
                } else {
                    Term::Branch(c, merge, rhs)
                };
                self.terminate(term);
                self.switch(rhs);
                let b = operand(self, next);
                if let Some(b) = self.same_type(b, t, next_span, op_name, cur_span) {
                    self.def(var, b);
                }
                self.jump(merge);
                self.switch(merge);
                cur = Ex::Val(self.read(var, span), t);
            }
            cur_span = cur_span.to(next_span);
        }
        cur
    }

    /// `b` as type `t` for the other operand of `and`/`or` or the other side of a
    /// conditional expression: literals adapt; values must already have type `t`.
    fn same_type(
        &mut self,
        b: Ex,
        t: Ty,
        span: Span,
        what: &str,
        other_span: Span,
    ) -> Option<Operand> {
        match b {
            Ex::Val(o, tb) if tb == t => Some(o),
            Ex::Val(_, tb) => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("the operands of `{what}` must have one type, but this is {tb}"),
                    )
                    .with_secondary(other_span, format!("this is {t}"))
                    .with_help("convert one of them, for example with `float(...)`"),
                );
                None
            }
            Ex::Lit(l) => self.lit_const(l, t, span),
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// `a if c else b` where only its truth matters (a test): each side is a test of its own,
    /// so the sides need not share a type (`assert y if c else True`).
    fn test_if_exp(&mut self, test: ExprId, body: ExprId, orelse: ExprId, span: Span) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Ok(Some(l)) = self.m.const_eval(self.ast, test, &is_local) {
            return self.test_ex(if l.truthy() { body } else { orelse });
        }
        let c = self.cond(test);
        let then_b = self.new_block();
        let else_b = self.new_block();
        let merge = self.new_block();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(c, then_b, else_b));
        let v = self.new_var("", Ty::BOOL, span);
        let mut ok = true;
        for (e, block) in [(body, then_b), (orelse, else_b)] {
            self.switch(block);
            match self.test_ex(e) {
                Ex::Lit(l) => {
                    let k = self.konst(Const::Bool(l.truthy()));
                    self.def(v, k);
                }
                Ex::Val(o, _) => self.def(v, o),
                _ => ok = false,
            }
            self.jump(merge);
        }
        self.switch(merge);
        if ok {
            Ex::Val(self.read(v, span), Ty::BOOL)
        } else {
            Ex::Err
        }
    }

    fn if_exp(&mut self, test: ExprId, body: ExprId, orelse: ExprId, span: Span) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Ok(Some(l)) = self.m.const_eval(self.ast, test, &is_local) {
            return self.expr(if l.truthy() { body } else { orelse });
        }
        let (body_span, else_span) = (self.ast.expr(body).span, self.ast.expr(orelse).span);
        let c = self.cond(test);
        if self.is_pure(body) && self.is_pure(orelse) {
            let a = self.expr(body);
            let b = self.expr(orelse);
            let (a, b, t) = match (a, b) {
                (Ex::Lit(_), Ex::Lit(_)) => {
                    let (x, t) = match self.value(a, body_span) {
                        Some(v) => v,
                        None => return Ex::Err,
                    };
                    match self.same_type(b, t, else_span, "if-else", body_span) {
                        Some(y) => (x, y, t),
                        None => return Ex::Err,
                    }
                }
                (Ex::Lit(l), Ex::Val(y, t)) => match self.lit_const(l, t, body_span) {
                    Some(x) => (x, y, t),
                    None => return Ex::Err,
                },
                _ => {
                    let Some((x, t)) = self.value(a, body_span) else {
                        return Ex::Err;
                    };
                    match self.same_type(b, t, else_span, "if-else", body_span) {
                        Some(y) => (x, y, t),
                        None => return Ex::Err,
                    }
                }
            };
            return Ex::Val(self.val(Op::Select, t, vec![c, a, b], span), t);
        }
        let then_b = self.new_block();
        let else_b = self.new_block();
        let merge = self.new_block();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(c, then_b, else_b));
        // Lower a literal side last, so that it can take the other side's type.
        let body_is_lit = matches!(
            self.m
                .const_eval(self.ast, body, &|n: &str| self.is_local(n)),
            Ok(Some(_))
        );
        let sides = if body_is_lit {
            [(orelse, else_b, else_span), (body, then_b, body_span)]
        } else {
            [(body, then_b, body_span), (orelse, else_b, else_span)]
        };
        let mut var: Option<(Var, Ty)> = None;
        for (e, block, sp) in sides {
            self.switch(block);
            let x = self.expr(e);
            match var {
                None => {
                    if let Some((o, t)) = self.value(x, sp) {
                        let v = self.new_var("", t, sp);
                        self.def(v, o);
                        var = Some((v, t));
                    }
                }
                Some((v, t)) => {
                    if let Some(o) = self.same_type(x, t, sp, "if-else", sides[0].2) {
                        self.def(v, o);
                    }
                }
            }
            self.jump(merge);
        }
        self.switch(merge);
        match var {
            Some((v, t)) => Ex::Val(self.read(v, span), t),
            None => Ex::Err,
        }
    }

    // ----- calls -------------------------------------------------------------------------

    fn call(&mut self, func: ExprId, args: &[ExprId], keywords: &[Keyword], span: Span) -> Ex {
        let fexpr = self.ast.expr(func);
        if let Some(k) = keywords.first() {
            self.cx.diags.push(
                Diagnostic::error(k.span, "keyword arguments are not supported")
                    .with_help("pass arguments by position"),
            );
            return Ex::Err;
        }
        let is_local = |n: &str| self.is_local(n);
        if let Some((lib, item)) = self.m.lib_item(self.ast, func, &is_local) {
            let item = item.to_string();
            return match lib {
                Lib::Math => self.math_call(&item, args, span),
                Lib::Spirthon => self.spirthon_call(&item, args, span),
            };
        }
        let ExprKind::Name(name) = &fexpr.kind else {
            self.callee_error(func);
            return Ex::Err;
        };
        if self.is_local(name) {
            self.error(
                fexpr.span,
                format!("`{name}` is a variable, not a function"),
            );
            return Ex::Err;
        }
        match self.m.globals.get(name) {
            Some(Global::Def(d)) => self.func_call(*d, args, span),
            Some(Global::Opaque {
                span: def_span,
                what,
            }) => {
                let d = Diagnostic::error(
                    fexpr.span,
                    format!("`{name}` cannot be called from a kernel: it is {what}"),
                )
                .with_secondary(*def_span, format!("`{name}` is defined here"))
                .with_help("kernels can call only functions decorated with `@func`");
                self.cx.diags.push(d);
                Ex::Err
            }
            Some(_) => {
                self.error(fexpr.span, format!("`{name}` is not a function"));
                Ex::Err
            }
            None => self.builtin_call(name, args, span, fexpr.span),
        }
    }

    /// Explains why a callee that is not a plain name is not callable: `math.sqrt` without
    /// `import math`, a method of a value, or something else.
    fn callee_error(&mut self, func: ExprId) {
        let fexpr = self.ast.expr(func);
        if let ExprKind::Attr(base, attr) = &fexpr.kind {
            let b = self.ast.expr(*base);
            if let ExprKind::Name(n) = &b.kind {
                if !self.is_local(n) && !self.m.globals.contains_key(n) {
                    let mut d = Diagnostic::error(b.span, format!("undefined name `{n}`"));
                    if n == "math" || n == "spirthon" {
                        d = d.with_help(format!("add `import {n}`"));
                    }
                    self.cx.diags.push(d);
                    return;
                }
                if self.is_local(n) {
                    self.error(
                        fexpr.span,
                        format!("`{n}.{attr}(...)`: values have no methods in kernels"),
                    );
                    return;
                }
            }
        }
        self.error(fexpr.span, "only functions can be called");
    }

    fn args(&mut self, args: &[ExprId]) -> Vec<(Ex, Span)> {
        args.iter()
            .map(|&a| (self.expr(a), self.ast.expr(a).span))
            .collect()
    }

    fn arity(&mut self, name: &str, args: &[ExprId], n: usize, span: Span) -> bool {
        if args.len() == n {
            return true;
        }
        let s = if n == 1 { "" } else { "s" };
        self.error(
            span,
            format!(
                "`{name}` takes {n} argument{s}, but {}",
                if args.len() == 1 {
                    "1 was given".to_string()
                } else {
                    format!("{} were given", args.len())
                }
            ),
        );
        false
    }

    fn func_call(&mut self, d: usize, args: &[ExprId], span: Span) -> Ex {
        let sig = &self.m.defs[d];
        if sig.is_kernel {
            self.cx.diags.push(
                Diagnostic::error(
                    span,
                    format!("`{}` is a kernel; kernels cannot be called", sig.name),
                )
                .with_help("move the shared code into a `@func`"),
            );
            return Ex::Err;
        }
        if !self.arity(&sig.name.clone(), args, sig.params.len(), span) {
            return Ex::Err;
        }
        let exs = self.args(args);
        let mut ops = Vec::new();
        let mut arrays = Vec::new();
        let mut ok = true;
        for (p, &(ex, sp)) in sig.params.iter().zip(&exs) {
            match p.kind {
                ParamKind::Scalar(t) => {
                    let what = format!("passed to parameter `{}` of `{}`", p.name, sig.name);
                    match self.coerce(ex, t, sp, &what) {
                        Some(o) => ops.push(o),
                        None => ok = false,
                    }
                }
                ParamKind::Array(t) => match ex {
                    Ex::Array(a) if self.cx.arrays[a.index()].elem == t => arrays.push(a),
                    Ex::Array(a) => {
                        let found = self.cx.arrays[a.index()].elem;
                        self.error(sp, format!("parameter `{}` of `{}` is an Array[{t}], but this is an Array[{found}]", p.name, sig.name));
                        ok = false;
                    }
                    Ex::Err => ok = false,
                    _ => {
                        self.error(
                            sp,
                            format!("parameter `{}` of `{}` needs an array", p.name, sig.name),
                        );
                        ok = false;
                    }
                },
            }
        }
        if !ok {
            return Ex::Err;
        }
        let ret = sig.ret;
        let id = self.cx.instance(d, arrays);
        let v = self.emit(Op::Call(id), ret, ops, span);
        match ret {
            Some(t) => Ex::Val(Operand::Value(v), t),
            None => Ex::Void,
        }
    }

    fn builtin_call(&mut self, name: &str, args: &[ExprId], span: Span, name_span: Span) -> Ex {
        match name {
            "abs" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Lit(Lit::Int(i)) => Ex::Lit(Lit::Int(i.abs())),
                    Ex::Lit(Lit::Float(f)) => Ex::Lit(Lit::Float(f.abs())),
                    Ex::Val(_, t) if t.scalar() == Scalar::U32 => x,
                    Ex::Val(o, t) if t.scalar() != Scalar::Bool => {
                        Ex::Val(self.val(Op::Math(MathFn::Abs), t, vec![o], span), t)
                    }
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`abs` needs a number");
                        Ex::Err
                    }
                }
            }
            "min" | "max" => self.min_max(name, args, span),
            "int" | "float" | "bool" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let to = match name {
                    "int" => Ty::I32,
                    "float" => Ty::F32,
                    _ => Ty::BOOL,
                };
                let (x, sp) = self.args(args)[0];
                self.convert(x, to, sp, span)
            }
            "round" => {
                if args.len() == 2 {
                    self.error(
                        span,
                        "`round(x, ndigits)` is not supported; `round(x)` rounds to an int",
                    );
                    return Ex::Err;
                }
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Lit(Lit::Float(f)) => Ex::Lit(Lit::Int(f.round_ties_even() as i64)),
                    Ex::Lit(l) => Ex::Lit(l),
                    Ex::Val(o, t) if t == Ty::F32 => {
                        let r = self.val(Op::Math(MathFn::RoundEven), Ty::F32, vec![o], span);
                        Ex::Val(self.val(Op::Convert, Ty::I32, vec![r], span), Ty::I32)
                    }
                    Ex::Val(_, t) if t.scalar().is_int() => x,
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`round` needs a number");
                        Ex::Err
                    }
                }
            }
            "len" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Array(a) => {
                        Ex::Val(self.val(Op::ArrayLen(a), Ty::I32, vec![], span), Ty::I32)
                    }
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`len` needs an array");
                        Ex::Err
                    }
                }
            }
            "range" => {
                self.error(
                    span,
                    "`range` can only be looped over: `for i in range(...)`",
                );
                Ex::Err
            }
            "print" => {
                self.cx.diags.push(Diagnostic::error(name_span, "`print` does not run on the GPU")
                    .with_help("run the kernel under CPython (`python3 -m spirthon run ...`) to debug it with print()"));
                Ex::Err
            }
            _ => {
                let d = match self.m.globals.get(name) {
                    None if crate::module::SPIRTHON_NAMES.contains(&name) => {
                        Diagnostic::error(name_span, format!("unknown function `{name}`"))
                            .with_help(format!("import it: `from spirthon import {name}`"))
                    }
                    None if crate::module::MATH_NAMES.contains(&name) => {
                        Diagnostic::error(name_span, format!("unknown function `{name}`"))
                            .with_help(format!(
                                "import it: `from math import {name}`, or call `math.{name}`"
                            ))
                    }
                    _ => Diagnostic::error(name_span, format!("unknown function `{name}`")),
                };
                self.cx.diags.push(d);
                Ex::Err
            }
        }
    }

    /// Python's `int()`, `float()`, `bool()`, `i32()`, `u32()`, `f32()`.
    fn convert(&mut self, x: Ex, to: Ty, sp: Span, span: Span) -> Ex {
        match x {
            Ex::Lit(l) => match (l, to.scalar()) {
                (_, Scalar::Bool) => Ex::Lit(Lit::Bool(l.truthy())),
                (Lit::Float(f), Scalar::I32 | Scalar::U32) => {
                    if f.is_finite() {
                        self.lit_typed(Lit::Int(f.trunc() as i64), to, sp)
                    } else {
                        self.error(sp, "cannot convert an infinite or NaN float to an integer");
                        Ex::Err
                    }
                }
                (Lit::Bool(b), _) => self.lit_typed(Lit::Int(b as i64), to, sp),
                (Lit::Int(i), Scalar::U32) if i < 0 => {
                    self.lit_typed(Lit::Int(i as u32 as i64), to, sp)
                }
                (Lit::Int(i), Scalar::I32) if i > i32::MAX as i64 => {
                    self.lit_typed(Lit::Int(i as u32 as i32 as i64), to, sp)
                }
                _ => self.lit_typed(l, to, sp),
            },
            Ex::Val(o, t) if t == to => Ex::Val(o, t),
            Ex::Val(o, t) if t.as_scalar().is_some() => {
                if to == Ty::BOOL {
                    return match self.truthy(x, sp) {
                        Some(b) => Ex::Val(b, Ty::BOOL),
                        None => Ex::Err,
                    };
                }
                Ex::Val(self.val(Op::Convert, to, vec![o], span), to)
            }
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, format!("cannot convert this to {to}"));
                Ex::Err
            }
        }
    }

    /// A literal given an explicit type by a conversion (`f32(1)` is a typed f32 value).
    fn lit_typed(&mut self, l: Lit, to: Ty, sp: Span) -> Ex {
        match l.to_const(to.scalar()) {
            Ok(c) => Ex::Val(self.konst(c), to),
            Err(e) => {
                self.error(sp, e);
                Ex::Err
            }
        }
    }

    fn min_max(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        if args.len() < 2 {
            self.error(
                span,
                format!("`{name}` needs two or more arguments in kernels"),
            );
            return Ex::Err;
        }
        let f = if name == "min" {
            MathFn::Min
        } else {
            MathFn::Max
        };
        let exs = self.args(args);
        let (mut acc, mut acc_span) = exs[0];
        for &(x, sp) in &exs[1..] {
            acc = match (acc, x) {
                (Ex::Lit(a), Ex::Lit(b)) => {
                    let less = lit::compare(CmpOp::Lt, b, a);
                    Ex::Lit(if less == (f == MathFn::Min) { b } else { a })
                }
                _ => {
                    let Some((a, b, t)) = self.unify(acc, x, acc_span, sp, name) else {
                        return Ex::Err;
                    };
                    if t == Ty::BOOL {
                        self.error(span, format!("`{name}` needs numbers"));
                        return Ex::Err;
                    }
                    Ex::Val(self.val(Op::Math(f), t, vec![a, b], span), t)
                }
            };
            acc_span = acc_span.to(sp);
        }
        acc
    }

    fn math_call(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        let arity = match name {
            "atan2" | "pow" | "copysign" | "hypot" | "fmod" => 2,
            "log" if args.len() == 2 => 2,
            "pi" | "e" | "tau" | "inf" | "nan" => {
                self.error(span, format!("`math.{name}` is a constant, not a function"));
                return Ex::Err;
            }
            _ => 1,
        };
        if !self.arity(&format!("math.{name}"), args, arity, span) {
            return Ex::Err;
        }
        let exs = self.args(args);
        // Literal arguments fold in f64, as CPython computes them.
        if exs.iter().all(|(x, _)| matches!(x, Ex::Lit(_))) {
            let a = match exs[0].0 {
                Ex::Lit(l) => lit_f64(l),
                _ => 0.0,
            };
            let b = exs.get(1).map_or(0.0, |(x, _)| match x {
                Ex::Lit(l) => lit_f64(*l),
                _ => 0.0,
            });
            if name == "log" && exs.len() == 2 {
                return Ex::Lit(Lit::Float(a.ln() / b.ln()));
            }
            if let Some(l) = fold_math(name, a, b) {
                return Ex::Lit(l);
            }
        }
        let mut ops = Vec::new();
        for &(x, sp) in &exs {
            match self.coerce_float(x, sp, &format!("math.{name}")) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        if name == "log" && ops.len() == 2 {
            let a = self.val(Op::Math(MathFn::Log), Ty::F32, vec![ops[0]], span);
            let b = self.val(Op::Math(MathFn::Log), Ty::F32, vec![ops[1]], span);
            return Ex::Val(
                self.val(Op::Binary(BinOp::Div), Ty::F32, vec![a, b], span),
                Ty::F32,
            );
        }
        if name == "isfinite" {
            let n = self.val(Op::Math(MathFn::IsNan), Ty::BOOL, ops.clone(), span);
            let i = self.val(Op::Math(MathFn::IsInf), Ty::BOOL, ops, span);
            let either = self.val(Op::Binary(BinOp::Or), Ty::BOOL, vec![n, i], span);
            return Ex::Val(
                self.val(Op::Unary(UnOp::Not), Ty::BOOL, vec![either], span),
                Ty::BOOL,
            );
        }
        let Some(f) = math_fn(name) else {
            self.error(span, format!("`math.{name}` is not supported in kernels"));
            return Ex::Err;
        };
        match f {
            MathFn::IsNan | MathFn::IsInf => {
                Ex::Val(self.val(Op::Math(f), Ty::BOOL, ops, span), Ty::BOOL)
            }
            MathFn::Floor | MathFn::Ceil | MathFn::Trunc => {
                // Python's math.floor/ceil/trunc return int.
                let r = self.val(Op::Math(f), Ty::F32, ops, span);
                Ex::Val(self.val(Op::Convert, Ty::I32, vec![r], span), Ty::I32)
            }
            _ => Ex::Val(self.val(Op::Math(f), Ty::F32, ops, span), Ty::F32),
        }
    }

    fn spirthon_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        let builtin = match item {
            "global_id" => Some(Builtin::GlobalId),
            "local_id" => Some(Builtin::LocalId),
            "workgroup_id" => Some(Builtin::WorkgroupId),
            "num_workgroups" => Some(Builtin::NumWorkgroups),
            "local_index" => Some(Builtin::LocalIndex),
            _ => None,
        };
        if let Some(b) = builtin {
            if !self.arity(item, args, 0, span) {
                return Ex::Err;
            }
            let ty = if b == Builtin::LocalIndex {
                Ty::I32
            } else {
                Ty::Vector(Scalar::I32, 3)
            };
            return Ex::Val(self.val(Op::Builtin(b), ty, vec![], span), ty);
        }
        let to = match item {
            "i32" => Ty::I32,
            "u32" => Ty::U32,
            "f32" => Ty::F32,
            "kernel" | "func" => {
                self.error(span, format!("`{item}` is a decorator"));
                return Ex::Err;
            }
            "Array" => {
                self.error(
                    span,
                    "`Array` is a type for parameters; kernels cannot create arrays",
                );
                return Ex::Err;
            }
            _ => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("`{item}` is not supported by this version of the compiler"),
                    )
                    .with_note(
                        "vectors, shared arrays, barriers and atomics come in a later version",
                    ),
                );
                return Ex::Err;
            }
        };
        if !self.arity(item, args, 1, span) {
            return Ex::Err;
        }
        let (x, sp) = self.args(args)[0];
        self.convert(x, to, sp, span)
    }
}

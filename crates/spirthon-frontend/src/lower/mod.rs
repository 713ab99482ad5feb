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
//! The work is split by concern: `builder` (the CFG builder, which alone keeps the IR
//! function and the SSA builder in step), `stmt`, `control` (if/elif, loops, return),
//! `expr`, `coerce` (implicit conversions), `ops` (operators), `calls`, `builtins`.
//!
//! What it does not do: SSA, folding of values that are not literals, or deciding which
//! arrays are written (the middle end, `spirthon-mid`, does those).

use spirthon_ir::hash::{FastMap, FastSet};

use spirthon_ir::cfg::*;
use spirthon_ir::lowered::Lowered;
use spirthon_ir::{CheckKind, CheckSite, Const, Diagnostic, IndexVec, Scalar, Span, Ty};
use spirthon_ssa::FunctionBuilder;

use crate::ast::*;
use crate::lit::{self, Lit};
use crate::module::{
    BarrierPlan, DefSig, GenericUse, Global, Lib, ModuleInfo, ParamKind, StructId, TupleTy,
};
use checks::Index;

mod builder;
mod builtins;
mod calls;
mod checks;
mod coerce;
mod control;
mod expr;
mod geometry;
mod inactive;
mod matrices;
mod ops;
mod print;
mod quats;
mod random;
mod returns;
mod stmt;
mod structs;
mod subgroups;
mod tuples;
mod vectors;
mod workgroup;

/// Module-wide state while functions are lowered.
pub struct Ctx<'a> {
    pub ast: &'a Ast,
    pub m: &'a ModuleInfo,
    pub arrays: Vec<GlobalArray>,
    /// Per function id: the def and the arrays bound to its array parameters.
    pub jobs: Vec<(usize, Vec<ArrayId>)>,
    pub job_ids: FastMap<(usize, Vec<ArrayId>), FuncId>,
    pub diags: Vec<Diagnostic>,
    /// The array of each constant tuple indexed at run time, made on first use.
    pub tables: FastMap<String, ArrayId>,
    /// Checked mode: lowering inserts the run-time checks.
    pub checked: bool,
    /// Checking a file for the reference executor: `breakpoint()` statements are allowed.
    pub cpython: bool,
    /// The check sites, by id.
    pub checks: Vec<CheckSite>,
    /// The print sites, by id.
    pub prints: Vec<spirthon_ir::prints::PrintSite>,
    /// The struct of each array of structs.
    pub records: FastMap<ArrayId, StructId>,
    /// While a func's return type is inferred: what its `return`s give (see [`returns`]).
    probe: Option<returns::Probe>,
}

pub use returns::infer_returns;

impl<'a> Ctx<'a> {
    /// A context for lowering the functions of module `m`.
    pub fn new(ast: &'a Ast, m: &'a ModuleInfo, checked: bool, cpython: bool) -> Self {
        Ctx {
            ast,
            m,
            arrays: Vec::new(),
            jobs: Vec::new(),
            job_ids: FastMap::default(),
            diags: Vec::new(),
            tables: FastMap::default(),
            checked,
            cpython,
            checks: Vec::new(),
            prints: Vec::new(),
            records: FastMap::default(),
            probe: None,
        }
    }

    /// New module arrays for the array parameters of `sig`, bound 1, 2, … in order.
    pub fn add_arrays(&mut self, sig: &DefSig) -> Vec<ArrayId> {
        let mut ids = Vec::new();
        for p in &sig.params {
            let (elem, dims, record) = match p.kind {
                ParamKind::Array(elem, dims) => (elem, dims, None),
                ParamKind::Records(id, dims) => (Ty::U32, dims, Some(id)),
                _ => continue,
            };
            let a = ArrayId(self.arrays.len() as u32);
            ids.push(a);
            let record = record.map(|id| {
                self.records.insert(a, id);
                let st = self.m.strukt(id);
                // Without narrow ints every leaf is whole words: the buffer is an array of
                // a struct of them, each read with its own type.
                let members = match st.leaves.iter().any(|l| l.ty.scalar().is_narrow()) {
                    true => Vec::new(),
                    false => st
                        .leaves
                        .iter()
                        .flat_map(|l| {
                            let s = match l.ty.scalar() {
                                Scalar::Bool => Scalar::U32,
                                s => s,
                            };
                            (0..l.ty.components()).map(move |k| (s, l.offset + k * s.size()))
                        })
                        .collect(),
                };
                Record {
                    name: st.name.clone(),
                    size: st.size,
                    fields: st
                        .leaves
                        .iter()
                        .map(|l| (l.path.clone(), l.ty, l.offset))
                        .collect(),
                    members,
                }
            });
            self.arrays.push(GlobalArray {
                dims,
                record,
                ..GlobalArray::buffer(p.name.clone(), elem, ids.len() as u32)
            });
        }
        ids
    }

    /// The array holding constant tuple `name` (made on first use).
    pub fn table(&mut self, name: &str, items: &[Lit], elem: Scalar) -> ArrayId {
        if let Some(&a) = self.tables.get(name) {
            return a;
        }
        let id = ArrayId(self.arrays.len() as u32);
        let values = items.iter().filter_map(|l| l.to_const(elem).ok()).collect();
        self.arrays.push(GlobalArray {
            memory: Memory::Constant(values),
            ..GlobalArray::buffer(name.to_string(), Ty::Scalar(elem), 0)
        });
        self.tables.insert(name.to_string(), id);
        id
    }

    /// Column `k` of the tuple of tuples `name` as a constant table, named `name#k` (`#`
    /// is in no Python name; checked mode reports it under `name`).
    pub fn column_table(&mut self, name: &str, k: usize, items: &[Lit], elem: Scalar) -> ArrayId {
        self.table(&format!("{name}#{k}"), items, elem)
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
    /// A call of a func that returns a tuple: its carrier value (see [`TupleTy`]).
    Tuple(Operand, TupleTy),
    /// A struct value (its leaves: see `structs`).
    Struct(structs::StructVal),
    /// A call of a function that returns nothing.
    Void,
    /// Already reported.
    Err,
}

impl Ex {
    /// Whether this is a value of type `t`.
    fn is(&self, t: Ty) -> bool {
        matches!(self, Ex::Val(_, u) if *u == t)
    }
    /// Whether this is a vector value.
    fn is_vector(&self) -> bool {
        matches!(self, Ex::Val(_, Ty::Vector(..)))
    }
    /// Whether this is a matrix value.
    fn is_matrix(&self) -> bool {
        matches!(self, Ex::Val(_, Ty::Matrix(..)))
    }
    /// Whether this is a quaternion value.
    fn is_quat(&self) -> bool {
        matches!(self, Ex::Val(_, Ty::Quat))
    }
}

/// The IR operation of a binary operator; `None` for `**`, which lowering expands.
fn ir_binop(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::FloorDiv => BinOp::FloorDiv,
        BinaryOp::Mod => BinOp::Mod,
        BinaryOp::BitAnd => BinOp::BitAnd,
        BinaryOp::BitOr => BinOp::BitOr,
        BinaryOp::BitXor => BinOp::BitXor,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::Pow | BinaryOp::MatMul => return None,
    })
}

#[derive(Copy, Clone)]
enum Local {
    Var(Var),
    Array(ArrayId),
    /// A local struct: an index into `Lower::slocals`.
    Struct(u32),
    /// A local or shared array of structs: an index into `Lower::sarrays`.
    StructArray(u32),
}

struct LoopCtx {
    brk: Block,
    /// Whether invocations that returned early still run the loop (see `inactive`).
    kept: bool,
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

/// Whether a `range` loop's step needs the guard that ends the loop instead of letting its
/// counter wrap (see `Lower::range_next`): a literal step other than 1 and -1, or one known
/// at run time only.
#[derive(Copy, Clone)]
enum StepGuard {
    None,
    Literal(i64),
    Runtime,
}

/// What a `for` loop binds at the top of each iteration from its counter.
enum Binder {
    /// `for i in range(...)`: the counter itself.
    Name(String),
    /// `for w in TABLE` / `for k, w in enumerate(TABLE)`: each target (one, or one per
    /// column of a tuple of tuples: `for dr, dc in OFFSETS`) with its column's table, and
    /// the index target.
    Table {
        columns: Vec<(ArrayId, ExprId)>,
        index: Option<ExprId>,
        len: u32,
    },
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
    /// The SSA builder's view and the IR function: kept in step by `builder` alone (every
    /// block, instruction, definition and read goes through its methods).
    b: FunctionBuilder,
    f: Function<Operand>,
    cur: Block,
    locals: FastMap<String, Local>,
    /// Span of each variable's first assignment.
    var_spans: Vec<Span>,
    /// Names assigned anywhere in the body: local to the whole body, as in Python.
    assigned: FastSet<String>,
    /// Names that take part in a plain copy (`w = v`, `w = v if c else u`, `a, b = b, a`):
    /// under CPython they may name one vector object, so assigning a component of one
    /// would change the other there (see `vectors::assign_component`).
    copies: FastSet<String>,
    loops: Vec<LoopCtx>,
    consts: FastMap<Const, Value>,
    use_spans: Vec<Span>,
    /// Names whose first assignment had an error: reads of them report nothing more.
    poisoned: FastSet<String>,
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
    /// The index of the def in [`ModuleInfo::defs`].
    def_index: usize,
    /// In a func that reaches `num_threads()`: its hidden trailing `ivec3` parameter, the
    /// launch size its caller passes.
    threads: Option<Operand>,
    /// Checked mode: the length of each axis of each buffer, read at the function's entry.
    lens: FastMap<(ArrayId, u32), Operand>,
    /// The local arrays of the statement lists being lowered, innermost last: name and
    /// target span.
    local_arrays: Vec<(String, Span)>,
    /// Local arrays whose statement list has ended, by name: where each was created.
    scoped_out: FastMap<String, Span>,
    /// The struct values made so far: each struct and its leaves ([`Ex::Struct`]).
    svals: Vec<(StructId, Vec<Operand>)>,
    /// The local structs: each struct and its leaf variables ([`Local::Struct`]).
    slocals: Vec<(StructId, Vec<Var>)>,
    /// The local and shared arrays of structs: each struct and one array per leaf
    /// ([`Local::StructArray`]).
    sarrays: Vec<(StructId, Vec<ArrayId>)>,
    /// In a def that may return before a barrier: its plan and its hidden "has not
    /// returned" flag (see `inactive`).
    live: Option<(&'a BarrierPlan, Var)>,
    /// Whether the invocation may have returned at this point of the statement list.
    inactive: bool,
    /// Lowering a statement an inactive invocation runs for its barrier: its stores are
    /// for the living only.
    guard_stores: bool,
    /// Lowering such a statement: the arguments of its calls that take a barrier are the
    /// living's only (`inactive::barrier_arg`).
    inactive_args: bool,
    /// The loop statement whose lowering is under way, until its loop context is pushed.
    loop_stmt: Option<StmtId>,
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
            insts: IndexVec::new(),
            blocks: IndexVec::new(),
            order: Vec::new(),
            vars: IndexVec::new(),
            phis: IndexVec::new(),
            reachable: IndexVec::new(),
        },
        cur: Block::new(0),
        locals: FastMap::default(),
        var_spans: Vec::new(),
        assigned: assigned_names(ast, def),
        copies: copied_names(ast, def),
        loops: Vec::new(),
        consts: FastMap::default(),
        use_spans: Vec::new(),
        poisoned: FastSet::default(),
        open: Vec::new(),
        stmt_span: sig.span,
        too_deep: false,
        joins: Vec::new(),
        too_many_joins: false,
        def_index,
        threads: None,
        lens: FastMap::default(),
        local_arrays: Vec::new(),
        scoped_out: FastMap::default(),
        svals: Vec::new(),
        slocals: Vec::new(),
        sarrays: Vec::new(),
        live: None,
        inactive: false,
        guard_stores: false,
        inactive_args: false,
        loop_stmt: None,
    };
    let entry = l.new_block();
    l.switch(entry);
    if sig.is_kernel {
        let [x, y, z] = sig.workgroup_size;
        if let (Some(at), true) = (m.reaches_lane_id[def_index], y > 1 || z > 1) {
            l.cx.diags.push(
                Diagnostic::error(at, format!("kernel `{}` reads its invocations' indices in their subgroups here, and its workgroup is {x} x {y} x {z}", sig.source_name()))
                    .with_note("naga (and so wgpu) refuses the subgroup invocation index (`subgroup_invocation_id()`, and the shuffles `subgroup_shuffle_down/up/xor`, which compute their lanes from it) in a workgroup of more than one dimension")
                    .with_help(format!("use a one-dimensional workgroup (`workgroup_size={}`) and compute 2-D ids from `local_index()`", x * y * z)),
            );
        }
        if !m.reaches_barrier[def_index] {
            l.launch_guard();
        } else if !l.has_own_guard(def) {
            l.cx.diags.push(
                Diagnostic::warning(sig.span, format!("kernel `{}` reaches `barrier()`, so it has no implicit launch guard, and it seems to have no guard of its own", sig.source_name()))
                    .with_note("every invocation of the last workgroups runs, also those past the launch size")
                    .with_help("compare the thread's id with `num_threads()` or with `len()` of an array before using it as an index, outside the code between barriers"),
            );
        }
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
    // A name whose assignment failed (reported) and that another assignment made a local:
    // a path through the failed one is no "may be used before it is assigned" of its own.
    for n in &l.poisoned {
        if let Some(&Local::Var(v)) = l.locals.get(n) {
            l.f.vars[v].name.clear();
        }
    }
    let ssa_in =
        l.b.finish()
            .expect("lowering never branches into the entry block");
    Lowered {
        func: l.f,
        ssa_in,
        use_spans: l.use_spans,
        fallthrough,
        source_name: sig.source_name().to_string(),
    }
}

/// `Array[f32]`, `Array2D[vec4]`, …
pub fn array_type_name(elem: Ty, dims: u32) -> String {
    match dims {
        1 => format!("Array[{elem}]"),
        d => format!("Array{d}D[{elem}]"),
    }
}

/// Every name bound by an assignment, a `for` or an assignment expression (`:=`) anywhere
/// in the def's body.
pub(crate) fn assigned_names(ast: &Ast, def: &FuncDef) -> FastSet<String> {
    let mut out: FastSet<String> = def.params.iter().map(|p| p.name.clone()).collect();
    let mut targets = Vec::new();
    for s in def.stmts.clone() {
        match &ast.stmts[s as usize].kind {
            StmtKind::Assign(ts, _) => targets.extend(ts.iter().copied()),
            StmtKind::AugAssign(t, ..)
            | StmtKind::AnnAssign(t, ..)
            | StmtKind::For(t, ..)
            | StmtKind::Match(t, ..) => targets.push(*t),
            _ => {}
        }
    }
    for e in def.exprs.clone() {
        if let ExprKind::Walrus(t, _) = ast.exprs[e as usize].kind {
            targets.push(t);
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

/// Every name that is the target or the source of a plain copy between names in the def's
/// body: `w = v`, `w = v if c else u`, and the items of `a, b = b, a`.
fn copied_names(ast: &Ast, def: &FuncDef) -> FastSet<String> {
    let mut out = FastSet::default();
    let name = |e: ExprId| match &ast.expr(e).kind {
        ExprKind::Name(n) => Some(n.clone()),
        _ => None,
    };
    let sources = |v: ExprId| -> Vec<String> {
        match &ast.expr(v).kind {
            ExprKind::Name(n) => vec![n.clone()],
            ExprKind::IfExp(_, a, b) => [*a, *b].into_iter().filter_map(name).collect(),
            _ => Vec::new(),
        }
    };
    for s in def.stmts.clone() {
        let (targets, value) = match &ast.stmts[s as usize].kind {
            StmtKind::Assign(ts, v) => (ts.clone(), *v),
            StmtKind::AnnAssign(t, _, Some(v)) => (vec![*t], *v),
            _ => continue,
        };
        let pairs: Vec<(ExprId, ExprId)> = match &ast.expr(value).kind {
            ExprKind::Tuple(items) => targets
                .iter()
                .filter_map(|&t| match &ast.expr(t).kind {
                    ExprKind::Tuple(ts) if ts.len() == items.len() => Some(ts.clone()),
                    _ => None,
                })
                .flat_map(|ts| ts.into_iter().zip(items.iter().copied()))
                .collect(),
            _ => targets.iter().map(|&t| (t, value)).collect(),
        };
        for (t, v) in pairs {
            let from = sources(v);
            if let (Some(t), false) = (name(t), from.is_empty()) {
                out.insert(t);
                out.extend(from);
            }
        }
    }
    out
}

/// Whether a statement list contains a `break` (or, with `continues`, a `continue`) for the
/// loop it belongs to. (An explicit stack: an `elif` chain nests as deep as it is long.)
pub(crate) fn has_jump(ast: &Ast, body: &[StmtId], continues: bool) -> bool {
    let mut work: Vec<&[StmtId]> = vec![body];
    while let Some(list) = work.pop() {
        for &s in list {
            match &ast.stmt(s).kind {
                StmtKind::Break => return true,
                StmtKind::Continue if continues => return true,
                StmtKind::If(_, a, b) => work.extend([a.as_slice(), b.as_slice()]),
                StmtKind::Match(_, _, chain) => work.push(std::slice::from_ref(chain)),
                // A jump inside a nested loop's body belongs to that loop; one in its `else`
                // is ours.
                StmtKind::While(_, _, e) | StmtKind::For(_, _, _, e) => work.push(e),
                _ => {}
            }
        }
    }
    false
}

/// Whether the body of the def at `item` has a `return value` anywhere (nested blocks
/// included).
fn returns_value(ast: &Ast, item: usize) -> bool {
    let Some(Item::Def(def)) = ast.items.get(item) else {
        return false;
    };
    let mut work: Vec<&[StmtId]> = vec![&def.body];
    while let Some(list) = work.pop() {
        for &s in list {
            match &ast.stmt(s).kind {
                StmtKind::Return(Some(_)) => return true,
                StmtKind::If(_, a, b) => work.extend([a.as_slice(), b.as_slice()]),
                StmtKind::While(_, b, e) | StmtKind::For(_, _, b, e) => {
                    work.extend([b.as_slice(), e.as_slice()])
                }
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

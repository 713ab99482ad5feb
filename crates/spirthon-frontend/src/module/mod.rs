//! The top level of a kernel file: imports, module constants, and the signatures of
//! `@kernel`s and `@func`s; plus the call graph, where recursion is rejected.
//!
//! Names follow Python's scoping: a later top-level binding replaces an earlier one, and a
//! name assigned anywhere in a function body is local to the whole body (lowering's job).

use spirthon_ir::hash::FastMap;

use spirthon_ir::{library, Diagnostic, Scalar, Span, Ty};

use crate::ast::*;
use crate::lit::{self, Lit};

mod annotation;
mod generic;
mod signature;
mod structs;
mod uniform;

pub use annotation::{Ann, TupleTy, MAX_TUPLE_COMPONENTS};
pub use generic::{mangled, GenericParam, GenericUse};
pub use structs::{Field, FieldTy, Leaf, StructDef, StructId};
pub use uniform::BarrierPlan;

use signature::signature;

/// A library the kernel language understands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Lib {
    Spirthon,
    Math,
    /// Python's `typing`: `Any` and `TypeVar`, for generic kernels.
    Typing,
}

/// Whether `name` is something `spirthon` exports for kernel code (spirthon-ir's built-in
/// table).
pub fn is_spirthon_name(name: &str) -> bool {
    library::lookup(library::Module::Spirthon, name).is_some()
}

/// Whether `math.name` is in the kernel language (spirthon-ir's built-in table).
pub fn is_math_name(name: &str) -> bool {
    library::lookup(library::Module::Math, name).is_some()
}

#[derive(Clone, Debug)]
pub enum Global {
    /// A module constant; `ty` is set when it was annotated.
    Const {
        lit: Lit,
        ty: Option<Scalar>,
        span: Span,
    },
    /// A constant tuple of numbers (`WEIGHTS = (0.25, 0.5, 0.25)`), all of type `elem`.
    Table {
        items: Vec<Lit>,
        elem: Scalar,
        span: Span,
    },
    /// A tuple of equal-length tuples of numbers (`OFFSETS = ((0, 1), (1, 0))`), kept by
    /// column: each column a constant table of its own type. Kernels loop over it
    /// (`for dr, dc in OFFSETS:`), one table read per column and trip.
    Rows {
        columns: Vec<(Vec<Lit>, Scalar)>,
        span: Span,
    },
    /// A constant vector (`ORIGIN = vec3(0.0, 1.0, 2.0)`, `ONES = ivec2(1)`): its type and
    /// components.
    Vector {
        ty: Ty,
        comps: Vec<spirthon_ir::Const>,
        span: Span,
    },
    /// A kernel or func: an index into [`ModuleInfo::defs`].
    Def(usize),
    /// A `@struct` class.
    Struct(StructId),
    /// A top-level name the kernel language cannot use: `what` it is.
    Opaque {
        span: Span,
        what: std::borrow::Cow<'static, str>,
    },
    Module(Lib),
    Item(Lib, String),
    /// `T = TypeVar("T")`: a generic name for kernel and func parameters (see `generic`).
    TypeVar,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ParamKind {
    /// A scalar or vector, passed by value.
    Value(Ty),
    /// An array of this element type and number of dimensions.
    Array(Ty, u32),
    /// A struct, passed by value (a kernel's: its leaves in the uniform block).
    Struct(StructId),
    /// An array of structs (`Array[Particle]`) and its number of dimensions.
    Records(StructId, u32),
}

#[derive(Clone, Debug)]
pub struct ParamSig {
    pub name: String,
    pub kind: ParamKind,
    pub span: Span,
    /// A func parameter's default value (`t: f32 = 0.5`), a constant of its type.
    pub default: Option<Lit>,
}

#[derive(Clone, Debug)]
pub struct DefSig {
    pub name: String,
    pub is_kernel: bool,
    pub workgroup_size: [u32; 3],
    pub params: Vec<ParamSig>,
    pub ret: Option<Ty>,
    /// For a func returning a tuple: its type (`ret` is then the carrier).
    pub ret_tuple: Option<TupleTy>,
    /// For a func returning a struct: the struct (`ret_tuple` is then its leaves).
    pub ret_struct: Option<StructId>,
    /// A func without a return annotation whose `return`s gave no one type (already
    /// reported: see `lower::infer_returns`); its `return value`s are not reported again.
    pub ret_unknown: bool,
    /// Index into `Ast::items` of the `Item::Def`.
    pub item: usize,
    pub span: Span,
    /// A generic kernel's generic parameters (see `generic`); empty for every other def.
    pub generic: Vec<GenericParam>,
    /// A specialization of a generic kernel: which, and its types.
    pub specializes: Option<spirthon_ir::Specialization>,
}

impl DefSig {
    /// Whether this is a generic kernel, which only its specializations compile.
    pub fn is_generic(&self) -> bool {
        !self.generic.is_empty()
    }

    /// The name as the source writes it, for messages: a specialization's is its generic
    /// def's (`scale`, not the entry point's `scale__f32`).
    pub fn source_name(&self) -> &str {
        self.specializes.as_ref().map_or(&self.name, |s| &s.kernel)
    }
}

#[derive(Clone, Debug, Default)]
pub struct ModuleInfo {
    pub globals: FastMap<String, Global>,
    pub defs: Vec<DefSig>,
    /// The structs: spirthon's `Rand` first ([`ModuleInfo::rand`]), then the `@struct`
    /// classes in declaration order.
    pub structs: Vec<StructDef>,
    /// Per def: whether it calls `barrier()`, itself or through the defs it calls.
    pub reaches_barrier: Vec<bool>,
    /// Per def: whether it calls `num_threads()`, itself or through the defs it calls.
    pub reaches_num_threads: Vec<bool>,
    /// Per def: where it reads its subgroup invocation index (`LANE_ID_ITEMS`), itself or
    /// through the defs it calls (the call of the first found).
    pub reaches_lane_id: Vec<Option<Span>>,
    /// Per def that reaches a barrier (by its `Item::Def`, which its specializations share):
    /// what an invocation that returns early still runs (see `uniform`).
    pub barrier_plans: FastMap<usize, BarrierPlan>,
    /// The specializations of generic funcs made so far: (generic func, its parameters'
    /// kinds) to the specialization's def.
    pub func_specs: FastMap<(usize, Vec<ParamKind>), usize>,
    /// The specializations of generic funcs that a lowering called before they existed
    /// (see `generic`): the compile makes them and lowers again.
    pub wanted: std::cell::RefCell<Vec<(usize, Vec<ParamKind>)>>,
    /// The names of the defs' PEP 695 type parameters (`def k[T](...)`): in a def's body,
    /// one that names no global is its type variable, which no annotation there may use
    /// (set once every signature is read).
    pub type_params: spirthon_ir::hash::FastSet<String>,
}

impl ModuleInfo {
    pub fn def<'a>(&self, ast: &'a Ast, d: usize) -> &'a FuncDef {
        match &ast.items[self.defs[d].item] {
            Item::Def(f) => f,
            _ => unreachable!("DefSig::item names an Item::Def"),
        }
    }

    /// Binds `name` to `what` it is when it had errors: its uses report nothing more than
    /// that.
    fn poison(&mut self, name: &str, span: Span, what: &'static str) {
        let what = what.into();
        self.globals
            .insert(name.to_string(), Global::Opaque { span, what });
    }

    /// What `e` names when it is a library item (`f32`, `sp.f32`, `math.sqrt`, `sqrt`).
    pub fn lib_item<'a>(
        &'a self,
        ast: &'a Ast,
        e: ExprId,
        is_local: &dyn Fn(&str) -> bool,
    ) -> Option<(Lib, &'a str)> {
        match &ast.expr(e).kind {
            ExprKind::Name(n) if !is_local(n) => match self.globals.get(n) {
                Some(Global::Item(lib, item)) => Some((*lib, item.as_str())),
                _ => None,
            },
            ExprKind::Attr(base, attr) => match &ast.expr(*base).kind {
                ExprKind::Name(n) if !is_local(n) => match self.globals.get(n) {
                    Some(Global::Module(lib)) => Some((*lib, attr.as_str())),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The items of a constant tuple where a size is expected (a workgroup size, an
    /// array's shape): a tuple written in place, each item its expression, or a module's
    /// constant table (`WG = (8, 8)`), each item at the name with a label that says which;
    /// `None` when `e` is neither.
    pub fn size_items(
        &self,
        ast: &Ast,
        e: ExprId,
        is_local: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<SizeItem>> {
        let expr = ast.expr(e);
        match &expr.kind {
            ExprKind::Tuple(items) => Some(
                items
                    .iter()
                    .map(|&i| self.size_item(ast, i, is_local))
                    .collect(),
            ),
            ExprKind::Name(n) if !is_local(n) => match self.globals.get(n) {
                Some(Global::Table { items, .. }) => Some(
                    items
                        .iter()
                        .enumerate()
                        .map(|(k, &l)| SizeItem {
                            span: expr.span,
                            label: Some(format!("`{n}[{k}]` is not one")),
                            value: Ok(Some(l)),
                        })
                        .collect(),
                ),
                _ => None,
            },
            _ => None,
        }
    }

    /// The whole of `e` as one size item: where a tuple of sizes is not given.
    pub fn size_item(&self, ast: &Ast, e: ExprId, is_local: &dyn Fn(&str) -> bool) -> SizeItem {
        SizeItem {
            span: ast.expr(e).span,
            label: None,
            value: self.const_eval(ast, e, is_local),
        }
    }

    /// Evaluates a constant expression: `Ok(None)` when `e` is not one.
    pub fn const_eval(
        &self,
        ast: &Ast,
        e: ExprId,
        is_local: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Lit>, Diagnostic> {
        let expr = ast.expr(e);
        let err = |m: String| Diagnostic::error(expr.span, m);
        Ok(Some(match &expr.kind {
            ExprKind::Int(i) => Lit::Int(*i),
            ExprKind::Float(f) => Lit::Float(*f),
            ExprKind::Bool(b) => Lit::Bool(*b),
            ExprKind::Name(n) if !is_local(n) => match self.globals.get(n) {
                Some(Global::Const { lit, ty: None, .. }) => *lit,
                Some(Global::Const {
                    lit, ty: Some(s), ..
                }) => match lit.typed(*s) {
                    Some(l) => l,
                    None => return Ok(None),
                },
                Some(Global::Item(Lib::Math, item)) => match math_const(item) {
                    Some(v) => Lit::Float(v),
                    None => return Ok(None),
                },
                _ => return Ok(None),
            },
            // `len(TABLE)` and `TABLE[k]` of a constant tuple.
            ExprKind::Call { func, args, .. } if args.len() == 1 => {
                let is_len = matches!(&ast.expr(*func).kind, ExprKind::Name(n) if n == "len" && !is_local(n) && !self.globals.contains_key(n));
                match (&ast.expr(args[0]).kind, is_len) {
                    (ExprKind::Name(t), true) if !is_local(t) => match self.globals.get(t) {
                        Some(Global::Table { items, .. }) => Lit::Int(items.len() as i128),
                        Some(Global::Rows { columns, .. }) => Lit::Int(columns[0].0.len() as i128),
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                }
            }
            ExprKind::Subscript(base, index) => match &ast.expr(*base).kind {
                ExprKind::Name(t) if !is_local(t) => {
                    match (self.globals.get(t), self.const_eval(ast, *index, is_local)?) {
                        (Some(Global::Table { items, .. }), Some(Lit::Int(k))) => {
                            // A constant index counts from the end when negative, as
                            // Python's does (the table is a tuple there).
                            match lit::sequence_index(k, items.len()) {
                                Some(k) => items[k],
                                None => return Ok(None),
                            }
                        }
                        _ => return Ok(None),
                    }
                }
                _ => return Ok(None),
            },
            ExprKind::Attr(..) => match self.lib_item(ast, e, is_local) {
                Some((Lib::Math, item)) => match math_const(item) {
                    Some(v) => Lit::Float(v),
                    None => return Ok(None),
                },
                _ => return Ok(None),
            },
            ExprKind::Unary(op, a) => match self.const_eval(ast, *a, is_local)? {
                Some(a) => lit::unary(*op, a).map_err(err)?,
                None => return Ok(None),
            },
            ExprKind::Binary(op, a, b) => {
                let (Some(a), Some(b)) = (
                    self.const_eval(ast, *a, is_local)?,
                    self.const_eval(ast, *b, is_local)?,
                ) else {
                    return Ok(None);
                };
                lit::binary(*op, a, b).map_err(err)?
            }
            _ => return Ok(None),
        }))
    }
}

/// An item of a size tuple ([`ModuleInfo::size_items`]): where to report it, a label for
/// the report, and its value.
pub struct SizeItem {
    pub span: Span,
    pub label: Option<String>,
    pub value: Result<Option<Lit>, Diagnostic>,
}

impl SizeItem {
    /// An error at this item.
    pub fn error(&self, message: impl Into<String>) -> Diagnostic {
        let d = Diagnostic::error(self.span, message);
        match &self.label {
            Some(l) => d.with_label(l.clone()),
            None => d,
        }
    }
}

/// The value of a `math` constant.
pub fn math_const(name: &str) -> Option<f64> {
    match library::lookup(library::Module::Math, name)?.typing {
        library::Typing::Constant(v) => Some(v),
        _ => None,
    }
}

/// Reads the top level of a parsed file. With `host_imports` (a file compiled from a running
/// Python program), imports of other modules and names of `spirthon` that kernels cannot use
/// belong to the CPU side: they bind opaque names instead of being errors.
pub fn resolve(ast: &Ast, host_imports: bool) -> (ModuleInfo, Vec<Diagnostic>) {
    let mut m = ModuleInfo::default();
    m.structs.push(structs::rand_struct());
    let mut device_defs: FastMap<String, Span> = FastMap::default();
    let mut type_params = spirthon_ir::hash::FastSet::default();
    let mut diags = Vec::new();
    for (index, item) in ast.items.iter().enumerate() {
        match item {
            Item::Import {
                module,
                alias,
                span,
            } => match module.as_str() {
                "spirthon" => {
                    m.globals
                        .insert(alias.clone(), Global::Module(Lib::Spirthon));
                }
                "math" => {
                    m.globals.insert(alias.clone(), Global::Module(Lib::Math));
                }
                "typing" => {
                    m.globals.insert(alias.clone(), Global::Module(Lib::Typing));
                }
                _ if host_imports => {
                    m.globals.insert(alias.clone(), host_name(*span));
                }
                other => diags.push(bad_import(*span, other)),
            },
            Item::ImportFrom {
                module,
                names,
                span,
            } => import_from(&mut m, module, names, *span, host_imports, &mut diags),
            Item::Assign {
                name,
                annotation,
                value,
                span,
            } => {
                if let Some(global) = constant(&m, ast, *annotation, *value, *span, &mut diags) {
                    m.globals.insert(name.clone(), global);
                }
            }
            Item::Unpack {
                targets,
                value,
                span,
            } => {
                // Every value first, then every name, as Python binds them (`A, B = B, A`).
                let mut bound = Vec::new();
                for &t in targets {
                    unpack(
                        &m,
                        ast,
                        t,
                        Source::Expr(*value),
                        *span,
                        &mut bound,
                        &mut diags,
                    );
                }
                m.globals.extend(bound);
            }
            Item::Opaque { name, span, what } => {
                m.globals.insert(
                    name.clone(),
                    Global::Opaque {
                        span: *span,
                        what: (*what).into(),
                    },
                );
            }
            Item::TypeVar { name, callee, span } => {
                let no_local = |_: &str| false;
                let global = match m.lib_item(ast, *callee, &no_local) {
                    Some((Lib::Typing, "TypeVar")) => Global::TypeVar,
                    _ => Global::Opaque {
                        span: *span,
                        what: "a value the kernel language cannot hold".into(),
                    },
                };
                m.globals.insert(name.clone(), global);
            }
            Item::Struct(decl) => match m.declare_struct(ast, decl) {
                Ok(id) => {
                    m.globals.insert(decl.name.clone(), Global::Struct(id));
                }
                Err(mut d) => {
                    diags.append(&mut d);
                    m.poison(&decl.name, decl.name_span, "a struct with errors");
                }
            },
            // Kernels and funcs are checked by name among themselves: a plain `def` or an
            // assignment of that name in between does not hide the first one.
            Item::Def(def) if device_defs.contains_key(&def.name) => {
                let first = device_defs[&def.name];
                diags.push(
                    Diagnostic::error(def.name_span, format!("`{}` is defined twice", def.name))
                        .with_label("a second kernel or func of this name")
                        .with_secondary(first, "first defined here")
                        .with_help("give each kernel and func a name of its own"),
                );
            }
            Item::Def(def) => {
                device_defs.insert(def.name.clone(), def.name_span);
                // PEP 695 type parameters are type variables of this def alone.
                let shadowed: Vec<(String, Option<Global>)> = def
                    .type_params
                    .iter()
                    .map(|(n, _)| (n.clone(), m.globals.insert(n.clone(), Global::TypeVar)))
                    .collect();
                type_params.extend(def.type_params.iter().map(|(n, _)| n.clone()));
                let sig = signature(&m, ast, def, index);
                for (n, old) in shadowed.into_iter().rev() {
                    match old {
                        Some(g) => m.globals.insert(n, g),
                        None => m.globals.remove(&n),
                    };
                }
                match sig {
                    Ok(sig) => {
                        m.globals
                            .insert(def.name.clone(), Global::Def(m.defs.len()));
                        m.defs.push(sig);
                    }
                    Err(mut d) => {
                        diags.append(&mut d);
                        m.poison(&def.name, def.name_span, "a kernel or func with errors");
                    }
                }
            }
        }
    }
    // Known to the bodies' annotations only: a signature that names another def's type
    // parameter names an unknown type.
    m.type_params = type_params;
    let edges = call_edges(&m, ast);
    check_recursion(&m, &edges, &mut diags);
    m.reaches_barrier = reaching(&m, ast, &edges, &["barrier"])
        .iter()
        .map(Option::is_some)
        .collect();
    m.reaches_num_threads = reaching(&m, ast, &edges, &["num_threads"])
        .iter()
        .map(Option::is_some)
        .collect();
    m.reaches_lane_id = reaching(&m, ast, &edges, LANE_ID_ITEMS);
    m.barrier_plans = uniform::plan(&m, ast, &mut diags);
    (m, diags)
}

/// Per def, the defs it calls by name, with the call's span.
fn call_edges(m: &ModuleInfo, ast: &Ast) -> Vec<Vec<(usize, Span)>> {
    let mut edges: Vec<Vec<(usize, Span)>> = vec![Vec::new(); m.defs.len()];
    for (d, edges_d) in edges.iter_mut().enumerate() {
        let def = m.def(ast, d);
        for i in def.exprs.clone() {
            let expr = &ast.exprs[i as usize];
            if let ExprKind::Call { func, .. } = &expr.kind {
                if let ExprKind::Name(name) = &ast.expr(*func).kind {
                    if let Some(Global::Def(callee)) = m.globals.get(name) {
                        edges_d.push((*callee, expr.span));
                    }
                }
            }
        }
    }
    edges
}

/// Per def, whether it calls spirthon's `item`, itself or through the defs it calls: the
/// direct callers, then their callers by a worklist over the reversed call edges.
fn reaching(
    m: &ModuleInfo,
    ast: &Ast,
    edges: &[Vec<(usize, Span)>],
    items: &[&str],
) -> Vec<Option<Span>> {
    let no_local = |_: &str| false;
    let mut out: Vec<Option<Span>> = (0..m.defs.len())
        .map(|d| {
            m.def(ast, d).exprs.clone().find_map(|e| {
                let expr = &ast.exprs[e as usize];
                match &expr.kind {
                    ExprKind::Call { func, .. } => match m.lib_item(ast, *func, &no_local) {
                        Some((Lib::Spirthon, item)) if items.contains(&item) => Some(expr.span),
                        _ => None,
                    },
                    _ => None,
                }
            })
        })
        .collect();
    // Callers of a def that reaches one, at their call of it (a worklist over the reversed
    // call graph).
    let mut callers: Vec<Vec<(usize, Span)>> = vec![Vec::new(); edges.len()];
    for (d, es) in edges.iter().enumerate() {
        for &(callee, span) in es {
            callers[callee].push((d, span));
        }
    }
    let mut work: Vec<usize> = (0..out.len()).filter(|&d| out[d].is_some()).collect();
    while let Some(d) = work.pop() {
        for &(c, span) in &callers[d] {
            if out[c].is_none() {
                out[c] = Some(span);
                work.push(c);
            }
        }
    }
    out
}

/// The subgroup functions that read the invocation's index in its subgroup, a built-in that
/// naga (and so wgpu) refuses in a kernel whose workgroup has more than one dimension.
const LANE_ID_ITEMS: &[&str] = &[
    "subgroup_invocation_id",
    "subgroup_shuffle_down",
    "subgroup_shuffle_up",
    "subgroup_shuffle_xor",
];

/// `from module import names`: each name that kernels can use becomes a global.
fn import_from(
    m: &mut ModuleInfo,
    module: &str,
    names: &[(String, String, Span)],
    span: Span,
    host_imports: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let (lib, known) = match module {
        "spirthon" => (Lib::Spirthon, library::Module::Spirthon),
        "math" => (Lib::Math, library::Module::Math),
        "__future__" => return,
        "typing" => {
            for (name, alias, sp) in names {
                match name.as_str() {
                    "Any" | "TypeVar" => {
                        m.globals
                            .insert(alias.clone(), Global::Item(Lib::Typing, name.clone()));
                    }
                    _ => {
                        m.globals.insert(alias.clone(), host_name(*sp));
                    }
                }
            }
            return;
        }
        _ if host_imports => {
            for (_, alias, sp) in names {
                m.globals.insert(alias.clone(), host_name(*sp));
            }
            return;
        }
        other => {
            diags.push(bad_import(span, other));
            return;
        }
    };
    for (name, alias, sp) in names {
        if name == "*" {
            for k in library::names(known) {
                m.globals
                    .insert(k.to_string(), Global::Item(lib, k.to_string()));
            }
        } else if library::lookup(known, name).is_some() {
            m.globals
                .insert(alias.clone(), Global::Item(lib, name.clone()));
        } else if host_imports {
            m.globals.insert(alias.clone(), host_name(*sp));
        } else {
            diags.push(Diagnostic::error(
                *sp,
                format!("`{module}` has no `{name}` that kernels can use"),
            ));
        }
    }
}

/// A top-level assignment: a constant (typed when annotated), something kernels cannot use,
/// or `None` after an error.
fn constant(
    m: &ModuleInfo,
    ast: &Ast,
    annotation: Option<ExprId>,
    value: ExprId,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Global> {
    let no_local = |_: &str| false;
    if let (ExprKind::Tuple(items), None) = (&ast.expr(value).kind, annotation) {
        // Not a table is no error until a kernel uses it: the tuple may be for the CPU side.
        let mut unused = Vec::new();
        return Some(
            table(m, ast, items, span, &|_: &str| false, &mut unused).unwrap_or(Global::Opaque {
                span,
                what: "a tuple whose numbers do not all fit 32 bits, or are not all finite".into(),
            }),
        );
    }
    if let Some(v) = vector_constant(m, ast, value, span) {
        return Some(v);
    }
    Some(match m.const_eval(ast, value, &no_local) {
        Ok(Some(lit)) => match annotation.map(|a| m.annotation(ast, a)) {
            None => Global::Const {
                lit,
                ty: None,
                span,
            },
            Some(Ok(Ann::Value(Ty::Scalar(s)))) => match lit.to_const(s) {
                Ok(_) => Global::Const {
                    lit,
                    ty: Some(s),
                    span,
                },
                Err(e) => {
                    diags.push(Diagnostic::error(ast.expr(value).span, e));
                    return None;
                }
            },
            Some(_) => Global::Opaque {
                span,
                what: "not a scalar constant".into(),
            },
        },
        Ok(None) => Global::Opaque {
            span,
            what: "not a constant expression".into(),
        },
        // Python computes it (or raises) on the CPU; a kernel that uses it learns why it
        // cannot.
        Err(d) => Global::Opaque {
            span,
            what: format!("not a constant expression here ({})", d.message).into(),
        },
    })
}

/// What a target of a top-level unpacking is bound from.
#[derive(Clone)]
enum Source {
    /// An expression of the file.
    Expr(ExprId),
    /// An item of a constant table.
    Lit(Lit),
    /// A row of a tuple of tuples (a [`Global::Rows`]).
    Row(Vec<Lit>),
}

/// Binds the names of `target` (a name, or a tuple of targets) from `src` into `out`: a
/// name as a top-level `NAME = src` binds it; a tuple item by item, from a tuple written in
/// place, a constant table or a row of one (`X, Y = PAIR`). A name whose value is anything
/// else (not of the target's length, or not known to the compiler) is opaque: Python
/// computes it, or raises at import.
fn unpack(
    m: &ModuleInfo,
    ast: &Ast,
    target: ExprId,
    src: Source,
    span: Span,
    out: &mut Vec<(String, Global)>,
    diags: &mut Vec<Diagnostic>,
) {
    let opaque = |what: &'static str| Global::Opaque {
        span,
        what: what.into(),
    };
    let targets = match &ast.expr(target).kind {
        ExprKind::Name(name) => {
            let global = match src {
                Source::Expr(e) => constant(m, ast, None, e, span, diags)
                    .unwrap_or_else(|| opaque("a constant with errors")),
                Source::Lit(lit) => Global::Const {
                    lit,
                    ty: None,
                    span,
                },
                Source::Row(items) => Global::Table {
                    elem: table_elem(&items),
                    items,
                    span,
                },
            };
            out.push((name.clone(), global));
            return;
        }
        ExprKind::Tuple(targets) => targets,
        _ => return,
    };
    let sources: Option<Vec<Source>> = match src {
        Source::Expr(e) => match &ast.expr(e).kind {
            ExprKind::Tuple(items) => Some(items.iter().map(|&i| Source::Expr(i)).collect()),
            ExprKind::Name(n) => match m.globals.get(n) {
                Some(Global::Table { items, .. }) => {
                    Some(items.iter().map(|&l| Source::Lit(l)).collect())
                }
                Some(Global::Rows { columns, .. }) => Some(
                    (0..columns[0].0.len())
                        .map(|k| Source::Row(columns.iter().map(|c| c.0[k]).collect()))
                        .collect(),
                ),
                _ => None,
            },
            _ => None,
        },
        Source::Row(items) => Some(items.into_iter().map(Source::Lit).collect()),
        Source::Lit(_) => None,
    };
    let what: std::borrow::Cow<'static, str> = match sources {
        Some(sources) if sources.len() == targets.len() => {
            for (&t, s) in targets.iter().zip(sources) {
                unpack(m, ast, t, s, span, out, diags);
            }
            return;
        }
        Some(sources) => format!(
            "unpacked from {} values into {} targets (Python raises a ValueError)",
            sources.len(),
            targets.len()
        )
        .into(),
        None => "an item of a value the compiler cannot unpack".into(),
    };
    let mut work: Vec<ExprId> = targets.clone();
    while let Some(t) = work.pop() {
        match &ast.expr(t).kind {
            ExprKind::Name(n) => out.push((
                n.clone(),
                Global::Opaque {
                    span,
                    what: what.clone(),
                },
            )),
            ExprKind::Tuple(ts) => work.extend(ts.iter().copied()),
            _ => {}
        }
    }
}

/// `vecN(...)` / `ivecN(...)` / `uvecN(...)` of constant numbers at the top level: one per
/// component, or one for all; each converts as a constructor converts it (an int to a float
/// component; a float to an int component is no constant). `None` when `value` is no such
/// call (an opaque global when it is one with other arguments).
fn vector_constant(m: &ModuleInfo, ast: &Ast, value: ExprId, span: Span) -> Option<Global> {
    let ExprKind::Call {
        func,
        args,
        keywords,
    } = &ast.expr(value).kind
    else {
        return None;
    };
    let no_local = |_: &str| false;
    let Some((Lib::Spirthon, name)) = m.lib_item(ast, *func, &no_local) else {
        return None;
    };
    let ty @ Ty::Vector(s, n) = Ty::vector_named(name)? else {
        return None;
    };
    let opaque = Some(Global::Opaque {
        span,
        what: "a vector of other than constant numbers, one per component or one for all".into(),
    });
    if !keywords.is_empty() || !(args.len() == 1 || args.len() == n as usize) {
        return opaque;
    }
    let mut comps = Vec::new();
    for &a in args {
        let c = match m.const_eval(ast, a, &no_local) {
            Ok(Some(l @ (Lit::Int(_) | Lit::Float(_)))) => l.to_const(s).ok(),
            _ => None,
        };
        match c {
            Some(c) if c.as_f32().is_none_or(f32::is_finite) => comps.push(c),
            _ => return opaque,
        }
    }
    if comps.len() == 1 {
        comps = vec![comps[0]; n as usize];
    }
    Some(Global::Vector { ty, comps, span })
}

/// A tuple of constants (a top-level one, or the tuple a `for` loops over, where `is_local`
/// tells the kernel's variables): a constant table when every item is a finite number, all
/// ints (`i32`, or `u32` when one needs it) or some floats (all `f32`).
pub(crate) fn table(
    m: &ModuleInfo,
    ast: &Ast,
    items: &[ExprId],
    span: Span,
    is_local: &dyn Fn(&str) -> bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Global> {
    let opaque = |what: &'static str| {
        Some(Global::Opaque {
            span,
            what: what.into(),
        })
    };
    if let Some(rows) = rows(m, ast, items, span, is_local, diags) {
        return rows;
    }
    let mut lits = Vec::new();
    for &i in items {
        match m.const_eval(ast, i, is_local) {
            Ok(Some(l @ (Lit::Int(_) | Lit::Float(_)))) => lits.push(l),
            _ => return opaque("not a tuple of numbers"),
        }
    }
    if lits.is_empty() {
        return opaque("an empty tuple");
    }
    let elem = table_elem(&lits);
    for (&l, &i) in lits.iter().zip(items) {
        let bad = match l.to_const(elem) {
            Err(e) => Some(e),
            Ok(c) if c.as_f32().is_some_and(|f| !f.is_finite()) => {
                Some("a constant tuple holds finite numbers".to_string())
            }
            Ok(_) => None,
        };
        if let Some(e) = bad {
            diags.push(Diagnostic::error(ast.expr(i).span, e));
            return None;
        }
    }
    Some(Global::Table {
        items: lits,
        elem,
        span,
    })
}

/// A constant table's element type: `f32` when an item is a float, else `i32` (`u32` when
/// an item needs it).
fn table_elem(lits: &[Lit]) -> Scalar {
    if lits.iter().any(|l| matches!(l, Lit::Float(_))) {
        Scalar::F32
    } else if lits.iter().all(|l| l.to_const(Scalar::I32).is_ok()) {
        Scalar::I32
    } else {
        Scalar::U32
    }
}

/// `((a, b), (c, d), ...)`: when every item is a tuple of one length (1 to 4), the
/// [`Global::Rows`] of its columns (`Some(None)` after an error in a column); `None` when
/// the items are not all tuples.
fn rows(
    m: &ModuleInfo,
    ast: &Ast,
    items: &[ExprId],
    span: Span,
    is_local: &dyn Fn(&str) -> bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<Global>> {
    let mut cells: Vec<&[ExprId]> = Vec::new();
    for &i in items {
        match &ast.expr(i).kind {
            ExprKind::Tuple(row) => cells.push(row),
            _ => return None,
        }
    }
    let width = cells.first()?.len();
    let opaque = |what: &'static str| {
        Some(Some(Global::Opaque {
            span,
            what: what.into(),
        }))
    };
    if !(1..=4).contains(&width) || cells.iter().any(|r| r.len() != width) {
        return opaque("a tuple of tuples of different lengths (or of more than four)");
    }
    let mut columns = Vec::new();
    for k in 0..width {
        let column: Vec<ExprId> = cells.iter().map(|r| r[k]).collect();
        match table(m, ast, &column, span, is_local, diags) {
            Some(Global::Table { items, elem, .. }) => columns.push((items, elem)),
            Some(Global::Rows { .. }) => return opaque("a tuple nested more than two deep"),
            Some(other) => return Some(Some(other)),
            None => return Some(None),
        }
    }
    Some(Some(Global::Rows { columns, span }))
}

/// A name imported for the CPU side of a program (see [`resolve`]).
fn host_name(span: Span) -> Global {
    Global::Opaque {
        span,
        what: "imported for the CPU side of the program".into(),
    }
}

fn bad_import(span: Span, module: &str) -> Diagnostic {
    Diagnostic::error(span, format!("`{module}` cannot be imported in a kernel file"))
        .with_note("kernel files may import only `spirthon`, `math` and `typing`'s `Any` and `TypeVar`; put CPU-side imports under `if __name__ == \"__main__\":`, or compile the file as a program (`--program`), as `kernel.launch` does")
}

/// Rejects direct and mutual recursion, at a call that closes a cycle.
fn check_recursion(m: &ModuleInfo, edges: &[Vec<(usize, Span)>], diags: &mut Vec<Diagnostic>) {
    // Edges: def -> (callee def, call span), from every call of a module-level def by name.
    let n = m.defs.len();
    // Iterative DFS with colours: a grey target is a back edge, i.e. recursion.
    let mut colour = vec![0u8; n];
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (d, ref mut next)) = stack.last_mut() {
            if *next == edges[d].len() {
                colour[d] = 2;
                stack.pop();
                continue;
            }
            let (callee, span) = edges[d][*next];
            *next += 1;
            match colour[callee] {
                0 => {
                    colour[callee] = 1;
                    stack.push((callee, 0));
                }
                1 => {
                    let start = stack.iter().position(|&(x, _)| x == callee).unwrap_or(0);
                    let mut chain: Vec<String> = stack[start..]
                        .iter()
                        .map(|&(x, _)| format!("`{}`", m.defs[x].name))
                        .collect();
                    chain.push(format!("`{}`", m.defs[callee].name));
                    diags.push(
                        Diagnostic::error(span, "recursion is not supported on the GPU")
                            .with_label(if chain.len() == 2 {
                                format!("`{}` calls itself", m.defs[callee].name)
                            } else {
                                format!("this call closes the cycle {}", chain.join(" -> "))
                            })
                            .with_help("rewrite the recursion as a loop"),
                    );
                }
                _ => {}
            }
        }
    }
}

//! Python source to the restricted AST. This is the only module that imports Ruff's Python
//! parser (`ruff_python_parser`), which reads the grammar of CPython 3.9 to 3.14: PEP 701
//! f-strings, PEP 695 type parameters and `type` aliases, template strings, `except A, B:`.
//!
//! [`parse`] first tries the fast path (module `fast`), a hand-written parser for the part of
//! Python kernel files are made of, which builds the identical AST about four times faster or
//! gives up; then the reference path here, which handles everything else and produces every
//! diagnostic. A file is read with the newest grammar: syntax newer than the Python that
//! runs the program is that Python's to refuse when it imports the file.
//!
//! It rejects every construct the kernel language does not have, inside `@kernel` and `@func`
//! bodies, with a diagnostic at the construct, and keeps going so that one run reports
//! several errors. Top-level code outside kernels is kept only as far as the compiler needs
//! it (imports, constants, decorated defs); the rest is CPU-side Python and is ignored.
//!
//! Nesting deeper than [`MAX_BLOCK_DEPTH`] blocks or [`MAX_EXPR_DEPTH`] expressions in a
//! kernel is an error (CPython limits indentation to 100 levels too), so that every later
//! walk over the tree has bounded depth. The parser's own tree may be deeper (it holds the
//! whole file); it is converted and dropped on a stack sized from the file's tokens (module
//! `limits`), so no input overflows the stack.

use ruff_python_ast::{self as ast, PythonVersion};
use ruff_python_parser::{Mode, ParseOptions};
use ruff_text_size::{Ranged, TextRange};
use spirthon_ir::cfg::CmpOp;
use spirthon_ir::{Diagnostic, Span};

use crate::ast::*;

mod limits;
mod semantic;
mod syntax;

/// How deep blocks may nest (CPython's own limit on indentation levels).
pub const MAX_BLOCK_DEPTH: u32 = 100;
/// How deep loops may nest in one function (CPython's limit).
pub const MAX_LOOP_BLOCKS: usize = limits::MAX_BLOCKS;
/// How deep expressions may nest (a chain `a + b + ... ` of N terms nests N deep).
pub const MAX_EXPR_DEPTH: u32 = 256;

/// Parses `source`. On a syntax error, the one diagnostic for it; otherwise the AST and the
/// diagnostics for rejected constructs (which appear in the AST as `Error` nodes, so later
/// stages can go on checking the rest).
pub fn parse(source: &str, path: &str) -> Result<(Ast, Vec<Diagnostic>), Vec<Diagnostic>> {
    match crate::fast::parse(source) {
        Some(ast) => Ok((ast, Vec::new())),
        None => parse_reference(source, path),
    }
}

/// [`parse`] through the reference parser alone: the reference the fast path (module `fast`)
/// must agree with, and the path for every file the fast path gives up on.
pub fn parse_reference(
    source: &str,
    _path: &str,
) -> Result<(Ast, Vec<Diagnostic>), Vec<Diagnostic>> {
    if let Some(d) = limits::refuse_before_parsing(source) {
        return Err(vec![d]);
    }
    let options = ParseOptions::from(Mode::Module).with_target_version(PythonVersion::PY314);
    // Unchecked: a tree comes back even for a file with errors, so that it is dropped below,
    // on a stack deep enough for it, rather than inside the parser.
    let parsed = ruff_python_parser::parse_unchecked(source, options);
    let depth = limits::depth_bound(parsed.tokens());
    stacker::grow(limits::stack_size(&depth), move || {
        let result = convert(source, &parsed, depth);
        drop(parsed);
        result
    })
}

/// The diagnostics and AST of a parsed file: its first syntax error, or the first of
/// CPython's limits it goes past, or the converted AST.
fn convert(
    source: &str,
    parsed: &ruff_python_parser::Parsed<ast::Mod>,
    depth: limits::Depth,
) -> Result<(Ast, Vec<Diagnostic>), Vec<Diagnostic>> {
    if let Some(d) = syntax::first_error(parsed, source) {
        return Err(vec![d]);
    }
    let ast::Mod::Module(module) = parsed.syntax() else {
        unreachable!("Mode::Module gives a module")
    };
    if let Some(d) = limits::check(&depth, &module.body) {
        return Err(vec![d]);
    }
    if let Some(d) = semantic::first_error(&module.body) {
        return Err(vec![d]);
    }
    let mut cx = Convert {
        source,
        ast: Ast::default(),
        diags: Vec::new(),
        stmt_depth: 0,
        expr_depth: 0,
        too_deep: false,
        quiet: false,
        lists_as_tuples: false,
        in_print: None,
    };
    for stmt in &module.body {
        cx.top_level(stmt);
    }
    Ok((cx.ast, cx.diags))
}

/// A `*args` or `**kwargs` parameter from its name, as CPython places it.
fn param_span(p: &ast::Parameter) -> Span {
    Span::new(p.name.range.start().into(), p.range.end().into())
}

fn span(r: TextRange) -> Span {
    Span::new(r.start().into(), r.end().into())
}

/// Where a `def` or `class` statement starts: at its keyword (`async def`'s `async`), after
/// its decorators, which the parser's range includes.
fn def_start(source: &str, name: &ast::Identifier, keyword: &str) -> u32 {
    let before = source[..usize::from(name.range.start())]
        .trim_end_matches([' ', '\t', '\\', '\n', '\r', '\x0c']);
    if !before.ends_with(keyword) {
        return name.range.start().into();
    }
    let mut at = before.len() - keyword.len();
    if keyword == "def" {
        let head = source[..at].trim_end_matches([' ', '\t', '\\', '\n', '\r', '\x0c']);
        if head.ends_with("async") {
            at = head.len() - 5;
        }
    }
    at as u32
}

/// A statement's span: a decorated `def` or `class` from its keyword, as CPython places it.
fn stmt_span(source: &str, s: &ast::Stmt) -> Span {
    let (name, keyword, range) = match s {
        ast::Stmt::FunctionDef(f) if !f.decorator_list.is_empty() => (&f.name, "def", f.range),
        ast::Stmt::ClassDef(c) if !c.decorator_list.is_empty() => (&c.name, "class", c.range),
        other => return span(other.range()),
    };
    Span::new(def_start(source, name, keyword), range.end().into())
}

struct Convert<'s> {
    source: &'s str,
    ast: Ast,
    diags: Vec<Diagnostic>,
    stmt_depth: u32,
    expr_depth: u32,
    too_deep: bool,
    /// Converting a top-level value that may be CPU-only Python: record no diagnostics.
    quiet: bool,
    /// Converting a module constant's value: a list of numbers (or of tuples, or lists) is a
    /// constant table as a tuple is.
    lists_as_tuples: bool,
    /// Converting an argument of `print` that is no string of its own: a string or f-string
    /// inside it is refused with the way to print it (once per argument: `Some(true)` after).
    in_print: Option<bool>,
}

fn is_device_decorator(d: &ast::Decorator) -> bool {
    match &d.expression {
        ast::Expr::Call(c) => names_device(&c.func),
        other => names_device(other),
    }
}

/// `@struct` (or `@spirthon.struct`): a class the kernels hold as a value type.
fn is_struct_decorator(d: &ast::Decorator) -> bool {
    match &d.expression {
        ast::Expr::Name(n) => n.id.as_str() == "struct",
        ast::Expr::Attribute(a) => a.attr.as_str() == "struct",
        _ => false,
    }
}

/// Whether `e` names `kernel`/`func` anywhere along a chain of calls (`@kernel()()`): a
/// decorator a spirthon user meant, well-formed or not.
fn mentions_device(d: &ast::Decorator) -> bool {
    let mut e = &d.expression;
    while let ast::Expr::Call(c) = e {
        e = &c.func;
    }
    names_device(e)
}

/// An assignment target made only of names, in tuples and lists (`A`, `A, (B, C)`,
/// `[A, B]`): one whose every binding is a module name.
fn names_only(target: &ast::Expr) -> bool {
    let mut work = vec![target];
    while let Some(t) = work.pop() {
        match t {
            ast::Expr::Name(_) => {}
            ast::Expr::Tuple(t) => work.extend(&t.elts),
            ast::Expr::List(l) => work.extend(&l.elts),
            _ => return false,
        }
    }
    true
}

/// `kernel` or `func`, as a name or an attribute (`spirthon.kernel`).
fn names_device(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Name(n) => matches!(n.id.as_str(), "kernel" | "func"),
        ast::Expr::Attribute(a) => matches!(a.attr.as_str(), "kernel" | "func"),
        _ => false,
    }
}

/// How a statement list sits in the statement that holds it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Inner {
    /// A `def`'s body: a scope of its own.
    Function,
    /// A class's body: a scope of its own.
    Class,
    /// A loop's body: a block CPython's compiler counts toward its nesting limit.
    Loop,
    /// A `with`'s body: such a block too.
    With,
    /// Any other: an `if`'s branches, a loop's `else`, a `try`'s clauses, a `match` case.
    Plain,
}

/// The statement lists directly inside `s`, each with how it sits there.
fn inner_bodies(s: &ast::Stmt) -> Vec<(&[ast::Stmt], Inner)> {
    use Inner::*;
    match s {
        ast::Stmt::FunctionDef(f) => vec![(&f.body, Function)],
        ast::Stmt::ClassDef(c) => vec![(&c.body, Class)],
        ast::Stmt::If(i) => std::iter::once((&i.body[..], Plain))
            .chain(i.elif_else_clauses.iter().map(|c| (&c.body[..], Plain)))
            .collect(),
        ast::Stmt::For(f) => vec![(&f.body, Loop), (&f.orelse, Plain)],
        ast::Stmt::While(w) => vec![(&w.body, Loop), (&w.orelse, Plain)],
        ast::Stmt::With(w) => vec![(&w.body, With)],
        ast::Stmt::Try(t) => try_clauses(t),
        ast::Stmt::Match(m) => m.cases.iter().map(|c| (&c.body[..], Plain)).collect(),
        _ => vec![],
    }
}

/// A `try`'s clauses, each a plain statement list.
fn try_clauses(t: &ast::StmtTry) -> Vec<(&[ast::Stmt], Inner)> {
    let mut v = vec![
        (&t.body[..], Inner::Plain),
        (&t.orelse[..], Inner::Plain),
        (&t.finalbody[..], Inner::Plain),
    ];
    for h in &t.handlers {
        let ast::ExceptHandler::ExceptHandler(h) = h;
        v.push((&h.body[..], Inner::Plain));
    }
    v
}

/// The `def`s that a statement holds below the top level (in a class, `if`, loop, `with`,
/// `try` or `match`), found without recursion: (name, decorators, is async).
fn nested_defs(stmt: &ast::Stmt) -> Vec<(&ast::Identifier, &[ast::Decorator], bool)> {
    let mut out = Vec::new();
    let mut work: Vec<&ast::Stmt> = match stmt {
        ast::Stmt::FunctionDef(_) => return out,
        s => vec![s],
    };
    while let Some(s) = work.pop() {
        if let ast::Stmt::FunctionDef(f) = s {
            out.push((&f.name, &f.decorator_list[..], f.is_async));
            continue;
        }
        for (b, _) in inner_bodies(s).into_iter().rev() {
            work.extend(b.iter().rev());
        }
    }
    out
}

impl Convert<'_> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        if !self.quiet {
            self.diags.push(Diagnostic::error(span, message));
        }
    }

    fn push_diag(&mut self, d: Diagnostic) {
        if !self.quiet {
            self.diags.push(d);
        }
    }

    fn top_level(&mut self, stmt: &ast::Stmt) {
        match stmt {
            ast::Stmt::Import(i) => {
                for alias in &i.names {
                    let module = alias.name.to_string();
                    let alias_name = match &alias.asname {
                        Some(a) => a.to_string(),
                        // `import a.b` binds `a`.
                        None => module.split('.').next().unwrap_or("").to_string(),
                    };
                    self.ast.items.push(Item::Import {
                        module,
                        alias: alias_name,
                        span: span(alias.range),
                    });
                }
            }
            ast::Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map_or(String::new(), |m| m.to_string());
                let names = i
                    .names
                    .iter()
                    .map(|a| {
                        let name = a.name.to_string();
                        let alias = a.asname.as_ref().map_or(name.clone(), |x| x.to_string());
                        (name, alias, span(a.range))
                    })
                    .collect();
                self.ast.items.push(Item::ImportFrom {
                    module,
                    names,
                    span: span(i.range),
                });
            }
            ast::Stmt::Assign(a) => match a.targets.as_slice() {
                [ast::Expr::Name(n)] => {
                    self.top_assign(n.id.to_string(), None, &a.value, span(a.range))
                }
                targets if targets.iter().all(names_only) => {
                    self.top_unpack(targets, &a.value, span(a.range))
                }
                targets => self.opaque_targets(targets, "a value the kernel language cannot hold"),
            },
            ast::Stmt::AnnAssign(a) => {
                if let (ast::Expr::Name(n), Some(v)) = (&*a.target, &a.value) {
                    let quiet = std::mem::replace(&mut self.quiet, true);
                    let ann = self.expr(&a.annotation);
                    self.quiet = quiet;
                    self.top_assign(n.id.to_string(), Some(ann), v, span(a.range));
                }
            }
            ast::Stmt::FunctionDef(f) if f.is_async => {
                match f.decorator_list.iter().find(|d| mentions_device(d)) {
                    Some(d) => self.push_diag(
                        Diagnostic::error(
                            span(d.expression.range()),
                            format!("`{}` cannot be `async`", f.name),
                        )
                        .with_label("a kernel or func runs on the GPU, where nothing awaits")
                        .with_help("remove `async`"),
                    ),
                    None => self.ast.items.push(Item::Opaque {
                        name: f.name.to_string(),
                        span: stmt_span(self.source, stmt),
                        what: "an async function",
                    }),
                }
            }
            ast::Stmt::FunctionDef(f) if self.malformed_decorator(&f.decorator_list) => {}
            ast::Stmt::FunctionDef(f) => {
                if f.decorator_list.iter().any(is_device_decorator) {
                    let def = self.func_def(f);
                    self.ast.items.push(Item::Def(def));
                } else {
                    self.ast.items.push(Item::Opaque {
                        name: f.name.to_string(),
                        span: stmt_span(self.source, stmt),
                        what: "a plain Python function (not a @func)",
                    });
                }
            }
            ast::Stmt::ClassDef(c) if c.decorator_list.iter().any(is_struct_decorator) => {
                self.struct_def(c, stmt)
            }
            ast::Stmt::ClassDef(c) => self.ast.items.push(Item::Opaque {
                name: c.name.to_string(),
                span: stmt_span(self.source, stmt),
                what: "a class",
            }),
            // Everything else at top level is CPU-side Python: ignored.
            _ => {}
        }
        self.nested_device_defs(stmt);
    }

    /// `@struct class Name:`: its fields, each `name: T` alone on a line (a docstring may
    /// come first); anything else in its body, a base class or another decorator is an error
    /// here.
    fn struct_def(&mut self, c: &ast::StmtClassDef, stmt: &ast::Stmt) {
        let head = span(c.name.range);
        let whole = stmt_span(self.source, stmt);
        let name_span = Span::new(whole.start, head.end);
        if let Some(b) = c.bases().first().or(c.keywords().first().map(|k| &k.value)) {
            self.push_diag(
                Diagnostic::error(span(b.range()), "a struct has no base classes")
                    .with_help("nest a struct as a field instead: `inner: Inner`"),
            );
        }
        let mut decorator = None;
        for d in &c.decorator_list {
            if is_struct_decorator(d) && decorator.is_none() {
                decorator = Some(self.expr(&d.expression));
            } else {
                self.push_diag(
                    Diagnostic::error(span(d.expression.range()), "a struct takes only `@struct`")
                        .with_help("remove this decorator"),
                );
            }
        }
        let mut fields = Vec::new();
        for (k, s) in c.body.iter().enumerate() {
            match s {
                ast::Stmt::AnnAssign(a) if a.value.is_none() => match &*a.target {
                    ast::Expr::Name(n) => {
                        let ann = self.expr(&a.annotation);
                        fields.push((n.id.to_string(), ann, span(a.range)));
                        continue;
                    }
                    other => self.push_diag(Diagnostic::error(
                        span(other.range()),
                        "a struct field is a plain name: `pos: vec3`",
                    )),
                },
                ast::Stmt::AnnAssign(a) => self.push_diag(
                    Diagnostic::error(
                        span(a.value.as_ref().map_or(a.range, |v| v.range())),
                        "a struct field has no default value in this version",
                    )
                    .with_note("a field a constructor is not given is zero (`False` for a bool)")
                    .with_help("remove the default"),
                ),
                ast::Stmt::Expr(e)
                    if k == 0 && matches!(&*e.value, ast::Expr::StringLiteral(_)) => {}
                ast::Stmt::Pass(_) => {}
                ast::Stmt::FunctionDef(f) => self.push_diag(
                    Diagnostic::error(
                        span(f.name.range),
                        "a struct has no methods in this version",
                    )
                    .with_help(format!(
                        "write a `@func` that takes the struct: `def {}(p: {}) -> ...`",
                        f.name, c.name
                    )),
                ),
                other => self.push_diag(Diagnostic::error(
                    span(other.range()),
                    "a struct's body holds only its annotated fields (`pos: vec3`)",
                )),
            }
        }
        let Some(decorator) = decorator else { return };
        self.ast.items.push(Item::Struct(StructDecl {
            name: c.name.to_string(),
            name_span,
            decorator,
            fields,
        }));
    }

    /// A decorator that names `kernel`/`func` but is not `@kernel`, `@kernel(...)` (or the
    /// same for `func`) is an error at the decorator; true when there was one.
    fn malformed_decorator(&mut self, decorators: &[ast::Decorator]) -> bool {
        let Some(d) = decorators
            .iter()
            .find(|d| mentions_device(d) && !is_device_decorator(d))
        else {
            return false;
        };
        self.push_diag(
            Diagnostic::error(
                span(d.expression.range()),
                "this is not a spirthon decorator",
            )
            .with_label("a call of a call")
            .with_help("write `@kernel`, `@kernel(workgroup_size=...)` or `@func`"),
        );
        true
    }

    /// `@kernel`/`@func` on a `def` inside a class, `if`, loop, `with` or `try`: spirthon
    /// compiles only top-level functions, so say so at the decorator rather than ignore it.
    fn nested_device_defs(&mut self, stmt: &ast::Stmt) {
        for (name, decorators, _) in nested_defs(stmt) {
            if let Some(d) = decorators.iter().find(|d| mentions_device(d)) {
                self.push_diag(
                    Diagnostic::error(
                        span(d.expression.range()),
                        format!("`{name}` must be defined at the top level of the file"),
                    )
                    .with_label("a kernel or func inside a class or a block")
                    .with_help("move the `def` to the top level, unindented"),
                );
            }
        }
    }

    /// Binds every name of `targets` (inside tuples, lists and `*` too) to `what`.
    fn opaque_targets(&mut self, targets: &[ast::Expr], what: &'static str) {
        let mut work: Vec<&ast::Expr> = targets.iter().rev().collect();
        while let Some(t) = work.pop() {
            match t {
                ast::Expr::Name(n) => self.ast.items.push(Item::Opaque {
                    name: n.id.to_string(),
                    span: span(n.range),
                    what,
                }),
                ast::Expr::Tuple(t) => work.extend(t.elts.iter().rev()),
                ast::Expr::List(l) => work.extend(l.elts.iter().rev()),
                ast::Expr::Starred(s) => work.push(&s.value),
                _ => {}
            }
        }
    }

    /// `A, B = 4, 8`, `(X, Y), Z = ...`, `A = B = 4`: names bound together from one value
    /// (see [`Item::Unpack`]); every name is opaque when the value is outside the
    /// expression language.
    fn top_unpack(&mut self, targets: &[ast::Expr], value: &ast::Expr, sp: Span) {
        let ((target_ids, value_id), rejected) =
            self.constant_exprs(|p| (p.exprs(targets), p.expr(value)));
        if rejected {
            self.opaque_targets(targets, "a value the kernel language cannot hold");
        } else {
            self.ast.items.push(Item::Unpack {
                targets: target_ids,
                value: value_id,
                span: sp,
            });
        }
    }

    /// Converts a module-level constant's expressions with `parse`, quietly (a module
    /// value the kernel language cannot hold is an error only where a kernel uses it) and
    /// with lists read as tuples; whether any part of them was rejected.
    fn constant_exprs<T>(&mut self, parse: impl FnOnce(&mut Self) -> T) -> (T, bool) {
        let quiet = std::mem::replace(&mut self.quiet, true);
        let before = self.ast.exprs.len();
        self.lists_as_tuples = true;
        let out = parse(self);
        self.lists_as_tuples = false;
        self.quiet = quiet;
        let rejected = self.ast.exprs[before..]
            .iter()
            .any(|e| e.kind == ExprKind::Error);
        (out, rejected)
    }

    fn top_assign(
        &mut self,
        name: String,
        annotation: Option<ExprId>,
        value: &ast::Expr,
        sp: Span,
    ) {
        // `T = TypeVar("T")` (or `typing.TypeVar`): the callee is resolved with the imports.
        if let ast::Expr::Call(c) = value {
            let last = match &*c.func {
                ast::Expr::Name(n) => Some(n.id.as_str()),
                ast::Expr::Attribute(a) => Some(a.attr.as_str()),
                _ => None,
            };
            if last == Some("TypeVar")
                && matches!(c.arguments.args.first(), Some(ast::Expr::StringLiteral(_)))
            {
                let quiet = std::mem::replace(&mut self.quiet, true);
                let callee = self.expr(&c.func);
                self.quiet = quiet;
                self.ast.items.push(Item::TypeVar {
                    name,
                    callee,
                    span: sp,
                });
                return;
            }
        }
        let (value_id, rejected) = self.constant_exprs(|p| p.expr(value));
        if rejected {
            self.ast.items.push(Item::Opaque {
                name,
                span: sp,
                what: "a value the kernel language cannot hold",
            });
        } else {
            self.ast.items.push(Item::Assign {
                name,
                annotation,
                value: value_id,
                span: sp,
            });
        }
    }

    fn func_def(&mut self, f: &ast::StmtFunctionDef) -> FuncDef {
        let (e0, s0) = (self.ast.exprs.len() as u32, self.ast.stmts.len() as u32);
        let decorators = f
            .decorator_list
            .iter()
            .map(|d| self.expr(&d.expression))
            .collect();
        let start = def_start(self.source, &f.name, "def");
        let name_span = Span::new(start, start + 4 + f.name.as_str().len() as u32);
        let args = &f.parameters;
        if let Some(v) = &args.vararg {
            self.error(
                param_span(v),
                "`*args` is not supported in kernels and funcs",
            );
        }
        if let Some(k) = &args.kwarg {
            self.error(
                param_span(k),
                "`**kwargs` is not supported in kernels and funcs",
            );
        }
        for k in &args.kwonlyargs {
            self.error(
                span(k.parameter.range),
                "keyword-only parameters are not supported: funcs take arguments by position",
            );
        }
        let mut type_params = Vec::new();
        for t in f.type_params.iter().flat_map(|t| &t.type_params) {
            match t {
                // A bound or constraints (`[T: (f32, f64)]`) are the type checker's, as a
                // `TypeVar`'s are: the types come from each launch or call.
                ast::TypeParam::TypeVar(v) => type_params.push((v.name.to_string(), span(v.range))),
                other => self.error(
                    span(other.range()),
                    "only plain type parameters (`[T]`) are supported in kernels and funcs, not `*Ts` or `**P`",
                ),
            }
        }
        let mut params = Vec::new();
        for a in args.posonlyargs.iter().chain(&args.args) {
            let annotation = a.parameter.annotation.as_ref().map(|e| self.expr(e));
            let default = a.default.as_ref().map(|d| self.expr(d));
            params.push(Param {
                name: a.parameter.name.to_string(),
                annotation,
                default,
                span: span(a.parameter.range),
            });
        }
        let returns = f.returns.as_ref().map(|e| self.expr(e));
        let body = self.body(&f.body);
        FuncDef {
            name: f.name.to_string(),
            name_span,
            decorators,
            type_params,
            params,
            returns,
            body,
            exprs: e0..self.ast.exprs.len() as u32,
            stmts: s0..self.ast.stmts.len() as u32,
        }
    }

    /// A statement list; a leading string is a docstring and is dropped.
    fn body(&mut self, stmts: &[ast::Stmt]) -> Vec<StmtId> {
        let mut out = Vec::with_capacity(stmts.len());
        for (i, s) in stmts.iter().enumerate() {
            if i == 0 && is_string_stmt(s) {
                continue;
            }
            out.push(self.stmt(s));
        }
        out
    }

    /// Enters one level of statement or expression nesting; false (with one diagnostic
    /// per file) when that goes past the limit.
    fn deeper(&mut self, sp: Span, stmt: bool) -> bool {
        let (depth, limit, what) = if stmt {
            self.stmt_depth += 1;
            (self.stmt_depth, MAX_BLOCK_DEPTH, "blocks")
        } else {
            self.expr_depth += 1;
            (self.expr_depth, MAX_EXPR_DEPTH, "expressions")
        };
        if depth <= limit {
            return true;
        }
        if !self.too_deep {
            self.too_deep = true;
            // A caret at the start: the span of a deep statement covers everything inside it.
            let at = Span::new(sp.start, sp.start);
            self.push_diag(
                Diagnostic::error(
                    at,
                    format!("too deeply nested: more than {limit} levels of nested {what}"),
                )
                .with_help("move the inner part into a @func or a variable"),
            );
        }
        false
    }

    fn shallower(&mut self, stmt: bool) {
        if stmt {
            self.stmt_depth -= 1;
        } else {
            self.expr_depth -= 1;
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) -> StmtId {
        let sp = stmt_span(self.source, s);
        if !self.deeper(sp, true) {
            self.shallower(true);
            return self.ast.add_stmt(StmtKind::Error, sp);
        }
        let kind = self.stmt_kind(s, sp);
        self.shallower(true);
        self.ast.add_stmt(kind, sp)
    }

    fn stmt_kind(&mut self, s: &ast::Stmt, sp: Span) -> StmtKind {
        use ast::Stmt as S;
        match s {
            S::Expr(e) if is_string_stmt(s) => {
                self.error(span(e.range), "strings are not supported in kernels (only as a docstring, the first statement of a body)");
                StmtKind::Error
            }
            S::Expr(e) => StmtKind::Expr(self.expr(&e.value)),
            S::Assign(a) => {
                let targets = a.targets.iter().map(|t| self.expr(t)).collect();
                StmtKind::Assign(targets, self.expr(&a.value))
            }
            S::AugAssign(a) => {
                let op = binary_op(&a.op);
                let target = self.expr(&a.target);
                let value = self.expr(&a.value);
                match op {
                    Some(op) => StmtKind::AugAssign(target, op, value),
                    None => {
                        self.error(sp, "the `@=` operator is not supported");
                        StmtKind::Error
                    }
                }
            }
            S::AnnAssign(a) => StmtKind::AnnAssign(
                self.expr(&a.target),
                self.expr(&a.annotation),
                a.value.as_ref().map(|v| self.expr(v)),
            ),
            S::If(i) => self.if_chain(i),
            S::Match(m) => self.match_stmt(m, sp),
            S::While(w) => {
                StmtKind::While(self.expr(&w.test), self.body(&w.body), self.body(&w.orelse))
            }
            S::For(f) if !f.is_async => StmtKind::For(
                self.expr(&f.target),
                self.expr(&f.iter),
                self.body(&f.body),
                self.body(&f.orelse),
            ),
            S::Break(_) => StmtKind::Break,
            S::Continue(_) => StmtKind::Continue,
            S::Return(r) => StmtKind::Return(r.value.as_ref().map(|v| self.expr(v))),
            S::Pass(_) => StmtKind::Pass,
            S::Assert(a) => {
                let test = self.expr(&a.test);
                let message = match a.msg.as_deref() {
                    None => None,
                    Some(ast::Expr::StringLiteral(m)) => Some(m.value.to_str().to_string()),
                    Some(other) => {
                        let sp = span(other.range());
                        self.error(sp, "an assert message must be a string literal");
                        None
                    }
                };
                StmtKind::Assert(test, message)
            }
            other => {
                let what = match other {
                    S::FunctionDef(f) if f.is_async => "`async` is",
                    S::For(_) => "`async` is",
                    S::With(w) if w.is_async => "`async` is",
                    S::FunctionDef(_) => "nested function definitions are",
                    S::ClassDef(_) => "classes are",
                    S::Delete(_) => "`del` is",
                    S::With(_) => "`with` is",
                    S::Raise(_) => "`raise` is",
                    S::Try(_) => "`try` is",
                    S::Import(_) | S::ImportFrom(_) => "imports inside a kernel are",
                    S::Global(_) => "`global` is",
                    S::Nonlocal(_) => "`nonlocal` is",
                    S::TypeAlias(_) => "`type` aliases are",
                    _ => "this statement is",
                };
                self.error(sp, format!("{what} not supported in kernels"));
                StmtKind::Error
            }
        }
    }

    /// An `if` and its `elif` clauses, as the AST holds them: each `elif` an `If` alone in
    /// the `else` of the one before, its span running to the end of the whole statement.
    /// Converted in a loop and without a level of nesting per link, so that a long chain is
    /// neither deep recursion nor "too deeply nested". The inner `If`s are added innermost
    /// first and the outermost is left to the caller, as a recursive conversion would.
    fn if_chain(&mut self, first: &ast::StmtIf) -> StmtKind {
        let end: u32 = first.range.end().into();
        let mut converted = vec![(self.expr(&first.test), self.body(&first.body))];
        let mut starts = vec![u32::from(first.range.start())];
        let mut orelse = Vec::new();
        for clause in &first.elif_else_clauses {
            match &clause.test {
                Some(test) => {
                    converted.push((self.expr(test), self.body(&clause.body)));
                    starts.push(clause.range.start().into());
                }
                None => orelse = self.body(&clause.body),
            }
        }
        for (k, (test, body)) in converted.into_iter().enumerate().rev() {
            let kind = StmtKind::If(test, body, orelse);
            if k == 0 {
                return kind;
            }
            orelse = vec![self.ast.add_stmt(kind, Span::new(starts[k], end))];
        }
        unreachable!("a chain has at least one link")
    }

    /// `match subject:` over an integer, with integer literal patterns (negative ones and `|`
    /// alternatives too), `as` bindings, guards, and a last `case _:` or capture: the
    /// subject goes into a hidden local, and the cases become an `if`/`elif`/`else` chain
    /// over it, tried in order as Python tries them. A capture binds before its guard runs.
    fn match_stmt(&mut self, m: &ast::StmtMatch, sp: Span) -> StmtKind {
        let subject = self.expr(&m.subject);
        let at = span(m.subject.range());
        let hidden = format!("match@{}", sp.start);
        let target = self.ast.add_expr(ExprKind::Name(hidden.clone()), at);
        let mut links: Vec<(Option<ExprId>, Vec<StmtId>, Span)> = Vec::new();
        for (k, case) in m.cases.iter().enumerate() {
            let Some((literals, bind)) = self.case_pattern(&case.pattern) else {
                return StmtKind::Error;
            };
            let pattern_span = span(case.pattern.range());
            let irrefutable = literals.is_empty() && case.guard.is_none();
            if irrefutable && k + 1 < m.cases.len() {
                let what = match &bind {
                    Some((name, _)) => format!("name capture '{name}'"),
                    None => "wildcard".to_string(),
                };
                self.error(
                    pattern_span,
                    format!("{what} makes remaining patterns unreachable"),
                );
                return StmtKind::Error;
            }
            links.push(self.case_link(case, literals, bind, &hidden, at));
        }
        // Innermost first: each case is the `else` of the one before it.
        let mut orelse: Vec<StmtId> = Vec::new();
        for (test, body, lsp) in links.into_iter().rev() {
            orelse = match test {
                None => body,
                Some(t) => vec![self.ast.add_stmt(StmtKind::If(t, body, orelse), lsp)],
            };
        }
        let chain = match orelse[..] {
            [one] if matches!(self.ast.stmt(one).kind, StmtKind::If(..)) => one,
            // Only the last case, and it always holds: `if True:` around its body.
            _ => {
                let always = self.ast.add_expr(ExprKind::Bool(true), at);
                self.ast
                    .add_stmt(StmtKind::If(always, orelse, Vec::new()), sp)
            }
        };
        StmtKind::Match(target, subject, chain)
    }

    /// One case as a link of the chain: its test over the hidden subject (`None` when it
    /// always holds), its body (after the capture's binding, when it binds without a guard)
    /// and its span.
    fn case_link(
        &mut self,
        case: &ast::MatchCase,
        literals: Vec<ExprId>,
        bind: Option<(String, Span)>,
        hidden: &str,
        at: Span,
    ) -> (Option<ExprId>, Vec<StmtId>, Span) {
        let pattern_span = span(case.pattern.range());
        let subject_at = |p: &mut Self| p.ast.add_expr(ExprKind::Name(hidden.to_string()), at);
        let mut tests = Vec::new();
        if !literals.is_empty() {
            let compares: Vec<ExprId> = literals
                .iter()
                .map(|&lit| {
                    let s = subject_at(self);
                    let lsp = self.ast.expr(lit).span;
                    self.ast
                        .add_expr(ExprKind::Compare(s, vec![(CmpOp::Eq, lit)]), lsp)
                })
                .collect();
            tests.push(match compares[..] {
                [one] => one,
                _ => self
                    .ast
                    .add_expr(ExprKind::BoolOp(false, compares), pattern_span),
            });
        }
        let mut body = Vec::new();
        if let Some((name, nsp)) = &bind {
            let t = self.ast.add_expr(ExprKind::Name(name.clone()), *nsp);
            let s = subject_at(self);
            if case.guard.is_some() {
                // `(name := subject) == subject`: the binding, before the guard.
                let w = self.ast.add_expr(ExprKind::Walrus(t, s), *nsp);
                let s2 = subject_at(self);
                tests.push(
                    self.ast
                        .add_expr(ExprKind::Compare(w, vec![(CmpOp::Eq, s2)]), *nsp),
                );
            } else {
                body.push(self.ast.add_stmt(StmtKind::Assign(vec![t], s), *nsp));
            }
        }
        if let Some(g) = &case.guard {
            tests.push(self.expr(g));
        }
        body.extend(self.body(&case.body));
        let test = match tests[..] {
            [] => None,
            [one] => Some(one),
            _ => Some(
                self.ast
                    .add_expr(ExprKind::BoolOp(true, tests), pattern_span),
            ),
        };
        let end = case
            .body
            .last()
            .map_or(pattern_span.end, |b| span(b.range()).end);
        (test, body, Span::new(pattern_span.start, end))
    }

    /// A case's pattern as the integer literals it matches (none for `_` or a capture) and
    /// the name it binds; `None` after an error that says which forms work.
    #[allow(clippy::type_complexity)]
    fn case_pattern(&mut self, p: &ast::Pattern) -> Option<(Vec<ExprId>, Option<(String, Span)>)> {
        use ast::Pattern as P;
        let (inner, bind) = match p {
            P::MatchAs(a) => (
                a.pattern.as_deref(),
                a.name.as_ref().map(|n| (n.to_string(), span(p.range()))),
            ),
            other => (Some(other), None),
        };
        let mut literals = Vec::new();
        let mut work: Vec<&P> = inner.into_iter().collect();
        while let Some(p) = work.pop() {
            match p {
                P::MatchValue(v) if is_int_pattern(&v.value) => literals.push(self.expr(&v.value)),
                P::MatchOr(o) => work.extend(o.patterns.iter().rev()),
                _ => {
                    self.push_diag(
                        Diagnostic::error(span(p.range()), "this pattern is not supported in kernels")
                            .with_help("a kernel's `case` is an integer literal (`case 3:`, `case -1:`), alternatives of them (`case 1 | 2:`), either bound with `as`, `_`, or a name that binds the value (`case other:`); each may have an `if` guard"),
                    );
                    return None;
                }
            }
        }
        Some((literals, bind))
    }

    fn expr(&mut self, e: &ast::Expr) -> ExprId {
        let sp = span(e.range());
        if !self.deeper(sp, false) {
            self.shallower(false);
            return self.ast.add_expr(ExprKind::Error, sp);
        }
        let kind = self.expr_kind(e, sp);
        self.shallower(false);
        self.ast.add_expr(kind, sp)
    }

    fn exprs(&mut self, es: &[ast::Expr]) -> Vec<ExprId> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    /// A call; `*` and `**` arguments are errors (a `*` one stays as an error node, so that
    /// the call's arity is known to be unknown).
    fn call_kind(&mut self, c: &ast::ExprCall) -> ExprKind {
        use ast::Expr as E;
        let func = self.expr(&c.func);
        // `print("x =", x, f"{y:.3f}", sep=", ")`: strings and f-strings are print's.
        let print = matches!(&*c.func, E::Name(n) if n.id.as_str() == "print");
        let mut args = Vec::new();
        for a in &c.arguments.args {
            match a {
                E::Starred(st) => {
                    self.error(span(st.range), "`*` unpacking in calls is not supported");
                    let sp = span(st.range);
                    args.push(self.ast.add_expr(ExprKind::Error, sp));
                }
                E::StringLiteral(k) if print => {
                    let text = k.value.to_str().to_string();
                    args.push(self.ast.add_expr(ExprKind::Str(text), span(k.range)));
                }
                E::FString(f) if print => {
                    let kind = self.fstring(f);
                    args.push(self.ast.add_expr(kind, span(f.range)));
                }
                _ if print => {
                    let outer = self.in_print.replace(false);
                    args.push(self.expr(a));
                    self.in_print = outer;
                }
                _ => args.push(self.expr(a)),
            }
        }
        let mut keywords = Vec::new();
        for k in &c.arguments.keywords {
            match &k.arg {
                Some(name) => {
                    let value = match &k.value {
                        E::StringLiteral(v) if print => {
                            let text = v.value.to_str().to_string();
                            self.ast.add_expr(ExprKind::Str(text), span(v.range))
                        }
                        other => self.expr(other),
                    };
                    keywords.push(Keyword {
                        name: name.to_string(),
                        value,
                        span: span(k.range),
                    });
                }
                None => self.error(span(k.range), "`**` unpacking in calls is not supported"),
            }
        }
        ExprKind::Call {
            func,
            args,
            keywords,
        }
    }

    /// An f-string argument of `print`: its literal pieces and replacement fields (a field
    /// inside a format spec is an error).
    fn fstring(&mut self, f: &ast::ExprFString) -> ExprKind {
        use ast::InterpolatedStringElement as El;
        let mut parts = Vec::new();
        for part in f.value.iter() {
            match part {
                ast::FStringPart::Literal(l) => parts.push(FPart::Text(l.value.to_string())),
                ast::FStringPart::FString(fs) => {
                    for el in fs.elements.iter() {
                        match el {
                            El::Literal(l) => parts.push(FPart::Text(l.value.to_string())),
                            El::Interpolation(i) => match self.field(i) {
                                Some(p) => parts.push(p),
                                None => return ExprKind::Error,
                            },
                        }
                    }
                }
            }
        }
        ExprKind::FString(parts)
    }

    /// One replacement field of an f-string.
    fn field(&mut self, i: &ast::InterpolatedElement) -> Option<FPart> {
        let mut spec = String::new();
        if let Some(s) = &i.format_spec {
            for el in s.elements.iter() {
                match el {
                    ast::InterpolatedStringElement::Literal(l) => spec.push_str(&l.value),
                    ast::InterpolatedStringElement::Interpolation(n) => {
                        self.push_diag(
                            Diagnostic::error(span(n.range), "a replacement field inside a format spec is not supported in kernels")
                                .with_help("write the spec out: `{x:8.3f}`, not `{x:{w}.3f}`"),
                        );
                        return None;
                    }
                }
            }
        }
        let value = match &*i.expression {
            ast::Expr::StringLiteral(k) => {
                let text = k.value.to_str().to_string();
                self.ast.add_expr(ExprKind::Str(text), span(k.range))
            }
            e => self.expr(e),
        };
        Some(FPart::Field {
            value,
            debug: i.debug_text.as_ref().map(|d| d.as_str().to_string()),
            conversion: i.conversion.to_byte().map(char::from),
            spec,
            span: span(i.range),
        })
    }

    fn expr_kind(&mut self, e: &ast::Expr, sp: Span) -> ExprKind {
        use ast::Expr as E;
        match e {
            E::NumberLiteral(_)
            | E::BooleanLiteral(_)
            | E::NoneLiteral(_)
            | E::StringLiteral(_)
            | E::BytesLiteral(_)
            | E::EllipsisLiteral(_) => self.literal(e, sp),
            E::Name(n) => ExprKind::Name(n.id.to_string()),
            E::Attribute(a) => ExprKind::Attr(self.expr(&a.value), a.attr.to_string()),
            E::Subscript(s) => {
                if let E::Slice(sl) = &*s.slice {
                    self.error(
                        span(sl.range),
                        "slices are not supported: index one element at a time",
                    );
                    return ExprKind::Error;
                }
                ExprKind::Subscript(self.expr(&s.value), self.expr(&s.slice))
            }
            E::Call(c) => self.call_kind(c),
            E::UnaryOp(u) => {
                let op = match u.op {
                    ast::UnaryOp::USub => UnaryOp::Neg,
                    ast::UnaryOp::UAdd => UnaryOp::Pos,
                    ast::UnaryOp::Not => UnaryOp::Not,
                    ast::UnaryOp::Invert => UnaryOp::Invert,
                };
                ExprKind::Unary(op, self.expr(&u.operand))
            }
            E::BinOp(b) => match binary_op(&b.op) {
                Some(op) => ExprKind::Binary(op, self.expr(&b.left), self.expr(&b.right)),
                None => {
                    self.error(sp, "the `@` operator is not supported");
                    ExprKind::Error
                }
            },
            E::BoolOp(b) => {
                ExprKind::BoolOp(matches!(b.op, ast::BoolOp::And), self.exprs(&b.values))
            }
            E::Compare(c) => {
                let left = self.expr(&c.left);
                let mut rest = Vec::new();
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let op = match op {
                        ast::CmpOp::Eq => CmpOp::Eq,
                        ast::CmpOp::NotEq => CmpOp::Ne,
                        ast::CmpOp::Lt => CmpOp::Lt,
                        ast::CmpOp::LtE => CmpOp::Le,
                        ast::CmpOp::Gt => CmpOp::Gt,
                        ast::CmpOp::GtE => CmpOp::Ge,
                        ast::CmpOp::Is | ast::CmpOp::IsNot => {
                            self.error(sp, "`is` is not supported: compare numbers with `==`");
                            return ExprKind::Error;
                        }
                        ast::CmpOp::In | ast::CmpOp::NotIn => {
                            self.error(sp, "`in` is not supported in kernels");
                            return ExprKind::Error;
                        }
                    };
                    rest.push((op, self.expr(right)));
                }
                ExprKind::Compare(left, rest)
            }
            E::If(i) => {
                ExprKind::IfExp(self.expr(&i.test), self.expr(&i.body), self.expr(&i.orelse))
            }
            E::Tuple(t) => ExprKind::Tuple(self.exprs(&t.elts)),
            E::List(l) if self.lists_as_tuples => ExprKind::Tuple(self.exprs(&l.elts)),
            // The grammar makes the target a name.
            E::Named(n) => ExprKind::Walrus(self.expr(&n.target), self.expr(&n.value)),
            other => {
                let what = match other {
                    E::List(_) => "lists are",
                    E::Dict(_) => "dicts are",
                    E::Set(_) => "sets are",
                    E::ListComp(_) | E::SetComp(_) | E::DictComp(_) | E::Generator(_) => {
                        "comprehensions are"
                    }
                    E::Lambda(_) => "lambdas are",
                    E::Await(_) => "`await` is",
                    E::Yield(_) | E::YieldFrom(_) => "`yield` is",
                    E::FString(_) => "f-strings are",
                    E::TString(_) => "template strings are",
                    E::Starred(_) => "`*` unpacking is",
                    _ => "this expression is",
                };
                if let (E::FString(_), Some(_)) = (other, self.in_print) {
                    self.print_part_refused(sp, "an f-string");
                    return ExprKind::Error;
                }
                let d = Diagnostic::error(sp, format!("{what} not supported in kernels"));
                self.push_diag(match other {
                    E::List(_) => d.with_help("for a fixed set of numbers write a tuple: a module-level `TABLE = (1, 2, 3)` is a constant table, and `workgroup_size=(8, 8)` and `for d in (-1, 0, 1):` take tuples"),
                    _ => d,
                });
                ExprKind::Error
            }
        }
    }

    /// A string or f-string inside an argument of `print` (`print(f"a" if c else f"b")`):
    /// `print` takes them as arguments of their own, which a kernel has no other value for.
    fn print_part_refused(&mut self, sp: Span, what: &str) {
        if self.in_print.replace(true) == Some(true) {
            return;
        }
        self.push_diag(
            Diagnostic::error(
                sp,
                format!("{what} is an argument of `print` itself in kernels, not part of an expression"),
            )
            .with_note("a kernel has no string values: `print` formats its own arguments on the device")
            .with_help("choose the line with a statement: `if c: print(f\"...\")` and `else: print(f\"...\")`"),
        );
    }

    fn literal(&mut self, e: &ast::Expr, sp: Span) -> ExprKind {
        use ast::{Expr as E, Number};
        match e {
            E::BooleanLiteral(b) => ExprKind::Bool(b.value),
            E::NoneLiteral(_) => ExprKind::None,
            E::NumberLiteral(n) => match &n.value {
                Number::Float(f) => ExprKind::Float(*f),
                Number::Int(i) => match i.as_u64() {
                    Some(v) => ExprKind::Int(v.into()),
                    _ => {
                        self.push_diag(
                            Diagnostic::error(sp, "integer literal too large: integers are at most 64-bit")
                                .with_label("does not fit in 64 bits")
                                .with_note(
                                    "literals up to 2**31 - 1 are i32, up to 2**32 - 1 are u32; a larger one, up to 2**64 - 1, is an i64 or u64 where it meets one",
                                ),
                        );
                        ExprKind::Error
                    }
                },
                Number::Complex { .. } => {
                    self.error(sp, "complex numbers are not supported in kernels");
                    ExprKind::Error
                }
            },
            E::StringLiteral(_) if self.in_print.is_some() => {
                self.print_part_refused(sp, "a string");
                ExprKind::Error
            }
            E::StringLiteral(_) => {
                self.error(sp, "strings are not supported in kernels");
                ExprKind::Error
            }
            E::BytesLiteral(_) => {
                self.error(sp, "bytes are not supported in kernels");
                ExprKind::Error
            }
            _ => {
                self.error(sp, "this constant is not supported in kernels");
                ExprKind::Error
            }
        }
    }
}

fn is_string_stmt(s: &ast::Stmt) -> bool {
    matches!(s, ast::Stmt::Expr(e) if e.value.is_string_literal_expr())
}

fn binary_op(op: &ast::Operator) -> Option<BinaryOp> {
    Some(match op {
        ast::Operator::Add => BinaryOp::Add,
        ast::Operator::Sub => BinaryOp::Sub,
        ast::Operator::Mult => BinaryOp::Mul,
        ast::Operator::Div => BinaryOp::Div,
        ast::Operator::FloorDiv => BinaryOp::FloorDiv,
        ast::Operator::Mod => BinaryOp::Mod,
        ast::Operator::Pow => BinaryOp::Pow,
        ast::Operator::LShift => BinaryOp::Shl,
        ast::Operator::RShift => BinaryOp::Shr,
        ast::Operator::BitOr => BinaryOp::BitOr,
        ast::Operator::BitXor => BinaryOp::BitXor,
        ast::Operator::BitAnd => BinaryOp::BitAnd,
        ast::Operator::MatMult => BinaryOp::MatMul,
    })
}

/// Whether a `case` value is an integer literal, or a negative one.
fn is_int_pattern(e: &ast::Expr) -> bool {
    let int = |e: &ast::Expr| matches!(e, ast::Expr::NumberLiteral(n) if matches!(n.value, ast::Number::Int(_)));
    match e {
        ast::Expr::UnaryOp(u) => matches!(u.op, ast::UnaryOp::USub) && int(&u.operand),
        other => int(other),
    }
}

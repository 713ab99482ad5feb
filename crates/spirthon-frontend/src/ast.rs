//! The restricted AST: only the constructs of the kernel language, in arenas indexed by
//! `u32` ids, each node with its source [`Span`]. Everything the language rejects is rejected
//! while this is built (module `parse`), so later stages match on supported forms only.
//!
//! Invariant: nesting is bounded (`parse::MAX_BLOCK_DEPTH`, `parse::MAX_EXPR_DEPTH`), so the recursive walks over this tree
//! in later stages use a bounded amount of stack.

use spirthon_ir::cfg::CmpOp;
use spirthon_ir::Span;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ExprId(pub u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StmtId(pub u32);

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Shl,
    Shr,
    BitOr,
    BitXor,
    BitAnd,
    /// `@`: the matrix product.
    MatMul,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "//",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "**",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::BitAnd => "&",
            BinaryOp::MatMul => "@",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum UnaryOp {
    Neg,
    Pos,
    Not,
    Invert,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Keyword {
    pub name: String,
    pub value: ExprId,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// An integer literal (at most `2**32 - 1`; negative values come from unary minus).
    Int(i128),
    Float(f64),
    Bool(bool),
    /// `None` (only meaningful as a return annotation).
    None,
    Name(String),
    Attr(ExprId, String),
    Subscript(ExprId, ExprId),
    Call {
        func: ExprId,
        args: Vec<ExprId>,
        keywords: Vec<Keyword>,
    },
    Unary(UnaryOp, ExprId),
    Binary(BinaryOp, ExprId, ExprId),
    /// `and` (true) or `or` (false) over two or more operands.
    BoolOp(bool, Vec<ExprId>),
    Compare(ExprId, Vec<(CmpOp, ExprId)>),
    /// `body if test else orelse`, stored as `(test, body, orelse)`.
    IfExp(ExprId, ExprId, ExprId),
    Tuple(Vec<ExprId>),
    /// `(name := value)`, stored as `(target, value)`: the target is a `Name` node.
    Walrus(ExprId, ExprId),
    /// A string literal: only as an argument of `print` or the value of its `sep=`/`end=`
    /// (anywhere else the parser rejects strings).
    Str(String),
    /// An f-string (implicitly concatenated pieces joined): only as an argument of `print`.
    FString(Vec<FPart>),
    /// A construct that was rejected with a diagnostic already.
    Error,
}

/// A piece of an f-string.
#[derive(Clone, PartialEq, Debug)]
pub enum FPart {
    Text(String),
    /// `{value=!r:spec}`: `debug` is the text before the conversion, spec or `}` of a
    /// field with `=` (`"x = "`), `conversion` one of `s r a`, `spec` the literal format spec.
    Field {
        value: ExprId,
        debug: Option<String>,
        conversion: Option<char>,
        spec: String,
        span: Span,
    },
}

/// The one walk over an expression's children, written once for shared and mutable access.
macro_rules! each_child {
    ($kind:expr, $f:ident, $iter:ident, $($r:tt)+) => {
        match $kind {
            ExprKind::Attr(a, _) | ExprKind::Unary(_, a) => $f(a),
            ExprKind::Subscript(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Walrus(a, b) => {
                $f(a);
                $f(b);
            }
            ExprKind::Call {
                func,
                args,
                keywords,
            } => {
                $f(func);
                args.$iter().for_each(&mut $f);
                keywords.$iter().for_each(|k| $f($($r)+ k.value));
            }
            ExprKind::BoolOp(_, v) | ExprKind::Tuple(v) => v.$iter().for_each($f),
            ExprKind::Compare(a, rest) => {
                $f(a);
                rest.$iter().for_each(|r| $f($($r)+ r.1));
            }
            ExprKind::IfExp(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            ExprKind::FString(parts) => parts.$iter().for_each(|p| {
                if let FPart::Field { value, .. } = p {
                    $f(value)
                }
            }),
            ExprKind::Str(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Name(_)
            | ExprKind::Error => {}
        }
    };
}

impl ExprKind {
    /// Applies `f` to each sub-expression, in source order (a call's function, then its
    /// arguments, then its keyword values). Printers, predicates and the fast parser's
    /// renumbering all walk children through this or [`ExprKind::children_mut`].
    pub fn children(&self, mut f: impl FnMut(ExprId)) {
        let mut g = |e: &ExprId| f(*e);
        each_child!(self, g, iter, &)
    }

    /// Applies `f` to each sub-expression id in place, in source order.
    pub fn children_mut(&mut self, mut f: impl FnMut(&mut ExprId)) {
        each_child!(self, f, iter_mut, &mut)
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum StmtKind {
    Expr(ExprId),
    /// `t1 = t2 = value`.
    Assign(Vec<ExprId>, ExprId),
    AugAssign(ExprId, BinaryOp, ExprId),
    AnnAssign(ExprId, ExprId, Option<ExprId>),
    If(ExprId, Vec<StmtId>, Vec<StmtId>),
    While(ExprId, Vec<StmtId>, Vec<StmtId>),
    For(ExprId, ExprId, Vec<StmtId>, Vec<StmtId>),
    Break,
    Continue,
    Return(Option<ExprId>),
    Pass,
    /// `assert test` or `assert test, "message"` (the message a string literal).
    Assert(ExprId, Option<String>),
    /// `match subject:` as the parser gives it: `subject` is assigned to the hidden local
    /// named by the first (a `Name` no Python name can be), then the `If` chain (the last)
    /// tries the cases over it in order, as Python does.
    Match(ExprId, ExprId, StmtId),
    /// A rejected statement, already reported.
    Error,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Param {
    pub name: String,
    pub annotation: Option<ExprId>,
    /// The default value (`t: f32 = 0.5`), a constant expression.
    pub default: Option<ExprId>,
    pub span: Span,
}

/// A `def` whose decorators make it a kernel or a device function.
#[derive(Clone, PartialEq, Debug)]
pub struct FuncDef {
    pub name: String,
    /// From `def` to the end of the signature's name.
    pub name_span: Span,
    pub decorators: Vec<ExprId>,
    /// PEP 695 type parameters (`def k[T](x: Array[T])`), each a type variable of this def
    /// alone, and their spans.
    pub type_params: Vec<(String, Span)>,
    pub params: Vec<Param>,
    pub returns: Option<ExprId>,
    pub body: Vec<StmtId>,
    /// The arena ranges this def's nodes occupy (each def's nodes are contiguous).
    pub exprs: core::ops::Range<u32>,
    pub stmts: core::ops::Range<u32>,
}

/// A top-level statement the compiler cares about.
#[derive(Clone, PartialEq, Debug)]
pub enum Item {
    /// `import module` / `import module as alias`.
    Import {
        module: String,
        alias: String,
        span: Span,
    },
    /// `from module import name as alias, …` (`*` imports everything).
    ImportFrom {
        module: String,
        names: Vec<(String, String, Span)>,
        span: Span,
    },
    /// `NAME = expr` or `NAME: T = expr` where expr is in the expression language.
    Assign {
        name: String,
        annotation: Option<ExprId>,
        value: ExprId,
        span: Span,
    },
    /// `A, B = 4, 8`, `(X, Y), Z = ...`, `A = B = 4`: each of `targets` (a `Name`, or a
    /// `Tuple` of targets, in the expression arena) bound from `value`, every name after the
    /// whole value is evaluated, as Python binds them.
    Unpack {
        targets: Vec<ExprId>,
        value: ExprId,
        span: Span,
    },
    /// A top-level name bound to something the kernel language cannot express (a list, a
    /// plain Python function, a class…). Using it in a kernel is an error.
    Opaque {
        name: String,
        span: Span,
        what: &'static str,
    },
    /// `T = TypeVar("T", ...)`: a type variable for generic kernels, if `callee` (the called
    /// name or attribute) is `typing`'s `TypeVar`.
    TypeVar {
        name: String,
        callee: ExprId,
        span: Span,
    },
    Def(FuncDef),
    /// `@struct class Name:` with its annotated fields (`pos: vec3`), in order.
    Struct(StructDecl),
}

/// A `@struct` class: its name, decorator and fields.
#[derive(Clone, PartialEq, Debug)]
pub struct StructDecl {
    pub name: String,
    /// From `class` to the end of the name.
    pub name_span: Span,
    pub decorator: ExprId,
    /// Each field's name, annotation and span (`pos: vec3`).
    pub fields: Vec<(String, ExprId, Span)>,
}

/// A parsed file: its items and the arenas they point into.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Ast {
    pub exprs: Vec<Expr>,
    pub stmts: Vec<Stmt>,
    pub items: Vec<Item>,
}

/// One link of an `if`/`elif` chain: the `If` statement, its test and its body.
#[derive(Copy, Clone, Debug)]
pub struct IfLink<'a> {
    pub stmt: StmtId,
    pub test: ExprId,
    pub body: &'a [StmtId],
}

impl Ast {
    /// The `if` statement `s` with its `elif` links (each an `If` alone in the `else` of the
    /// link before), and the final `else` body. Walkers go along a chain with this instead
    /// of recursing: a chain may be thousands of links long.
    pub fn if_chain(&self, s: StmtId) -> (Vec<IfLink<'_>>, &[StmtId]) {
        let mut links = Vec::new();
        let mut cur = s;
        loop {
            let StmtKind::If(test, body, orelse) = &self.stmt(cur).kind else {
                return (links, &[]);
            };
            links.push(IfLink {
                stmt: cur,
                test: *test,
                body,
            });
            match orelse.as_slice() {
                [next] if matches!(self.stmt(*next).kind, StmtKind::If(..)) => cur = *next,
                rest => return (links, rest),
            }
        }
    }

    pub fn expr(&self, e: ExprId) -> &Expr {
        &self.exprs[e.0 as usize]
    }
    pub fn stmt(&self, s: StmtId) -> &Stmt {
        &self.stmts[s.0 as usize]
    }
    pub fn add_expr(&mut self, kind: ExprKind, span: Span) -> ExprId {
        self.exprs.push(Expr { kind, span });
        ExprId(self.exprs.len() as u32 - 1)
    }
    pub fn add_stmt(&mut self, kind: StmtKind, span: Span) -> StmtId {
        self.stmts.push(Stmt { kind, span });
        StmtId(self.stmts.len() as u32 - 1)
    }
}

/// The AST as indented text (`--emit ast`): one node per line, `@start..end` byte spans.
pub fn dump(ast: &Ast) -> String {
    let mut out = String::new();
    for item in &ast.items {
        match item {
            Item::Import { module, alias, .. } => {
                out.push_str(&format!("import {module} as {alias}\n"))
            }
            Item::ImportFrom { module, names, .. } => {
                let list: Vec<String> = names
                    .iter()
                    .map(|(n, a, _)| {
                        if n == a {
                            n.clone()
                        } else {
                            format!("{n} as {a}")
                        }
                    })
                    .collect();
                out.push_str(&format!("from {module} import {}\n", list.join(", ")));
            }
            Item::Assign { name, value, .. } => {
                out.push_str(&format!("const {name} =\n"));
                dump_expr(ast, *value, 1, &mut out);
            }
            Item::Unpack { targets, value, .. } => {
                out.push_str("unpack\n");
                for &t in targets {
                    dump_expr(ast, t, 1, &mut out);
                }
                out.push_str("  =\n");
                dump_expr(ast, *value, 1, &mut out);
            }
            Item::Opaque { name, what, .. } => out.push_str(&format!("ignored {name}: {what}\n")),
            Item::TypeVar { name, .. } => out.push_str(&format!("typevar {name}\n")),
            Item::Struct(d) => {
                out.push_str(&format!(
                    "struct {} @{}..{}\n",
                    d.name, d.name_span.start, d.name_span.end
                ));
                for (name, ann, _) in &d.fields {
                    out.push_str(&format!("  field {name}\n"));
                    dump_expr(ast, *ann, 2, &mut out);
                }
            }
            Item::Def(f) => {
                let params: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
                out.push_str(&format!(
                    "def {}({}) @{}..{}\n",
                    f.name,
                    params.join(", "),
                    f.name_span.start,
                    f.name_span.end
                ));
                for &d in &f.decorators {
                    out.push_str("  decorator\n");
                    dump_expr(ast, d, 2, &mut out);
                }
                for &s in &f.body {
                    dump_stmt(ast, s, 1, &mut out);
                }
            }
        }
    }
    out
}

fn dump_stmt(ast: &Ast, s: StmtId, depth: usize, out: &mut String) {
    let stmt = ast.stmt(s);
    let pad = "  ".repeat(depth);
    let head = |name: &str| format!("{pad}{name} @{}..{}\n", stmt.span.start, stmt.span.end);
    let body = |label: &str, list: &[StmtId], out: &mut String| {
        if !list.is_empty() {
            out.push_str(&format!("{pad}  {label}:\n"));
            for &x in list {
                dump_stmt(ast, x, depth + 2, out);
            }
        }
    };
    match &stmt.kind {
        StmtKind::Expr(e) => {
            out.push_str(&head("expr"));
            dump_expr(ast, *e, depth + 1, out);
        }
        StmtKind::Assign(ts, v) => {
            out.push_str(&head("assign"));
            for &t in ts {
                dump_expr(ast, t, depth + 1, out);
            }
            dump_expr(ast, *v, depth + 1, out);
        }
        StmtKind::AugAssign(t, op, v) => {
            out.push_str(&head(&format!("augassign {}=", op.symbol())));
            dump_expr(ast, *t, depth + 1, out);
            dump_expr(ast, *v, depth + 1, out);
        }
        StmtKind::AnnAssign(t, a, v) => {
            out.push_str(&head("annassign"));
            dump_expr(ast, *t, depth + 1, out);
            dump_expr(ast, *a, depth + 1, out);
            if let Some(v) = v {
                dump_expr(ast, *v, depth + 1, out);
            }
        }
        StmtKind::If(..) => {
            // An `elif` prints at the depth of its `if`, so a long chain prints in linear space.
            let (links, orelse) = ast.if_chain(s);
            for (k, link) in links.iter().enumerate() {
                let sp = ast.stmt(link.stmt).span;
                let word = if k == 0 { "if" } else { "elif" };
                out.push_str(&format!("{pad}{word} @{}..{}\n", sp.start, sp.end));
                dump_expr(ast, link.test, depth + 1, out);
                body("body", link.body, out);
            }
            body("else", orelse, out);
        }
        StmtKind::While(t, a, b) => {
            out.push_str(&head("while"));
            dump_expr(ast, *t, depth + 1, out);
            body("body", a, out);
            body("else", b, out);
        }
        StmtKind::For(t, it, a, b) => {
            out.push_str(&head("for"));
            dump_expr(ast, *t, depth + 1, out);
            dump_expr(ast, *it, depth + 1, out);
            body("body", a, out);
            body("else", b, out);
        }
        StmtKind::Return(v) => {
            out.push_str(&head("return"));
            if let Some(v) = v {
                dump_expr(ast, *v, depth + 1, out);
            }
        }
        StmtKind::Assert(t, m) => {
            out.push_str(&head("assert"));
            if let Some(m) = m {
                out.push_str(&format!(" {m:?}"));
            }
            dump_expr(ast, *t, depth + 1, out);
        }
        StmtKind::Break => out.push_str(&head("break")),
        StmtKind::Continue => out.push_str(&head("continue")),
        StmtKind::Pass => out.push_str(&head("pass")),
        StmtKind::Match(t, subject, chain) => {
            out.push_str(&head("match"));
            dump_expr(ast, *t, depth + 1, out);
            dump_expr(ast, *subject, depth + 1, out);
            body("cases", std::slice::from_ref(chain), out);
        }
        StmtKind::Error => out.push_str(&head("<error>")),
    }
}

/// Prints expression `e` and its children, one line each, indented by depth (an explicit
/// stack: expressions may nest thousands deep).
fn dump_expr(ast: &Ast, e: ExprId, depth: usize, out: &mut String) {
    let mut stack = vec![(e, depth)];
    while let Some((e, depth)) = stack.pop() {
        let expr = ast.expr(e);
        out.push_str(&format!(
            "{}{} @{}..{}\n",
            "  ".repeat(depth),
            expr_label(&expr.kind),
            expr.span.start,
            expr.span.end
        ));
        let mut kids = Vec::new();
        expr.kind.children(|k| kids.push((k, depth + 1)));
        stack.extend(kids.into_iter().rev());
    }
}

fn expr_label(kind: &ExprKind) -> String {
    match kind {
        ExprKind::Int(i) => format!("int {i}"),
        ExprKind::Float(f) => format!("float {f:?}"),
        ExprKind::Bool(b) => format!("bool {b}"),
        ExprKind::None => "None".into(),
        ExprKind::Name(n) => format!("name {n}"),
        ExprKind::Attr(_, a) => format!("attr .{a}"),
        ExprKind::Subscript(..) => "subscript".into(),
        ExprKind::Call { keywords, .. } if keywords.is_empty() => "call".into(),
        ExprKind::Call { keywords, .. } => {
            let kw: Vec<&str> = keywords.iter().map(|k| k.name.as_str()).collect();
            format!("call (keywords {})", kw.join(", "))
        }
        ExprKind::Unary(op, _) => format!("unary {op:?}"),
        ExprKind::Binary(op, ..) => format!("binary {}", op.symbol()),
        ExprKind::BoolOp(and, _) => (if *and { "and" } else { "or" }).into(),
        ExprKind::Compare(_, rest) => {
            let ops: Vec<String> = rest.iter().map(|r| format!("{:?}", r.0)).collect();
            format!("compare {}", ops.join(" "))
        }
        ExprKind::IfExp(..) => "ifexp (test, body, else)".into(),
        ExprKind::Tuple(_) => "tuple".into(),
        ExprKind::Walrus(..) => "walrus (target, value)".into(),
        ExprKind::Str(t) => format!("str {t:?}"),
        ExprKind::FString(parts) => {
            let shown: Vec<String> = parts
                .iter()
                .map(|p| match p {
                    FPart::Text(t) => format!("{t:?}"),
                    FPart::Field {
                        debug,
                        conversion,
                        spec,
                        ..
                    } => format!(
                        "{{{}!{}:{spec}}}",
                        debug.as_deref().unwrap_or(""),
                        conversion.unwrap_or('-')
                    ),
                })
                .collect();
            format!("fstring {}", shown.join(" "))
        }
        ExprKind::Error => "<error>".into(),
    }
}

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
    Int(i64),
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
    /// A construct that was rejected with a diagnostic already.
    Error,
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
    Assert(ExprId),
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
    pub span: Span,
}

/// A `def` whose decorators make it a kernel or a device function.
#[derive(Clone, PartialEq, Debug)]
pub struct FuncDef {
    pub name: String,
    /// From `def` to the end of the signature's name.
    pub name_span: Span,
    pub decorators: Vec<ExprId>,
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
    /// A top-level name bound to something the kernel language cannot express (a list, a
    /// plain Python function, a class…). Using it in a kernel is an error.
    Opaque {
        name: String,
        span: Span,
        what: &'static str,
    },
    Def(FuncDef),
}

/// A parsed file: its items and the arenas they point into.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Ast {
    pub exprs: Vec<Expr>,
    pub stmts: Vec<Stmt>,
    pub items: Vec<Item>,
}

impl Ast {
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

//! The parser's fast path: a hand-written lexer and recursive-descent parser for the part of
//! Python that kernel files are made of, building exactly the [`Ast`] that the reference path
//! (module `parse`, over rustpython-parser) builds — the same nodes, in the same arena order,
//! with the same byte spans — or giving up.
//!
//! It gives up (`None`) at the first thing outside that part: any syntax error, any construct
//! the kernel language rejects, any top-level statement other than imports, constants, a
//! string, `@kernel`/`@func` defs and `@struct` classes of plain fields, tabs, form feeds, carriage returns and backslash
//! continuations, non-ASCII text outside comments and strings, string prefixes and
//! implicit concatenation, a string inside a function (the arguments of `print`, whose
//! strings and f-strings are the reference path's), semicolons, one-line suites, numbers with `_` or `j`, integers
//! too large for 32 bits, and nesting beyond limits well inside the reference path's. The
//! caller then parses with the reference path, so diagnostics, and every unusual file,
//! have one implementation. Giving up is always safe; accepting a file the reference path
//! would read differently is the bug to avoid, and `tests/parse_paths.rs` checks that the
//! two agree on every Python file in the repository and thousands of mutations of them.
//!
//! Invariants: recursion depth is bounded by [`MAX_NESTING`] levels of nested expressions and
//! blocks (each level a bounded number of frames), and the AST's expression height stays
//! below [`MAX_HEIGHT`] (under the reference path's `MAX_EXPR_DEPTH`).

mod lex;
mod parser;

use crate::ast::Ast;
use lex::lex;
use parser::Parser;

/// Nested parentheses, unary operators, ternaries and blocks together, before giving up.
const MAX_NESTING: u32 = 64;
/// Expression height before giving up (the reference path rejects more than 256).
const MAX_HEIGHT: u16 = 200;
/// Loops nested in one function before giving up (CPython's limit, which the reference path
/// reports).
const MAX_LOOPS: u32 = crate::parse::MAX_LOOP_BLOCKS as u32;

/// The AST of `source`, or `None` where the reference path must decide.
pub fn parse(source: &str) -> Option<Ast> {
    let toks = lex(source.as_bytes())?;
    // About one expression per token and one statement per six (the corpus' ratios), so
    // that the arenas rarely grow.
    let ast = Ast {
        exprs: Vec::with_capacity(toks.len()),
        stmts: Vec::with_capacity(toks.len() / 6 + 4),
        items: Vec::new(),
    };
    let mut p = Parser {
        src: source,
        heights: Vec::with_capacity(toks.len()),
        toks,
        i: 0,
        ast,
        nesting: 0,
        loops: 0,
        lists: false,
    };
    p.file()?;
    Some(p.ast)
}

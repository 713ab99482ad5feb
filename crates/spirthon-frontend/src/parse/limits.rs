//! CPython's own limits on a file, which rustpython-parser does not have: a kernel file must
//! stay a file CPython accepts, so what CPython rejects is rejected here, in its words.
//!
//! - More than 200 nested brackets: "too many nested parentheses" (the tokenizer's
//!   `MAXLEVEL`, the same in CPython 3.9 to 3.13).
//! - 100 or more levels of indentation: "too many levels of indentation" (`MAXINDENT`).
//! - More than 20 nested loops or `with` blocks in one function (or at the top level): "too
//!   many statically nested blocks" (`CO_MAXBLOCKS`; CPython 3.13 allows one more, 3.9 to
//!   3.12 do not). `try` blocks count there too, in ways that differ between versions, and
//!   are left out: kernels have none.
//!
//! Each check walks tokens or statements with explicit stacks, so any input is safe.

use rustpython_parser::ast::{self, Ranged};
use rustpython_parser::lexer::lex;
use rustpython_parser::{Mode, Tok};
use spirthon_ir::{Diagnostic, Span};

use super::{inner_bodies, Inner};

/// CPython's tokenizer: brackets nest at most this deep.
pub const MAX_BRACKETS: usize = 200;
/// CPython's tokenizer: indentation levels are fewer than this.
pub const MAX_INDENT: usize = 100;
/// CPython's compiler: loops and `with` blocks nest at most this deep in one function.
pub const MAX_BLOCKS: usize = 20;

/// The first limit `module` (parsed from `source`) goes past, as CPython reports it.
pub(super) fn check(source: &str, module: &[ast::Stmt]) -> Option<Diagnostic> {
    tokens(source).or_else(|| blocks(module))
}

fn tokens(source: &str) -> Option<Diagnostic> {
    let (mut brackets, mut indent) = (0usize, 0usize);
    for tok in lex(source, Mode::Module) {
        let Ok((tok, range)) = tok else { return None };
        let at = Span::new(range.start().into(), range.end().into());
        match tok {
            Tok::Lpar | Tok::Lsqb | Tok::Lbrace => {
                brackets += 1;
                if brackets > MAX_BRACKETS {
                    return Some(
                        Diagnostic::error(at, "too many nested parentheses")
                            .with_label(format!("bracket {brackets} levels deep"))
                            .with_note(format!(
                                "CPython rejects a file with more than {MAX_BRACKETS} nested brackets"
                            )),
                    );
                }
            }
            Tok::Rpar | Tok::Rsqb | Tok::Rbrace => brackets = brackets.saturating_sub(1),
            Tok::Indent => {
                indent += 1;
                if indent >= MAX_INDENT {
                    return Some(
                        Diagnostic::error(at, "too many levels of indentation")
                            .with_note(format!(
                                "CPython rejects a file indented {MAX_INDENT} levels deep"
                            ))
                            .with_help("move the inner part into a @func"),
                    );
                }
            }
            Tok::Dedent => indent = indent.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Loops and `with` blocks nested more than [`MAX_BLOCKS`] deep within one function.
fn blocks(module: &[ast::Stmt]) -> Option<Diagnostic> {
    let mut work: Vec<(&[ast::Stmt], usize)> = vec![(module, 0)];
    while let Some((stmts, depth)) = work.pop() {
        for s in stmts {
            for (body, inner) in inner_bodies(s) {
                let depth = match inner {
                    Inner::Scope => 0,
                    Inner::Block => depth + 1,
                    Inner::Plain => depth,
                };
                if inner == Inner::Block && depth > MAX_BLOCKS {
                    return Some(too_many_blocks(s));
                }
                work.push((body, depth));
            }
        }
    }
    None
}

/// The error at the keyword of the loop or `with` one block too deep.
fn too_many_blocks(s: &ast::Stmt) -> Diagnostic {
    let r = s.range();
    let start = u32::from(r.start());
    let keyword = if matches!(s, ast::Stmt::While(_)) {
        5
    } else {
        4
    };
    let end = start + keyword.min(u32::from(r.end()) - start);
    Diagnostic::error(Span::new(start, end), "too many statically nested blocks")
        .with_note(format!(
            "CPython 3.9 to 3.12 reject more than {MAX_BLOCKS} loops (and `with` blocks) nested in one function"
        ))
        .with_help("move the inner loops into a @func")
}

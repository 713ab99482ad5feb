//! CPython's own limits on a file, which the reference parser does not have: a kernel file
//! must stay a file CPython accepts, so what CPython rejects is rejected here, in its words.
//! And a bound on how deep the parser's tree can be, to size the stack it is walked on.
//!
//! - More than 200 nested brackets: "too many nested parentheses" (the tokenizer's
//!   `MAXLEVEL`, the same in CPython 3.9 to 3.14).
//! - 100 or more levels of indentation: "too many levels of indentation" (`MAXINDENT`).
//! - More than 20 nested loops or `with` blocks in one function (or at the top level): "too
//!   many statically nested blocks" (`CO_MAXBLOCKS`; CPython 3.13 allows one more, 3.9 to
//!   3.12 do not). `try` blocks count there too, in ways that differ between versions, and
//!   are left out: kernels have none.
//! - An expression whose tree may be more than [`MAX_DEPTH`] deep: "too complex to parse".
//!   CPython's parser gives up far sooner (about 6,000 nested unary operators, 3,000
//!   nested `**` or `lambda`, 10,000 terms of one sum in 3.13), so no file it accepts is
//!   refused.
//!
//! The depth bound ([`depth_bound`]) is an upper bound on the depth of the tree the parser
//! builds, read from the tokens alone. Within one bracket, the tree of the part between two
//! commas (or `;`, or line ends) has no more levels than that part has operator and keyword
//! tokens, since every node that is not a leaf comes from one: an operator, a keyword, or a
//! bracket, which opens a part of its own. A `lambda`'s parameters, up to its `:`, are a part
//! of their own too (their commas do not end the `lambda`). Each bracket and each level of
//! indentation adds a few levels of its own (a call, a tuple, a statement and its body).
//!
//! Each check walks tokens or statements with explicit stacks, so any input is safe.

use ruff_python_ast::token::{TokenKind as K, Tokens};
use ruff_python_ast::{self as ast};
use ruff_text_size::Ranged;
use spirthon_ir::{Diagnostic, Span};

use super::{inner_bodies, Inner};

/// CPython's tokenizer: brackets nest at most this deep.
pub const MAX_BRACKETS: usize = 200;
/// CPython's tokenizer: indentation levels are fewer than this.
pub const MAX_INDENT: usize = 100;
/// CPython's compiler: loops and `with` blocks nest at most this deep in one function.
pub const MAX_BLOCKS: usize = 20;
/// The deepest tree [`depth_bound`] lets through: well past what CPython parses.
pub const MAX_DEPTH: usize = 50_000;

/// Levels a bracket, or a level of indentation, may add beside its own tokens.
const LEVELS_PER_BRACKET: usize = 3;
const LEVELS_PER_INDENT: usize = 4;
/// Stack for one level of the tree (converting and dropping it), with room for unoptimised
/// builds, and for everything before it.
const STACK_PER_LEVEL: usize = 2 << 10;
const STACK_BASE: usize = 1 << 20;

/// What the tokens say: the bound on the tree's depth, and the first of CPython's
/// limits they go past, as its diagnostic.
pub(super) struct Depth {
    pub levels: usize,
    pub exceeded: Option<Diagnostic>,
}

/// The stack to convert and drop a tree of `depth` on.
pub(super) fn stack_size(depth: &Depth) -> usize {
    STACK_BASE + depth.levels.min(MAX_DEPTH) * STACK_PER_LEVEL
}

/// The first limit the file goes past, as CPython reports it: one read from its tokens
/// ([`depth_bound`]), or too many nested blocks in `module`.
pub(super) fn check(depth: &Depth, module: &[ast::Stmt]) -> Option<Diagnostic> {
    depth.exceeded.clone().or_else(|| blocks(module))
}

/// One open bracket (or f-string, or `lambda`'s parameters): the operator and keyword
/// tokens since the last comma within it.
struct Part {
    closes_at_colon: bool,
    tokens: usize,
}

/// Refuses, before parsing, a file whose tree could be deeper than [`MAX_DEPTH`] levels,
/// which could not be walked or dropped safely: the first of CPython's limits it goes past,
/// found by lexing alone. A file too small to hold such a tree is not lexed.
pub(super) fn refuse_before_parsing(source: &str) -> Option<Diagnostic> {
    // Each token adds at most 4 levels to the bound, and takes at least a byte.
    if source.len() < MAX_DEPTH / 4 - 8 {
        return None;
    }
    let crosses = |text: &str| {
        let mut lexer = ruff_python_parser::lexer::lex(text, ruff_python_parser::Mode::Module);
        let kinds = std::iter::from_fn(move || {
            let k = lexer.next_token();
            (k != K::EndOfFile).then_some((k, Span::new(0, 0)))
        });
        let depth = bound(kinds);
        depth.levels > MAX_DEPTH || depth.exceeded.is_some()
    };
    if !crosses(source) {
        return None;
    }
    // The shortest prefix that goes past a limit ends at the token that does: its tokens,
    // read with their places, say where.
    let (mut lo, mut hi) = (0, source.len());
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        let mid = (mid..hi)
            .find(|&m| source.is_char_boundary(m))
            .unwrap_or(hi);
        if mid == hi || crosses(&source[..mid]) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let options = ruff_python_parser::ParseOptions::from(ruff_python_parser::Mode::Module);
    let prefix = ruff_python_parser::parse_unchecked(&source[..hi], options);
    let depth = depth_bound(prefix.tokens());
    stacker::grow(stack_size(&depth), move || {
        let d = depth
            .exceeded
            .unwrap_or_else(|| too_complex(Span::new(hi as u32, hi as u32)));
        drop(prefix);
        Some(d)
    })
}

/// The bound on the tree's depth, and the first bracket, indentation or expression limit
/// the tokens go past.
pub(super) fn depth_bound(tokens: &Tokens) -> Depth {
    bound(
        tokens
            .iter()
            .map(|t| (t.kind(), Span::new(t.start().into(), t.end().into()))),
    )
}

/// [`depth_bound`] over tokens and their places. The bound counts every token to the end
/// (but stops past [`MAX_DEPTH`]), so that it holds for the whole tree even after a limit.
fn bound(tokens: impl Iterator<Item = (K, Span)>) -> Depth {
    let mut parts = vec![Part {
        closes_at_colon: false,
        tokens: 0,
    }];
    let (mut brackets, mut indent, mut levels) = (0usize, 0usize, 0usize);
    let mut first: Option<Diagnostic> = None;
    // The levels the parts below the innermost hold, kept beside the stack.
    let mut below = 0usize;
    for (kind, at) in tokens {
        match kind {
            K::Lpar | K::Lsqb | K::Lbrace | K::FStringStart | K::TStringStart | K::Lambda => {
                if !matches!(kind, K::FStringStart | K::TStringStart | K::Lambda) {
                    brackets += 1;
                    if brackets > MAX_BRACKETS && first.is_none() {
                        first = Some(too_many_brackets(at, brackets));
                    }
                }
                let top = parts
                    .last_mut()
                    .expect("the file's own part is never closed");
                top.tokens += 1;
                below += top.tokens + LEVELS_PER_BRACKET;
                parts.push(Part {
                    closes_at_colon: kind == K::Lambda,
                    tokens: 0,
                });
            }
            K::Rpar | K::Rsqb | K::Rbrace | K::FStringEnd | K::TStringEnd | K::Colon
                if parts.len() > 1 =>
            {
                let lambda = parts.last().expect("checked above").closes_at_colon;
                match (kind == K::Colon, lambda) {
                    // A `:` in a bracket (a slice, a dict) is an operator there.
                    (true, false) => parts.last_mut().expect("checked above").tokens += 1,
                    // The end of a `lambda`'s parameters.
                    (true, true) => close(&mut parts, &mut below),
                    // A bracket closing (bad) parameters closes the `lambda` too.
                    (false, _) => {
                        if lambda {
                            close(&mut parts, &mut below);
                        }
                        close(&mut parts, &mut below);
                        if !matches!(kind, K::FStringEnd | K::TStringEnd) {
                            brackets = brackets.saturating_sub(1);
                        }
                    }
                }
            }
            K::Comma | K::Semi | K::Newline => {
                parts.last_mut().expect("never empty").tokens = 0;
            }
            K::Indent => {
                indent += 1;
                if indent >= MAX_INDENT && first.is_none() {
                    first = Some(too_much_indentation(at));
                }
            }
            K::Dedent => indent = indent.saturating_sub(1),
            k if k.is_operator() || k.is_non_soft_keyword() => {
                parts.last_mut().expect("never empty").tokens += 1;
            }
            _ => {}
        }
        let here = below
            + parts.last().map_or(0, |p| p.tokens)
            + LEVELS_PER_BRACKET
            + indent * LEVELS_PER_INDENT;
        levels = levels.max(here);
        if levels > MAX_DEPTH {
            return Depth {
                levels,
                exceeded: first.or_else(|| Some(too_complex(at))),
            };
        }
    }
    Depth {
        levels,
        exceeded: first,
    }
}

/// Closes the innermost part (never the file's own).
fn close(parts: &mut Vec<Part>, below: &mut usize) {
    if parts.len() > 1 {
        parts.pop();
        let top = parts.last().expect("the file's own part is never closed");
        *below -= top.tokens + LEVELS_PER_BRACKET;
    }
}

fn too_many_brackets(at: Span, brackets: usize) -> Diagnostic {
    Diagnostic::error(at, "too many nested parentheses")
        .with_label(format!("bracket {brackets} levels deep"))
        .with_note(format!(
            "CPython rejects a file with more than {MAX_BRACKETS} nested brackets"
        ))
}

fn too_much_indentation(at: Span) -> Diagnostic {
    Diagnostic::error(at, "too many levels of indentation")
        .with_note(format!(
            "CPython rejects a file indented {MAX_INDENT} levels deep"
        ))
        .with_help("move the inner part into a @func")
}

fn too_complex(at: Span) -> Diagnostic {
    Diagnostic::error(at, "too complex to parse: the expression nests too deep")
        .with_note(format!(
            "more than {MAX_DEPTH} levels of operators and brackets; CPython's parser gives up well before that"
        ))
        .with_help("split the expression over several statements")
}

/// Loops and `with` blocks nested more than [`MAX_BLOCKS`] deep within one function.
fn blocks(module: &[ast::Stmt]) -> Option<Diagnostic> {
    let mut work: Vec<(&[ast::Stmt], usize)> = vec![(module, 0)];
    while let Some((stmts, depth)) = work.pop() {
        for s in stmts {
            for (body, inner) in inner_bodies(s) {
                let block = matches!(inner, Inner::Loop | Inner::With);
                let depth = match inner {
                    Inner::Function | Inner::Class => 0,
                    _ if block => depth + 1,
                    _ => depth,
                };
                if block && depth > MAX_BLOCKS {
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

//! Syntax errors from the reference parser, in CPython's words and at CPython's place where
//! they differ from the parser's: an unclosed bracket at the bracket, a bad character at
//! itself, `expected ':'`, and so on. Only the first error of a file is reported, as
//! CPython reports only the first.

use ruff_python_ast::token::{TokenKind as K, Tokens};
use ruff_python_ast::Mod;
use ruff_python_parser::{LexicalErrorType as L, ParseErrorType as P, Parsed};
use ruff_text_size::Ranged;
use spirthon_ir::{Diagnostic, Span};

/// The diagnostic for the first error in `parsed`, if it has one: a syntax error, or syntax
/// that no Python since 3.9 accepts (the parser reads the newest grammar, and says so).
pub(super) fn first_error(parsed: &Parsed<Mod>, source: &str) -> Option<Diagnostic> {
    let first = parsed.errors().iter().map(|e| e.location.start()).min();
    if let Some(at) = tab_error(parsed.tokens(), source) {
        if first.is_none_or(|f| u32::from(f) >= at.start) {
            return Some(
                Diagnostic::error(
                    at,
                    "TabError: inconsistent use of tabs and spaces in indentation",
                )
                .with_help("indent with spaces only (or tabs only)"),
            );
        }
    }
    let Some(e) = parsed.errors().iter().min_by_key(|e| e.location.start()) else {
        return parsed.unsupported_syntax_errors().first().map(|u| {
            Diagnostic::error(
                span_at(source, u.range.start().into()),
                format!("invalid syntax: {}", lowercase_first(&u.to_string())),
            )
        });
    };
    let at = u32::from(e.location.start()).min(source.len() as u32);
    // A parser error (not a bad character) with a bracket still open before it:
    // CPython's words, at the bracket rather than where the parser gave up.
    let lexical = matches!(&e.error, P::Lexical(l) if !matches!(l, L::Eof));
    let (unclosed, unmatched) = brackets(parsed.tokens());
    let open = unclosed.filter(|&(open, _)| open < at || at as usize >= source.trim_end().len());
    if let (false, Some((open, c))) = (lexical, open) {
        return Some(Diagnostic::error(
            Span::new(open, open + 1),
            format!("invalid syntax: '{c}' was never closed"),
        ));
    }
    if let Some((at, c)) = unmatched.filter(|&(u, _)| u <= at) {
        return Some(Diagnostic::error(
            Span::new(at, at + 1),
            format!("invalid syntax: unmatched '{c}'"),
        ));
    }
    let message = syntax_message(&e.error, source, at as usize);
    Some(Diagnostic::error(
        span_at(source, at),
        format!("invalid syntax: {message}"),
    ))
}

/// CPython's TabError: the indentation of the first logical line that compares otherwise
/// with a tab as 8 columns than as 1 with the indentation it continues or returns to (the
/// tokenizer's `indstack` and `altindstack`). A dedent to no outer level is not one: that is
/// the parser's "unindent does not match".
fn tab_error(tokens: &Tokens, source: &str) -> Option<Span> {
    let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
    let mut line_start = true;
    for tok in tokens.iter() {
        match tok.kind() {
            K::Newline => {
                line_start = true;
                continue;
            }
            K::Indent | K::Dedent | K::NonLogicalNewline | K::Comment => continue,
            // The lexer's token for an indentation it could not take.
            K::Unknown if source[tok.range()].trim().is_empty() => continue,
            _ if !line_start => continue,
            _ => line_start = false,
        }
        let start = usize::from(tok.start()).min(source.len());
        let from = source[..start].rfind('\n').map_or(0, |k| k + 1);
        let indent = &source[from..start];
        if indent.contains(|c| !matches!(c, ' ' | '\t' | '\x0c')) {
            continue;
        }
        let (mut col, mut alt) = (0u32, 0u32);
        for c in indent.chars() {
            match c {
                ' ' => (col, alt) = (col + 1, alt + 1),
                '\t' => (col, alt) = ((col / 8 + 1) * 8, alt + 1),
                _ => (col, alt) = (0, 0),
            }
        }
        let &(top, top_alt) = stack.last()?;
        let bad = if col == top {
            alt != top_alt
        } else if col > top {
            stack.push((col, alt));
            alt <= top_alt
        } else {
            while stack.len() > 1 && stack.last().is_some_and(|&(c, _)| col < c) {
                stack.pop();
            }
            stack.last().is_some_and(|&(c, a)| c == col && a != alt)
        };
        if bad {
            return Some(Span::new(from as u32, start as u32));
        }
    }
    None
}

/// One character at `at`; at a line end, the empty span there.
fn span_at(source: &str, at: u32) -> Span {
    let end = match source[at as usize..].chars().next() {
        Some('\n' | '\r') | None => at,
        Some(c) => at + c.len_utf8() as u32,
    };
    Span::new(at, end)
}

/// The brackets of the tokens: the innermost one still open at their end, and the first
/// closing one that closes nothing, each with its offset.
#[allow(clippy::type_complexity)]
fn brackets(tokens: &Tokens) -> (Option<(u32, char)>, Option<(u32, char)>) {
    let mut open: Vec<(u32, char)> = Vec::new();
    let mut unmatched = None;
    for tok in tokens.iter() {
        let at = u32::from(tok.start());
        let c = match tok.kind() {
            K::Lpar => '(',
            K::Lsqb => '[',
            K::Lbrace => '{',
            K::Rpar | K::Rsqb | K::Rbrace => {
                if open.pop().is_none() && unmatched.is_none() {
                    let c = match tok.kind() {
                        K::Rpar => ')',
                        K::Rsqb => ']',
                        _ => '}',
                    };
                    unmatched = Some((at, c));
                }
                continue;
            }
            _ => continue,
        };
        open.push((at, c));
    }
    (open.last().copied(), unmatched)
}

/// The parser's message in the words CPython uses where they differ; `at` is the byte
/// offset of the error.
fn syntax_message(e: &P, source: &str, at: usize) -> String {
    let at = at.min(source.len());
    // The file ends right after a line that opens a block (`def k():` as its last line).
    if at >= source.trim_end().len() && source.trim_end().ends_with(':') {
        return "expected an indented block: the file ends after a line that opens one".into();
    }
    let at_line_end = matches!(source[at..].chars().next(), Some('\n' | '\r') | None);
    match e {
        P::Lexical(L::Eof) => "unexpected end of file (is a bracket left open?)".into(),
        P::ExpectedToken {
            expected: K::Colon, ..
        } => "expected ':'".into(),
        P::ExpectedExpression | P::ExpectedToken { .. } | P::OtherError(_) if at_line_end => {
            let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
            let line = source[line_start..at].trim();
            let first = line
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next();
            let compound = matches!(
                first,
                Some("if" | "elif" | "else" | "while" | "for" | "def" | "class" | "with" | "try")
            );
            if compound && !line.ends_with(':') {
                "expected ':'".into()
            } else {
                "unexpected end of line".into()
            }
        }
        P::Lexical(L::UnrecognizedToken { tok }) if tok.is_control() => {
            format!("invalid non-printable character U+{:04X}", *tok as u32)
        }
        P::Lexical(L::UnrecognizedToken { tok }) => {
            format!("invalid character '{tok}' (U+{:04X})", *tok as u32)
        }
        P::Lexical(L::UnclosedStringError | L::StringError) => "unterminated string literal".into(),
        P::Lexical(L::IndentationError) => {
            "unindent does not match any outer indentation level".into()
        }
        P::UnexpectedIndentation => "unexpected indent".into(),
        P::Lexical(L::LineContinuationError) => {
            "unexpected character after line continuation character".into()
        }
        P::PositionalAfterKeywordArgument => "positional argument follows keyword argument".into(),
        P::NonDefaultParamAfterDefaultParam => {
            "parameter without a default follows parameter with a default".into()
        }
        // `expected '('`, as CPython quotes a token.
        P::ExpectedToken { expected, .. } => {
            format!("expected {}", expected.to_string().replace('`', "'"))
        }
        // Where no statement can start: the word or character there, as CPython shows it.
        P::OtherError(m) if m == "Expected a statement" => unexpected(source, at),
        other => lowercase_first(&other.to_string()),
    }
}

/// `unexpected 'else'`: the word, or else the character, at `at`.
fn unexpected(source: &str, at: usize) -> String {
    let rest = &source[at..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    match (word.is_empty(), rest.chars().next()) {
        (false, _) => format!("unexpected '{word}'"),
        (true, Some(c)) if !c.is_whitespace() => format!("unexpected '{c}'"),
        _ => "expected a statement".into(),
    }
}

/// `Expected an expression` as `expected an expression`, following the words after
/// `invalid syntax:`.
fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

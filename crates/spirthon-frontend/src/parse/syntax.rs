//! Syntax errors from the reference parser, in CPython's words and at CPython's place where
//! they differ from rustpython-parser's: an unclosed bracket at the bracket, a bad character
//! or unmatched bracket at itself, `expected ':'`, and so on.

use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::{ParseError, ParseErrorType};
use spirthon_ir::{Diagnostic, Span};

/// The diagnostic for a file the reference parser rejects.
pub(super) fn syntax_error(e: &ParseError, source: &str) -> Diagnostic {
    let at = u32::from(e.offset).min(source.len() as u32);
    // A parser error (not a bad character) with a bracket still open before it:
    // CPython's words, at the bracket rather than where the parser gave up.
    let lexical = matches!(
        &e.error,
        ParseErrorType::Lexical(l) if !matches!(l, LexicalErrorType::Eof)
    );
    let open =
        unclosed_bracket(source).filter(|&(open, _)| open < at || at as usize >= source.len());
    if let (false, Some((open, c))) = (lexical, open) {
        return Diagnostic::error(
            Span::new(open, open + 1),
            format!("invalid syntax: '{c}' was never closed"),
        );
    }
    let message = syntax_message(&e.error, source, at as usize);
    // The lexer reports a bad character or bracket just after it: point at it.
    let at = match &e.error {
        ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) => {
            back_over(source, at, *tok)
        }
        ParseErrorType::Lexical(LexicalErrorType::NestingError) => {
            match source[..at as usize].chars().next_back() {
                Some(c @ (')' | ']' | '}')) => back_over(source, at, c),
                _ => at,
            }
        }
        _ => at,
    };
    // Point at the offending character; at a line end, at the end of the line.
    let end = match source[at as usize..].chars().next() {
        Some('\n' | '\r') | None => at,
        Some(c) => at + c.len_utf8() as u32,
    };
    Diagnostic::error(Span::new(at, end), format!("invalid syntax: {message}"))
}

/// The innermost bracket still open at the end of `source`, and its offset; strings and
/// comments are skipped (a string left open is the lexer's own error).
fn unclosed_bracket(source: &str) -> Option<(u32, char)> {
    let b = source.as_bytes();
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'\'' | b'"') => {
                let triple = b[i..].starts_with(&[q, q, q]);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple && b[i..].starts_with(&[q, q, q]) {
                        i += 2;
                        break;
                    }
                    if !triple && (b[i] == q || b[i] == b'\n') {
                        break;
                    }
                    i += 1;
                }
            }
            c @ (b'(' | b'[' | b'{') => open.push((i, c)),
            b')' | b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.last().map(|&(at, c)| (at as u32, c as char))
}

/// The parser's message in the words CPython uses where they differ; `at` is the byte
/// offset the parser stopped at.
/// `at` moved back over `c` when the text before it ends with `c`.
fn back_over(source: &str, at: u32, c: char) -> u32 {
    if source[..at as usize].ends_with(c) {
        at - c.len_utf8() as u32
    } else {
        at
    }
}

fn syntax_message(e: &ParseErrorType, source: &str, at: usize) -> String {
    use rustpython_parser::lexer::LexicalErrorType as L;
    use rustpython_parser::Tok;
    let at = at.min(source.len());
    // The file ends right after a line that opens a block (`def k():` as its last line).
    if at >= source.trim_end().len() && source.trim_end().ends_with(':') {
        return "expected an indented block: the file ends after a line that opens one".into();
    }
    match e {
        ParseErrorType::Eof | ParseErrorType::Lexical(L::Eof) => {
            "unexpected end of file (is a bracket left open?)".into()
        }
        ParseErrorType::UnrecognizedToken(Tok::Newline, _) => {
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
        ParseErrorType::UnrecognizedToken(tok, None) if *tok != Tok::Indent => {
            format!("unexpected {tok}")
        }
        ParseErrorType::Lexical(L::UnrecognizedToken { tok }) if tok.is_control() => {
            format!("invalid non-printable character U+{:04X}", *tok as u32)
        }
        ParseErrorType::Lexical(L::UnrecognizedToken { tok }) => {
            format!("invalid character '{tok}' (U+{:04X})", *tok as u32)
        }
        ParseErrorType::Lexical(L::NestingError) => match source[..at].chars().next_back() {
            Some(c @ (')' | ']' | '}')) => format!("unmatched '{c}'"),
            _ => "unmatched bracket".into(),
        },
        ParseErrorType::Lexical(L::StringError) => "unterminated string literal".into(),
        ParseErrorType::InvalidToken => "invalid token".into(),
        other => {
            let text = other.to_string();
            let text = text.trim_start_matches("invalid syntax. Got ");
            match text.trim_start_matches("invalid syntax. ") {
                "EOL while scanning string literal" => "unterminated string literal".into(),
                "Invalid Token" => "invalid token".into(),
                t => t.to_string(),
            }
        }
    }
}

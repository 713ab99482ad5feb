//! Diagnostics as the runners print them: rustc-style text (with a source's control
//! characters shown as pictures, so a file cannot drive the terminal), the failure summary
//! both runners print, the text of an internal error, and JSON lines for editors.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use serde_json::json;
use spirthon_ir::{Diagnostic, LineIndex};

/// Renders diagnostics in rustc's style.
pub fn render_diagnostics(diags: &[Diagnostic], source: &str, path: &str, color: bool) -> String {
    let shown = Printable::of(source);
    let path = printable(path);
    let file = SimpleFile::new(path.as_ref(), shown.text.as_ref());
    let config = term::Config::default();
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for d in diags {
        let d = shown.diagnostic(d);
        let _ = term::emit(&mut buf, &config, &file, &to_codespan(&d, shown.text.len()));
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// What both runners print for a compiler bug (exit status 101).
pub fn internal_error_text(e: &str) -> String {
    format!("error: internal compiler error: {e}\nnote: this is a bug in spirthon; nothing was written\n")
}

/// The errors of a file that did not compile, as `spirthon` prints them: each diagnostic,
/// then a line that counts the errors. Both runners print exactly this.
pub fn render_failure(diags: &[Diagnostic], source: &str, path: &str, color: bool) -> String {
    let mut text = render_diagnostics(diags, source, path, color);
    let n = diags.iter().filter(|d| d.is_error()).count();
    text.push_str(&format!(
        "error: could not compile `{}` due to {n} error{}\n",
        printable(path),
        if n == 1 { "" } else { "s" }
    ));
    text
}

/// A control character as something a terminal shows instead of obeying: its Unicode
/// control picture (`␛` for ESC, as rustc prints it), U+FFFD for the C1 controls; `None`
/// for a character that is printed as it is (line ends and tabs too).
fn control_picture(c: char) -> Option<char> {
    match c {
        '\n' | '\r' | '\t' => None,
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// `text` with its control characters shown as [`control_picture`]s.
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| control_picture(c).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| control_picture(c).unwrap_or(c))
        .collect::<String>()
        .into()
}

/// A source as a diagnostic shows it: its control characters (an ESC that would start a
/// terminal escape sequence, a BEL) as pictures, and spans moved to match (a picture takes
/// more bytes than the character it stands for; columns, in characters, do not change).
struct Printable<'s> {
    text: std::borrow::Cow<'s, str>,
    /// (offset in the source just past a replaced character, bytes added up to there).
    shifts: Vec<(u32, u32)>,
}

impl<'s> Printable<'s> {
    fn of(source: &'s str) -> Printable<'s> {
        let text = printable(source);
        let mut shifts = Vec::new();
        if let std::borrow::Cow::Owned(_) = text {
            let mut added = 0u32;
            for (at, c) in source.char_indices() {
                if let Some(p) = control_picture(c) {
                    added += (p.len_utf8() - c.len_utf8()) as u32;
                    shifts.push(((at + c.len_utf8()) as u32, added));
                }
            }
        }
        Printable { text, shifts }
    }

    fn offset(&self, at: u32) -> u32 {
        let k = self.shifts.partition_point(|&(past, _)| past <= at);
        at + k.checked_sub(1).map_or(0, |k| self.shifts[k].1)
    }

    fn span(&self, s: spirthon_ir::Span) -> spirthon_ir::Span {
        spirthon_ir::Span::new(self.offset(s.start), self.offset(s.end))
    }

    /// `d` over the shown text: spans moved, messages' control characters as pictures.
    fn diagnostic(&self, d: &Diagnostic) -> Diagnostic {
        let mut d = d.clone();
        d.message = printable(&d.message).into_owned();
        d.primary.span = self.span(d.primary.span);
        d.primary.message = printable(&d.primary.message).into_owned();
        for l in &mut d.secondary {
            l.span = self.span(l.span);
            l.message = printable(&l.message).into_owned();
        }
        for n in &mut d.notes {
            *n = printable(n).into_owned();
        }
        d
    }
}

fn clamp(span: spirthon_ir::Span, len: usize) -> std::ops::Range<usize> {
    let s = (span.start as usize).min(len);
    let e = (span.end as usize).clamp(s, len);
    s..e
}

fn to_codespan(d: &Diagnostic, len: usize) -> CsDiagnostic<()> {
    let mut labels =
        vec![CsLabel::primary((), clamp(d.primary.span, len))
            .with_message(d.primary.message.clone())];
    for l in &d.secondary {
        labels.push(CsLabel::secondary((), clamp(l.span, len)).with_message(l.message.clone()));
    }
    let head = if d.is_error() {
        CsDiagnostic::error()
    } else {
        CsDiagnostic::warning()
    };
    head.with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

/// Diagnostics as JSON lines, for editors: one object per diagnostic.
pub fn diagnostics_json(diags: &[Diagnostic], source: &str, path: &str) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    for d in diags {
        let pos = |s: spirthon_ir::Span| {
            let (l, c) = index.line_col(source, s.start);
            let (el, ec) = index.line_col(source, s.end);
            json!({"file": path, "line": l, "column": c, "end_line": el, "end_column": ec, "byte_start": s.start, "byte_end": s.end})
        };
        let secondary: Vec<_> = d
            .secondary
            .iter()
            .map(|l| json!({"span": pos(l.span), "label": l.message}))
            .collect();
        let v = json!({
            "severity": if d.is_error() { "error" } else { "warning" },
            "message": d.message,
            "span": pos(d.primary.span),
            "label": d.primary.message,
            "secondary": secondary,
            "notes": d.notes,
        });
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

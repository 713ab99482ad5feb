//! Diagnostics: a message, a primary labelled span and optional secondary spans and notes.
//! Every stage returns `Vec<Diagnostic>`; only the CLI renders them (rustc's style, through
//! codespan-reporting), so golden tests can render them to a string too.

use crate::span::Span;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
}

/// A span with a short message shown under it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// Lines shown after the snippet, each starting with `note:` or `help:`.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error whose caret label repeats nothing: the message says it all.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }
    /// A warning: reported, but the file still compiles.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.primary.message = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: label.into(),
        });
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("help: {}", help.into()));
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("note: {}", note.into()));
        self
    }
}

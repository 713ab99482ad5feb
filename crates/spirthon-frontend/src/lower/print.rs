//! `print(...)` on the GPU (see `spirthon_ir::prints`): a statement becomes one print site
//! (the text it writes, as literal pieces and formatted values) and one `Op::Print` whose
//! operands are the values, a struct's leaves in field order. Literals, `None` and
//! constants are formatted here, into the site's text; a format spec is checked here, so a
//! spec the GPU cannot print as Python does is a compile error at its field.

use super::*;
use crate::module::{FieldTy, StructId};
use spirthon_ir::prints::{Conversion, PrintPart, PrintSite, PrintValue};
use spirthon_ir::pyformat::{self, Kind, Num, Spec};

/// The pieces and operands of one print, while it is lowered.
#[derive(Default)]
struct Line {
    parts: Vec<PrintPart>,
    operands: Vec<Operand>,
}

impl Line {
    fn text(&mut self, t: &str) {
        if let Some(PrintPart::Text(last)) = self.parts.last_mut() {
            last.push_str(t);
        } else if !t.is_empty() {
            self.parts.push(PrintPart::Text(t.to_string()));
        }
    }
}

impl Lower<'_, '_> {
    /// `print(args..., sep=, end=, flush=)` as a statement.
    pub(super) fn print_stmt(&mut self, args: &[ExprId], keywords: &[Keyword], span: Span) {
        let (mut sep, mut end) = (" ".to_string(), "\n".to_string());
        for k in keywords {
            let value = &self.ast.expr(k.value).kind;
            match (k.name.as_str(), value) {
                ("sep", ExprKind::Str(s)) => sep = s.clone(),
                ("end", ExprKind::Str(s)) => end = s.clone(),
                ("sep" | "end", ExprKind::None | ExprKind::Error) => {}
                ("flush", ExprKind::Bool(_)) => {}
                ("sep" | "end", _) => self.error(
                    k.span,
                    format!("`{}=` takes a string literal (or None) on the GPU", k.name),
                ),
                ("flush", _) => self.error(k.span, "`flush=` takes True or False"),
                ("file", _) => self.cx.diags.push(
                    Diagnostic::error(k.span, "`print(file=...)` is not supported on the GPU")
                        .with_note("the GPU's lines go to the process's stdout after the launch"),
                ),
                (name, _) => self.error(
                    k.span,
                    format!("'{name}' is an invalid keyword argument for print()"),
                ),
            }
        }
        let mut line = Line::default();
        for (k, &a) in args.iter().enumerate() {
            if k > 0 {
                line.text(&sep);
            }
            let arg = self.ast.expr(a);
            match &arg.kind {
                ExprKind::Str(s) => line.text(s),
                ExprKind::FString(parts) => {
                    for p in parts.clone() {
                        match p {
                            FPart::Text(t) => line.text(&t),
                            FPart::Field {
                                value,
                                debug,
                                conversion,
                                spec,
                                span,
                            } => {
                                // `{x=}` writes its text, then `repr(x)` unless a
                                // conversion or a spec says otherwise.
                                let conversion = match (conversion, &debug) {
                                    (None, Some(_)) if spec.is_empty() => Some('r'),
                                    (c, _) => c,
                                };
                                line.text(debug.as_deref().unwrap_or(""));
                                self.print_value(&mut line, value, conversion, &spec, span);
                            }
                        }
                    }
                }
                _ => self.print_value(&mut line, a, None, "", arg.span),
            }
        }
        let site = self.cx.prints.len() as u32;
        self.cx.prints.push(PrintSite {
            span,
            parts: line.parts,
            end,
        });
        self.emit(Op::Print(site), None, line.operands, span);
    }

    /// One formatted value of a print: `format(e, spec)`, or of `conversion(e)`.
    fn print_value(
        &mut self,
        line: &mut Line,
        e: ExprId,
        conversion: Option<char>,
        spec: &str,
        field: Span,
    ) {
        let conversion = match conversion {
            Some('r') => Some(Conversion::Repr),
            Some('a') => Some(Conversion::Ascii),
            Some(_) => Some(Conversion::Str),
            None => None,
        };
        let span = self.ast.expr(e).span;
        if let ExprKind::Str(text) = &self.ast.expr(e).kind {
            // `{"x":>4}`: formatted now; a string's repr is not the GPU's to write.
            match (conversion, Spec::parse(spec, Kind::Str)) {
                (None | Some(Conversion::Str), Ok(s)) => line.text(&pyformat::format_str(text, &s)),
                (None | Some(Conversion::Str), Err(why)) => self.spec_error(field, spec, &why),
                _ => self.error(
                    field,
                    "`!r` and `!a` of a string are not supported in kernels: write the quotes out",
                ),
            }
            return;
        }
        let ex = self.expr(e);
        let (value, operands) = match ex {
            Ex::Err => return,
            Ex::Lit(l) => {
                let n = match l {
                    Lit::Int(i) => Num::Int(i),
                    Lit::Float(f) => Num::F64(f),
                    Lit::Bool(b) => Num::Bool(b),
                };
                if let Some(text) = self.constant_text(n, conversion, spec, field) {
                    line.text(&text);
                }
                return;
            }
            Ex::Void => {
                // A call of a func that returns nothing: Python prints `None`.
                match spec.is_empty() {
                    true => line.text("None"),
                    false => self.error(
                        field,
                        "unsupported format string passed to NoneType.__format__",
                    ),
                }
                return;
            }
            Ex::Val(o, t) => match value_of(t) {
                Some(v) => (v, vec![o]),
                None => {
                    self.error(span, format!("{} cannot be printed from the GPU", t.name()));
                    return;
                }
            },
            Ex::Struct(v) => {
                let (id, leaves) = self.struct_parts(v);
                (self.struct_print_value(id), leaves)
            }
            Ex::Tuple(..) => {
                self.error(
                    span,
                    "a tuple cannot be printed from the GPU: print its items",
                );
                return;
            }
            Ex::Array(_) => {
                self.error(
                    span,
                    "an array cannot be printed from the GPU: print its elements",
                );
                return;
            }
        };
        if let Err(why) = value.check(conversion, spec) {
            self.spec_error(field, spec, &why);
            return;
        }
        line.parts.push(PrintPart::Value {
            value,
            conversion,
            spec: spec.to_string(),
        });
        line.operands.extend(operands);
    }

    /// A constant's text, formatted now (as Python formats the literal).
    fn constant_text(
        &mut self,
        n: Num,
        conversion: Option<Conversion>,
        spec: &str,
        field: Span,
    ) -> Option<String> {
        let kind = if conversion.is_some() {
            Kind::Str
        } else {
            n.kind()
        };
        match Spec::parse(spec, kind) {
            Ok(s) if conversion.is_some() => Some(pyformat::format_str(&n.repr(), &s)),
            Ok(s) => Some(n.format(&s)),
            Err(why) => {
                self.spec_error(field, spec, &why);
                None
            }
        }
    }

    fn spec_error(&mut self, field: Span, spec: &str, why: &str) {
        self.cx.diags.push(
            Diagnostic::error(field, format!("invalid format spec '{spec}': {why}"))
                .with_note("a spec the GPU prints is one Python formats the same way on every version from 3.9 on"),
        );
    }

    /// How a struct's value prints: its fields, nested structs as their own.
    fn struct_print_value(&self, id: StructId) -> PrintValue {
        let st = self.m.strukt(id);
        let fields = st
            .fields
            .iter()
            .map(|f| {
                let v = match f.ty {
                    FieldTy::Struct(inner) => self.struct_print_value(inner),
                    // Every field type prints (the struct's own checks made them so).
                    FieldTy::Value(t) => value_of(t).unwrap_or(PrintValue::Scalar(t.scalar())),
                };
                (f.name.clone(), v)
            })
            .collect();
        PrintValue::Struct {
            name: st.name.clone(),
            fields,
        }
    }
}

/// How a value of `t` prints, if it can.
fn value_of(t: Ty) -> Option<PrintValue> {
    let composite = |scalar, count| PrintValue::Composite {
        name: t.name(),
        scalar,
        count,
    };
    match t {
        Ty::Scalar(s) => Some(PrintValue::Scalar(s)),
        Ty::Vector(s, n @ 2..=4) if s != Scalar::Bool => Some(composite(s, n as u32)),
        Ty::Matrix(s, n) => Some(composite(s, (n as u32) * (n as u32))),
        Ty::Quat => Some(composite(Scalar::F32, 4)),
        Ty::Vector(..) => None,
    }
}

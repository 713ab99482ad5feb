//! Implicit conversions: literals meeting typed values, coercion to a declared type,
//! truthiness, tests, and the type two operands unify to.

use super::*;

impl Lower<'_, '_> {
    /// A literal or value as a typed value.
    pub(super) fn value(&mut self, ex: Ex, span: Span) -> Option<(Operand, Ty)> {
        match ex {
            Ex::Val(o, t) => Some((o, t)),
            Ex::Lit(l) => match l.default_scalar().and_then(|s| l.to_const(s)) {
                Ok(c) => Some((self.konst(c), c.ty())),
                Err(e) => {
                    self.error(span, e);
                    None
                }
            },
            Ex::Array(_) => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        "an array is not a value: index it, or pass it to a func",
                    )
                    .with_help("arrays cannot be copied or assigned to variables"),
                );
                None
            }
            Ex::Void => {
                self.error(span, "this call returns nothing, so it has no value");
                None
            }
            Ex::Struct(v) => {
                let name = self.struct_name(self.struct_parts(v).0).to_string();
                self.cx.diags.push(
                    Diagnostic::error(span, format!("this is a {name}, a struct: it is not a number"))
                        .with_label(format!("a {name}"))
                        .with_help("use one of its fields (`p.field`), or pass it whole to a func that takes it"),
                );
                None
            }
            Ex::Tuple(_, tt) => {
                // A call's returned tuple, or a row of a tuple of tuples.
                let names = ["a", "b", "c", "d", "e", "f"];
                let n = tt.items().len().min(names.len());
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("this is a {}, which is not a value in kernels", tt.name()),
                    )
                    .with_label("a tuple")
                    .with_help(format!(
                        "unpack it into names: `{} = ...`",
                        names[..n].join(", ")
                    )),
                );
                None
            }
            Ex::Err => None,
        }
    }

    /// An `i32` or `u32` argument as the 32 bits of a `u32` (an `i32`'s bits; a literal
    /// from `-2**31` to `2**32 - 1` as its word), or an error saying it was `what` (a seed,
    /// a shuffle's lane).
    pub(super) fn int_bits(&mut self, a: ExprId, what: &str) -> Option<Operand> {
        let sp = self.ast.expr(a).span;
        match self.expr(a) {
            Ex::Val(o, Ty::Scalar(Scalar::U32)) => Some(o),
            Ex::Val(o, Ty::Scalar(Scalar::I32)) => Some(self.val(Op::Bitcast, Ty::U32, [o], sp)),
            Ex::Lit(Lit::Int(i)) if (-(1i128 << 31)..1i128 << 32).contains(&i) => {
                Some(self.konst(Const::U32(i as u32)))
            }
            Ex::Err => None,
            ex => self.coerce(ex, Ty::U32, sp, what),
        }
    }

    /// `ex` converted implicitly to `to`, or an error saying where it was `what`.
    pub(super) fn coerce(&mut self, ex: Ex, to: Ty, span: Span, what: &str) -> Option<Operand> {
        match ex {
            Ex::Val(o, t) if t == to => Some(o),
            Ex::Val(o, t)
                if to.as_scalar().is_some_and(Scalar::is_float)
                    && t.as_scalar().is_some_and(Scalar::is_int) =>
            {
                Some(self.val(Op::Convert, to, [o], span))
            }
            Ex::Val(_, t) => {
                let help = match (t.scalar(), to.scalar()) {
                    (f, s) if f.is_float() && s.is_int() => {
                        "convert explicitly with `int(...)`".to_string()
                    }
                    (a, b) if a.is_int() && b.is_int() => {
                        format!("convert explicitly with `{}(...)`", to.name())
                    }
                    (a, b)
                        if a.is_float()
                            && b.is_float()
                            && t.as_scalar().is_some()
                            && to.as_scalar().is_some() =>
                    {
                        format!("convert explicitly with `{}(...)`", to.name())
                    }
                    // A vector or matrix of the other float type, of the same shape.
                    (a, b)
                        if a.is_float()
                            && b.is_float()
                            && t.with_scalar(b) == to
                            && !matches!(to, Ty::Quat) =>
                    {
                        format!("convert explicitly with `{}(...)`", to.name())
                    }
                    _ => format!("the value must be {to}"),
                };
                self.cx.diags.push(
                    Diagnostic::error(span, format!("expected {to}, found {t}"))
                        .with_label(format!("this {t} is {what}"))
                        .with_help(help),
                );
                None
            }
            Ex::Lit(_) if to.as_scalar().is_none() => {
                self.cx.diags.push(
                    Diagnostic::error(span, format!("expected {to}, found a number"))
                        .with_label(format!("this number is {what}"))
                        .with_help(format!(
                            "write `{}(...)` for a vector with this value in every component",
                            to.name()
                        )),
                );
                None
            }
            Ex::Lit(l) => match l.to_const(to.scalar()) {
                Ok(c) => Some(self.konst(c)),
                Err(e) => {
                    self.cx
                        .diags
                        .push(Diagnostic::error(span, e).with_label(what.to_string()));
                    None
                }
            },
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// Python truthiness as a `bool` operand.
    pub(super) fn truthy(&mut self, ex: Ex, span: Span) -> Option<Operand> {
        match ex {
            Ex::Lit(l) => Some(self.konst(Const::Bool(l.truthy()))),
            Ex::Val(o, Ty::Scalar(Scalar::Bool)) => Some(o),
            Ex::Val(o, Ty::Scalar(s)) => {
                let zero = self.konst(Const::zero(s));
                Some(self.val(Op::Cmp(CmpOp::Ne), Ty::BOOL, [o, zero], span))
            }
            Ex::Val(_, t) => {
                self.error(span, format!("a {t} has no truth value in kernels"));
                None
            }
            other => self.value(other, span).map(|x| x.0),
        }
    }

    pub(super) fn cond(&mut self, e: ExprId) -> Operand {
        let span = self.ast.expr(e).span;
        let ex = self.test_ex(e);
        self.truthy(ex, span)
            .unwrap_or_else(|| self.konst(Const::Bool(false)))
    }

    /// `e` in a test position (the condition of `if`/`elif`/`while`, the test of `x if c else
    /// y`, the operand of `not`, `assert`), where only its truth matters: a bool value or
    /// literal. There `and`/`or` test each operand's truth in turn (short-circuit kept), so
    /// their operands may have different types, as in Python.
    pub(super) fn test_ex(&mut self, e: ExprId) -> Ex {
        let span = self.ast.expr(e).span;
        let ex = match &self.ast.expr(e).kind {
            ExprKind::BoolOp(is_and, values) => return self.bool_op(*is_and, values, span, true),
            ExprKind::IfExp(t, b, o) => return self.test_if_exp(*t, *b, *o, span),
            _ => self.expr(e),
        };
        match ex {
            Ex::Lit(l) => Ex::Lit(Lit::Bool(l.truthy())),
            Ex::Err => Ex::Err,
            other => match self.truthy(other, span) {
                Some(b) => Ex::Val(b, Ty::BOOL),
                None => Ex::Err,
            },
        }
    }

    /// Brings two operands to one type for arithmetic or comparison: literals take the
    /// other operand's type; int and float promote to float; i32 and u32 do not mix.
    pub(super) fn unify(
        &mut self,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        op: &str,
    ) -> Option<(Operand, Operand, Ty)> {
        if let Some((at, t)) = [(a, a_span), (b, b_span)]
            .iter()
            .find_map(|&(x, sp)| match x {
                Ex::Val(_, t @ (Ty::Matrix(..) | Ty::Quat)) => Some((sp, t)),
                _ => None,
            })
        {
            self.cx.diags.push(
                Diagnostic::error(at, format!("`{op}` does not take {}", t.with_article()))
                    .with_help("matrices and quats take their own operators and functions; compare or combine their entries (`m[i, j]`, `q.w`)"),
            );
            return None;
        }
        if a.is_vector() || b.is_vector() {
            return self.unify_vectors(a, b, a_span, b_span, op);
        }
        match (a, b) {
            (Ex::Err, _) | (_, Ex::Err) => None,
            (Ex::Lit(l), Ex::Val(o, t)) => {
                let (o2, t2) = self.lit_meets(l, o, t, b_span);
                Some((self.lit_const(l, t2, a_span)?, o2, t2))
            }
            (Ex::Val(o, t), Ex::Lit(l)) => {
                let (o2, t2) = self.lit_meets(l, o, t, a_span);
                Some((o2, self.lit_const(l, t2, b_span)?, t2))
            }
            (Ex::Val(x, tx), Ex::Val(y, ty)) => {
                if tx == ty {
                    return Some((x, y, tx));
                }
                match (tx.as_scalar(), ty.as_scalar()) {
                    (Some(sx), Some(sy)) if sx.is_int() && sy.is_float() => {
                        Some((self.val(Op::Convert, ty, [x], a_span), y, ty))
                    }
                    (Some(sx), Some(sy)) if sx.is_float() && sy.is_int() => {
                        Some((x, self.val(Op::Convert, tx, [y], b_span), tx))
                    }
                    _ => {
                        let mut d = Diagnostic::error(
                            a_span.to(b_span),
                            format!("`{op}` cannot mix {tx} and {ty}"),
                        )
                        .with_secondary(a_span, format!("this is {tx}"))
                        .with_secondary(b_span, format!("this is {ty}"));
                        let (sx, sy) = (tx.scalar(), ty.scalar());
                        // The side that is not the f64 one, when the other is.
                        let narrow = match (sx, sy) {
                            (Scalar::F64, s) if s != Scalar::F64 && s.is_float() => {
                                Some((b_span, ty))
                            }
                            (s, Scalar::F64) if s != Scalar::F64 && s.is_float() => {
                                Some((a_span, tx))
                            }
                            _ => None,
                        };
                        if let Some((at, t)) = narrow {
                            d = self.f64_mixing_help(d, at, t);
                        } else if (sx.is_int() && sy.is_int()) || (sx.is_float() && sy.is_float()) {
                            d = d.with_help(format!(
                                "convert one side with `{}(...)` or `{}(...)`",
                                tx.name(),
                                ty.name()
                            ));
                        } else if tx == Ty::BOOL || ty == Ty::BOOL {
                            d = d.with_help("convert the bool with `int(...)`");
                        }
                        self.cx.diags.push(d);
                        None
                    }
                }
            }
            (a, b) => {
                let (x, tx) = self.value(a, a_span)?;
                let (y, ty) = self.value(b, b_span)?;
                self.unify(Ex::Val(x, tx), Ex::Val(y, ty), a_span, b_span, op)
            }
        }
    }

    /// The help for an `f32` (or `f16`) side meeting an `f64`: converting that side with
    /// `f64(...)` keeps only its own precision (its digits were lost where it was made), so
    /// the help names where it was made when that is a parameter or a local's first
    /// assignment, and says how to make it `f64` there.
    fn f64_mixing_help(&self, d: Diagnostic, narrow: Span, t: Ty) -> Diagnostic {
        // The name the value comes from: itself, or the array it is an element of.
        let named = |e: ExprId| match &self.ast.expr(e).kind {
            ExprKind::Name(n) => Some(n.clone()),
            _ => None,
        };
        let mut element = false;
        let name = self.ast.exprs.iter().find_map(|e| match &e.kind {
            ExprKind::Name(n) if e.span == narrow => Some(n.clone()),
            ExprKind::Subscript(a, _) if e.span == narrow => {
                element = true;
                named(*a)
            }
            _ => None,
        });
        let param = name
            .as_deref()
            .and_then(|n| self.sig.params.iter().find(|p| p.name == n));
        let local_first = name.as_deref().and_then(|n| match self.locals.get(n) {
            Some(Local::Var(v)) => Some(self.var_spans[v.index()]),
            _ => None,
        });
        let keep = format!(
            "`f64(...)` of the {t} side keeps only {}'s precision; `{t}(...)` of the f64 side computes in {t}",
            t.with_article()
        );
        match (name, param, local_first) {
            (Some(n), Some(p), _) if element => d
                .with_secondary(p.span, format!("`{n}` is an array of {t} here"))
                .with_help(format!(
                    "to compute in f64, make `{n}` an array of f64 (`Array[f64]`, a float64 NumPy array); {keep}"
                )),
            (Some(_), None, _) if element => d.with_help(format!(
                "to compute in f64, make the array f64 where it is made; {keep}"
            )),
            (Some(n), Some(p), _) => d
                .with_secondary(p.span, format!("`{n}` is {} here", t.with_article()))
                .with_help(format!(
                    "to compute in f64, annotate `{n}` as `f64` (a Python float passed for it is then a double); {keep}"
                )),
            (Some(n), None, Some(first)) => d
                .with_secondary(first, format!("`{n}` became {} here", t.with_article()))
                .with_help(format!(
                    "to compute in f64, make `{n}` f64 where it is first assigned (`f64(...)` of a literal or of an f64 value); {keep}"
                )),
            _ => d.with_help(format!(
                "to compute in f64, make the value f64 where it is made (a parameter annotated `f64`, an `Array[f64]`, a literal written `f64(0.1)`); {keep}"
            )),
        }
    }

    /// A literal meeting a typed value: a float literal promotes an int value to f32.
    pub(super) fn lit_meets(&mut self, l: Lit, o: Operand, t: Ty, o_span: Span) -> (Operand, Ty) {
        if matches!(l, Lit::Float(_)) && t.as_scalar().is_some_and(Scalar::is_int) {
            return (self.val(Op::Convert, Ty::F32, [o], o_span), Ty::F32);
        }
        (o, t)
    }

    /// A literal as a constant of scalar type `t`; a vector type is an error (a number is
    /// not a vector: `vec2(1.0)` is).
    pub(super) fn lit_const(&mut self, l: Lit, t: Ty, span: Span) -> Option<Operand> {
        if t.as_scalar().is_none() {
            self.cx.diags.push(
                Diagnostic::error(span, format!("expected {t}, found a number")).with_help(
                    format!(
                        "write `{}(...)` for a vector with this value in every component",
                        t.name()
                    ),
                ),
            );
            return None;
        }
        match l.to_const(t.scalar()) {
            Ok(c) => Some(self.konst(c)),
            Err(e) => {
                self.error(span, e);
                None
            }
        }
    }
}

//! The built-in library: Python's built-ins (`int`, `float`, `abs`, `min`, `max`, `round`,
//! `len`, …), `math`, and spirthon's own names (`global_id`, `u32`, …).

use super::*;

impl Lower<'_, '_> {
    pub(super) fn builtin_call(
        &mut self,
        name: &str,
        args: &[ExprId],
        span: Span,
        name_span: Span,
    ) -> Ex {
        match name {
            "abs" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Lit(Lit::Int(i)) => Ex::Lit(Lit::Int(i.abs())),
                    Ex::Lit(Lit::Float(f)) => Ex::Lit(Lit::Float(f.abs())),
                    Ex::Val(_, t) if t.scalar() == Scalar::U32 => x,
                    Ex::Val(o, t) if t.scalar() != Scalar::Bool => {
                        Ex::Val(self.val(Op::Math(MathFn::Abs), t, vec![o], span), t)
                    }
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`abs` needs a number");
                        Ex::Err
                    }
                }
            }
            "min" | "max" => self.min_max(name, args, span),
            "int" | "float" | "bool" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let to = match name {
                    "int" => Ty::I32,
                    "float" => Ty::F32,
                    _ => Ty::BOOL,
                };
                let (x, sp) = self.args(args)[0];
                self.convert(x, to, sp, span)
            }
            "round" => {
                if args.len() == 2 {
                    self.error(
                        span,
                        "`round(x, ndigits)` is not supported; `round(x)` rounds to an int",
                    );
                    return Ex::Err;
                }
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Lit(Lit::Float(f)) => Ex::Lit(Lit::Int(f.round_ties_even() as i64)),
                    Ex::Lit(l) => Ex::Lit(l),
                    Ex::Val(o, t) if t == Ty::F32 => {
                        let r = self.val(Op::Math(MathFn::RoundEven), Ty::F32, vec![o], span);
                        Ex::Val(self.val(Op::Convert, Ty::I32, vec![r], span), Ty::I32)
                    }
                    Ex::Val(_, t) if t.scalar().is_int() => x,
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`round` needs a number");
                        Ex::Err
                    }
                }
            }
            "len" => {
                if !self.arity(name, args, 1, span) {
                    return Ex::Err;
                }
                let (x, sp) = self.args(args)[0];
                match x {
                    Ex::Array(a) => {
                        Ex::Val(self.val(Op::ArrayLen(a), Ty::I32, vec![], span), Ty::I32)
                    }
                    Ex::Err => Ex::Err,
                    _ => {
                        self.error(sp, "`len` needs an array");
                        Ex::Err
                    }
                }
            }
            "range" => {
                self.error(
                    span,
                    "`range` can only be looped over: `for i in range(...)`",
                );
                Ex::Err
            }
            "print" => {
                self.cx.diags.push(Diagnostic::error(name_span, "`print` does not run on the GPU")
                    .with_help("run the kernel under CPython (`python3 -m spirthon run ...`) to debug it with print()"));
                Ex::Err
            }
            _ => {
                let d = match self.m.globals.get(name) {
                    None if crate::module::SPIRTHON_NAMES.contains(&name) => {
                        Diagnostic::error(name_span, format!("unknown function `{name}`"))
                            .with_help(format!("import it: `from spirthon import {name}`"))
                    }
                    None if crate::module::MATH_NAMES.contains(&name) => {
                        Diagnostic::error(name_span, format!("unknown function `{name}`"))
                            .with_help(format!(
                                "import it: `from math import {name}`, or call `math.{name}`"
                            ))
                    }
                    _ => Diagnostic::error(name_span, format!("unknown function `{name}`")),
                };
                self.cx.diags.push(d);
                Ex::Err
            }
        }
    }

    /// Python's `int()`, `float()`, `bool()`, `i32()`, `u32()`, `f32()`.
    pub(super) fn convert(&mut self, x: Ex, to: Ty, sp: Span, span: Span) -> Ex {
        match x {
            Ex::Lit(l) => match (l, to.scalar()) {
                (_, Scalar::Bool) => Ex::Lit(Lit::Bool(l.truthy())),
                (Lit::Float(f), Scalar::I32 | Scalar::U32) => {
                    if f.is_finite() {
                        self.lit_typed(Lit::Int(f.trunc() as i64), to, sp)
                    } else {
                        self.error(sp, "cannot convert an infinite or NaN float to an integer");
                        Ex::Err
                    }
                }
                (Lit::Bool(b), _) => self.lit_typed(Lit::Int(b as i64), to, sp),
                (Lit::Int(i), Scalar::U32) if i < 0 => {
                    self.lit_typed(Lit::Int(i as u32 as i64), to, sp)
                }
                (Lit::Int(i), Scalar::I32) if i > i32::MAX as i64 => {
                    self.lit_typed(Lit::Int(i as u32 as i32 as i64), to, sp)
                }
                _ => self.lit_typed(l, to, sp),
            },
            Ex::Val(o, t) if t == to => Ex::Val(o, t),
            Ex::Val(o, t) if t.as_scalar().is_some() => {
                if to == Ty::BOOL {
                    return match self.truthy(x, sp) {
                        Some(b) => Ex::Val(b, Ty::BOOL),
                        None => Ex::Err,
                    };
                }
                Ex::Val(self.val(Op::Convert, to, vec![o], span), to)
            }
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, format!("cannot convert this to {to}"));
                Ex::Err
            }
        }
    }

    /// A literal given an explicit type by a conversion (`f32(1)` is a typed f32 value).
    pub(super) fn lit_typed(&mut self, l: Lit, to: Ty, sp: Span) -> Ex {
        match l.to_const(to.scalar()) {
            Ok(c) => Ex::Val(self.konst(c), to),
            Err(e) => {
                self.error(sp, e);
                Ex::Err
            }
        }
    }

    pub(super) fn min_max(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        if args.len() < 2 {
            self.error(
                span,
                format!("`{name}` needs two or more arguments in kernels"),
            );
            return Ex::Err;
        }
        let f = if name == "min" {
            MathFn::Min
        } else {
            MathFn::Max
        };
        let exs = self.args(args);
        let (mut acc, mut acc_span) = exs[0];
        for &(x, sp) in &exs[1..] {
            acc = match (acc, x) {
                (Ex::Lit(a), Ex::Lit(b)) => {
                    let less = lit::compare(CmpOp::Lt, b, a);
                    Ex::Lit(if less == (f == MathFn::Min) { b } else { a })
                }
                _ => {
                    let Some((a, b, t)) = self.unify(acc, x, acc_span, sp, name) else {
                        return Ex::Err;
                    };
                    if t == Ty::BOOL {
                        self.error(span, format!("`{name}` needs numbers"));
                        return Ex::Err;
                    }
                    Ex::Val(self.val(Op::Math(f), t, vec![a, b], span), t)
                }
            };
            acc_span = acc_span.to(sp);
        }
        acc
    }

    pub(super) fn math_call(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        let arity = match name {
            "atan2" | "pow" | "copysign" | "hypot" | "fmod" => 2,
            "log" if args.len() == 2 => 2,
            "pi" | "e" | "tau" | "inf" | "nan" => {
                self.error(span, format!("`math.{name}` is a constant, not a function"));
                return Ex::Err;
            }
            _ => 1,
        };
        if !self.arity(&format!("math.{name}"), args, arity, span) {
            return Ex::Err;
        }
        let exs = self.args(args);
        // Literal arguments fold in f64, as CPython computes them.
        if exs.iter().all(|(x, _)| matches!(x, Ex::Lit(_))) {
            let a = match exs[0].0 {
                Ex::Lit(l) => lit_f64(l),
                _ => 0.0,
            };
            let b = exs.get(1).map_or(0.0, |(x, _)| match x {
                Ex::Lit(l) => lit_f64(*l),
                _ => 0.0,
            });
            if name == "log" && exs.len() == 2 {
                return Ex::Lit(Lit::Float(a.ln() / b.ln()));
            }
            if let Some(l) = fold_math(name, a, b) {
                return Ex::Lit(l);
            }
        }
        let mut ops = Vec::new();
        for &(x, sp) in &exs {
            match self.coerce_float(x, sp, &format!("math.{name}")) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        if name == "log" && ops.len() == 2 {
            let a = self.val(Op::Math(MathFn::Log), Ty::F32, vec![ops[0]], span);
            let b = self.val(Op::Math(MathFn::Log), Ty::F32, vec![ops[1]], span);
            return Ex::Val(
                self.val(Op::Binary(BinOp::Div), Ty::F32, vec![a, b], span),
                Ty::F32,
            );
        }
        if name == "isfinite" {
            let n = self.val(Op::Math(MathFn::IsNan), Ty::BOOL, ops.clone(), span);
            let i = self.val(Op::Math(MathFn::IsInf), Ty::BOOL, ops, span);
            let either = self.val(Op::Binary(BinOp::Or), Ty::BOOL, vec![n, i], span);
            return Ex::Val(
                self.val(Op::Unary(UnOp::Not), Ty::BOOL, vec![either], span),
                Ty::BOOL,
            );
        }
        let Some(f) = math_fn(name) else {
            self.error(span, format!("`math.{name}` is not supported in kernels"));
            return Ex::Err;
        };
        match f {
            MathFn::IsNan | MathFn::IsInf => {
                Ex::Val(self.val(Op::Math(f), Ty::BOOL, ops, span), Ty::BOOL)
            }
            MathFn::Floor | MathFn::Ceil | MathFn::Trunc => {
                // Python's math.floor/ceil/trunc return int.
                let r = self.val(Op::Math(f), Ty::F32, ops, span);
                Ex::Val(self.val(Op::Convert, Ty::I32, vec![r], span), Ty::I32)
            }
            _ => Ex::Val(self.val(Op::Math(f), Ty::F32, ops, span), Ty::F32),
        }
    }

    pub(super) fn spirthon_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        let builtin = match item {
            "global_id" => Some(Builtin::GlobalId),
            "local_id" => Some(Builtin::LocalId),
            "workgroup_id" => Some(Builtin::WorkgroupId),
            "num_workgroups" => Some(Builtin::NumWorkgroups),
            "local_index" => Some(Builtin::LocalIndex),
            _ => None,
        };
        if let Some(b) = builtin {
            if !self.arity(item, args, 0, span) {
                return Ex::Err;
            }
            let ty = if b == Builtin::LocalIndex {
                Ty::I32
            } else {
                Ty::Vector(Scalar::I32, 3)
            };
            return Ex::Val(self.val(Op::Builtin(b), ty, vec![], span), ty);
        }
        let to = match item {
            "i32" => Ty::I32,
            "u32" => Ty::U32,
            "f32" => Ty::F32,
            "kernel" | "func" => {
                self.error(span, format!("`{item}` is a decorator"));
                return Ex::Err;
            }
            "Array" => {
                self.error(
                    span,
                    "`Array` is a type for parameters; kernels cannot create arrays",
                );
                return Ex::Err;
            }
            _ => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("`{item}` is not supported by this version of the compiler"),
                    )
                    .with_note(
                        "vectors, shared arrays, barriers and atomics come in a later version",
                    ),
                );
                return Ex::Err;
            }
        };
        if !self.arity(item, args, 1, span) {
            return Ex::Err;
        }
        let (x, sp) = self.args(args)[0];
        self.convert(x, to, sp, span)
    }
}

pub(super) fn math_fn(name: &str) -> Option<MathFn> {
    use MathFn::*;
    Some(match name {
        "sqrt" => Sqrt,
        "sin" => Sin,
        "cos" => Cos,
        "tan" => Tan,
        "asin" => Asin,
        "acos" => Acos,
        "atan" => Atan,
        "atan2" => Atan2,
        "sinh" => Sinh,
        "cosh" => Cosh,
        "tanh" => Tanh,
        "exp" => Exp,
        "exp2" => Exp2,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "pow" => Pow,
        "fabs" => Abs,
        "floor" => Floor,
        "ceil" => Ceil,
        "trunc" => Trunc,
        "copysign" => Copysign,
        "hypot" => Hypot,
        "fmod" => Fmod,
        "isnan" => IsNan,
        "isinf" => IsInf,
        _ => return None,
    })
}

/// `math.f` on literals, in `f64` as CPython computes it.
pub(super) fn fold_math(name: &str, a: f64, b: f64) -> Option<Lit> {
    Some(match name {
        "sqrt" => Lit::Float(a.sqrt()),
        "sin" => Lit::Float(a.sin()),
        "cos" => Lit::Float(a.cos()),
        "tan" => Lit::Float(a.tan()),
        "asin" => Lit::Float(a.asin()),
        "acos" => Lit::Float(a.acos()),
        "atan" => Lit::Float(a.atan()),
        "atan2" => Lit::Float(a.atan2(b)),
        "sinh" => Lit::Float(a.sinh()),
        "cosh" => Lit::Float(a.cosh()),
        "tanh" => Lit::Float(a.tanh()),
        "exp" => Lit::Float(a.exp()),
        "exp2" => Lit::Float(a.exp2()),
        "log" => Lit::Float(a.ln()),
        "log2" => Lit::Float(a.log2()),
        "log10" => Lit::Float(a.log10()),
        "pow" => Lit::Float(a.powf(b)),
        "fabs" => Lit::Float(a.abs()),
        "floor" => Lit::Int(a.floor() as i64),
        "ceil" => Lit::Int(a.ceil() as i64),
        "trunc" => Lit::Int(a.trunc() as i64),
        "copysign" => Lit::Float(a.copysign(b)),
        "hypot" => Lit::Float(a.hypot(b)),
        "fmod" => Lit::Float(a % b),
        "isnan" => Lit::Bool(a.is_nan()),
        "isinf" => Lit::Bool(a.is_infinite()),
        "isfinite" => Lit::Bool(a.is_finite()),
        _ => return None,
    })
}

pub(super) fn lit_f64(l: Lit) -> f64 {
    match l {
        Lit::Int(i) => i as f64,
        Lit::Float(f) => f,
        Lit::Bool(b) => b as u8 as f64,
    }
}

//! Vectors: constructors, components, swizzles and constant indices, component assignment,
//! element-wise operators with scalar broadcasting, and `==`/`!=` (the vector and shading
//! functions are in `geometry`).
//!
//! Element-wise operations that are one SPIR-V instruction on vectors (`+ - * /`, bitwise
//! operators, shifts, `abs min max` and the GLSL.std.450 functions) stay vector instructions;
//! Python's `//` and `%`, and comparisons, are lowered one component at a time through the
//! scalar rules, so every component follows exactly the scalar semantics. A scalar meeting a
//! vector is converted as it would be for one component and then splatted.

use super::*;

pub(super) const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The component `v[k]` names: a constant one, or an `i32` in `0..n` computed at run time.
#[derive(Copy, Clone, Debug)]
pub(super) enum Slot {
    Const(u32),
    At(Operand),
}

impl Lower<'_, '_> {
    /// A value of `t` with `x` in every component (`x` itself for a scalar `t`).
    pub(super) fn splat(&mut self, x: Operand, t: Ty, span: Span) -> Operand {
        if let Ty::Scalar(_) = t {
            return x;
        }
        let n = t.components() as usize;
        self.val(Op::Construct, t, vec![x; n], span)
    }

    /// Component `i` of vector `o` of type `t`.
    pub(super) fn component(&mut self, o: Operand, t: Ty, i: u32, span: Span) -> Operand {
        self.val(Op::Extract(i), Ty::Scalar(t.scalar()), [o], span)
    }

    /// Every component of `o` of type `t`, in order (a matrix's entries row by row).
    pub(super) fn components(&mut self, o: Operand, t: Ty, span: Span) -> Vec<Operand> {
        (0..t.components())
            .map(|i| self.component(o, t, i, span))
            .collect()
    }

    /// `vec3(x, y, z)`, `vec3(v2, z)`, `vec3(1.0)`, `vec3(iv3)`: the components of the
    /// arguments in order, each converted as it would be assigned to one component; one
    /// scalar is splatted, and one vector of the same size is converted component-wise
    /// (`vec2(iv)`, `ivec2(v)` truncating as `int()` does).
    pub(super) fn vector_ctor(&mut self, t: Ty, args: &[ExprId], span: Span) -> Ex {
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return Ex::Err;
        }
        let (s, n) = (t.scalar(), t.components());
        if let [(Ex::Val(o, vt @ Ty::Vector(_, m)), sp)] = exs[..] {
            if m as u32 == n {
                if vt == t {
                    return Ex::Val(o, t);
                }
                let _ = sp;
                return Ex::Val(self.val(Op::Convert, t, [o], span), t);
            }
        }
        let mut comps = Vec::new();
        for &(x, sp) in &exs {
            match x {
                Ex::Val(o, vt @ Ty::Vector(vs, m)) => {
                    for i in 0..m as u32 {
                        let c = self.component(o, vt, i, sp);
                        let what = format!("a component of {}", t.with_article());
                        match self.coerce(Ex::Val(c, Ty::Scalar(vs)), Ty::Scalar(s), sp, &what) {
                            Some(c) => comps.push(c),
                            None => return Ex::Err,
                        }
                    }
                }
                other => {
                    let what = format!("a component of {}", t.with_article());
                    match self.coerce(other, Ty::Scalar(s), sp, &what) {
                        Some(c) => comps.push(c),
                        None => return Ex::Err,
                    }
                }
            }
        }
        if comps.len() == 1 && n > 1 && matches!(exs[0].0, Ex::Lit(_) | Ex::Val(_, Ty::Scalar(_))) {
            return Ex::Val(self.splat(comps[0], t, span), t);
        }
        if comps.len() as u32 != n {
            self.cx.diags.push(
                Diagnostic::error(
                    span,
                    format!("`{t}` needs {n} components, but these arguments give {}", comps.len()),
                )
                .with_help(format!(
                    "pass {n} numbers, vectors whose sizes add up to {n}, or one number for every component"
                )),
            );
            return Ex::Err;
        }
        Ex::Val(self.val(Op::Construct, t, comps, span), t)
    }

    /// `v.x`, or a read swizzle `v.zyx`.
    pub(super) fn swizzle(&mut self, o: Operand, t: Ty, attr: &str, span: Span) -> Ex {
        let n = t.components();
        let idx: Option<Vec<u32>> = attr
            .chars()
            .map(|c| {
                COMPONENTS
                    .iter()
                    .position(|&k| k == c)
                    .map(|i| i as u32)
                    .filter(|&i| i < n)
            })
            .collect();
        let idx = match idx {
            Some(v) if (1..=4).contains(&v.len()) => v,
            _ => {
                let names: String = COMPONENTS[..n as usize].iter().collect();
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("{} has no component `{attr}`", t.with_article()),
                    )
                    .with_help(format!(
                        "its components are {}; a swizzle joins up to four of them (`v.{}`)",
                        names
                            .chars()
                            .map(|c| format!("`.{c}`"))
                            .collect::<Vec<_>>()
                            .join(" "),
                        names.chars().rev().collect::<String>()
                    )),
                );
                return Ex::Err;
            }
        };
        let s = Ty::Scalar(t.scalar());
        if let [i] = idx[..] {
            return Ex::Val(self.component(o, t, i, span), s);
        }
        let comps = idx
            .iter()
            .map(|&i| self.component(o, t, i, span))
            .collect::<Vec<_>>();
        let rt = Ty::Vector(t.scalar(), idx.len() as u8);
        Ex::Val(self.val(Op::Construct, rt, comps, span), rt)
    }

    /// The component that `v[index]` names for a vector of type `t`: a constant `index`
    /// (negative ones counting from the end, as for a Python tuple; one out of range is an
    /// error), or a run-time `i32`/`u32` one, wrapped the same way when negative and, in
    /// checked mode, tested to lie in `-n..n` (else `IndexError`, reported at `span`).
    pub(super) fn vector_slot(&mut self, t: Ty, index: ExprId, span: Span) -> Option<Slot> {
        let n = t.components() as i64;
        let sp = self.ast.expr(index).span;
        if let Ok(Some(Lit::Int(k))) = self
            .m
            .const_eval(self.ast, index, &|v: &str| self.is_local(v))
        {
            return match lit::sequence_index(k, n as usize) {
                Some(i) => Some(Slot::Const(i as u32)),
                None => {
                    self.error(
                        sp,
                        format!(
                            "index {k} is out of range for {} ({n} components)",
                            t.with_article()
                        ),
                    );
                    None
                }
            };
        }
        let x = self.count_expr(index);
        let (k, kt) = match x {
            Ex::Err => return None,
            Ex::Val(o, kt @ Ty::Scalar(Scalar::I32 | Scalar::U32)) => (o, kt),
            // An `i64`/`u64` as its `i32` value, clamped: a count past that is out of range.
            Ex::Val(o, kt) if kt.as_scalar().is_some_and(Scalar::is_int64) => {
                (self.saturated_i32(o, kt, sp), Ty::I32)
            }
            other => {
                let found = match other {
                    Ex::Val(_, t) => t.name(),
                    Ex::Lit(Lit::Bool(_)) => "bool".to_string(),
                    Ex::Lit(_) => "float".to_string(),
                    _ => "no number".to_string(),
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        sp,
                        format!("a vector is indexed with an integer, not {found}"),
                    )
                    .with_help("index with an `i32` or a `u32`: `v[int(k)]`"),
                );
                return None;
            }
        };
        let len = self.konst(Const::I32(n as i32));
        let at = match kt.scalar() {
            // A `u32` never counts from the end.
            Scalar::U32 => self.val(Op::Convert, Ty::I32, [k], sp),
            _ => {
                let zero = self.konst(Const::I32(0));
                let neg = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [k, zero], sp);
                let up = self.val(Op::Binary(BinOp::Add), Ty::I32, [k, len], sp);
                self.val(Op::Select, Ty::I32, [neg, up, k], sp)
            }
        };
        self.check_vector_index(k, kt, at, t, span);
        Some(Slot::At(at))
    }

    /// `v[k]`: a component, at a constant or run-time index.
    pub(super) fn vector_item(&mut self, o: Operand, t: Ty, index: ExprId, span: Span) -> Ex {
        match self.vector_slot(t, index, span) {
            Some(slot) => Ex::Val(self.slot_read(o, t, slot, span), Ty::Scalar(t.scalar())),
            None => Ex::Err,
        }
    }

    /// Component `slot` of vector `o` of type `t`.
    pub(super) fn slot_read(&mut self, o: Operand, t: Ty, slot: Slot, span: Span) -> Operand {
        match slot {
            Slot::Const(i) => self.component(o, t, i, span),
            Slot::At(k) => self.val(Op::ExtractAt, Ty::Scalar(t.scalar()), [o, k], span),
        }
    }

    /// `v[k] = value` for a local vector `v`; whether `base` is one (else the caller treats
    /// the subscript as an array's).
    pub(super) fn assign_vector_item(
        &mut self,
        base: ExprId,
        index: ExprId,
        ex: Ex,
        target_span: Span,
        value_span: Span,
    ) -> bool {
        let Some(var) = self.vector_var(base) else {
            return false;
        };
        let t = self.var_ty(var);
        if let Some(slot) = self.vector_slot(t, index, target_span) {
            self.insert_component(var, slot, ex, target_span, value_span);
        }
        true
    }

    /// `v[k] op= value` for a local vector `v`: `k` evaluated once, then the component read,
    /// the operator applied and the component written, as CPython does.
    pub(super) fn aug_assign_vector_item(
        &mut self,
        var: Var,
        index: ExprId,
        op: BinaryOp,
        value: ExprId,
        target_span: Span,
        span: Span,
    ) {
        let t = self.var_ty(var);
        let Some(slot) = self.vector_slot(t, index, target_span) else {
            return;
        };
        let v = self.read(var, target_span);
        let cur = Ex::Val(
            self.slot_read(v, t, slot, target_span),
            Ty::Scalar(t.scalar()),
        );
        let rhs = self.expr(value);
        let r = self.binary(op, cur, rhs, target_span, self.ast.expr(value).span, span);
        if !matches!(r, Ex::Err) {
            self.insert_component(var, slot, r, target_span, span);
        }
    }

    /// The local vector variable that `e` names, if it names one.
    pub(super) fn vector_var(&self, e: ExprId) -> Option<Var> {
        match &self.ast.expr(e).kind {
            ExprKind::Name(n) => match self.locals.get(n).copied() {
                Some(Local::Var(v)) if matches!(self.var_ty(v), Ty::Vector(..) | Ty::Quat) => {
                    Some(v)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// A new value of vector variable `var` with component `i` replaced by `ex`. An error
    /// when the variable takes part in a plain copy: under CPython `w = v` makes two names for
    /// one vector object, so the assignment would change both there, and one on the GPU.
    fn insert_component(
        &mut self,
        var: Var,
        slot: Slot,
        ex: Ex,
        target_span: Span,
        value_span: Span,
    ) {
        let t = self.var_ty(var);
        let name = self.f.vars[var].name.clone();
        if self.copies.contains(&name) {
            self.cx.diags.push(
                Diagnostic::error(target_span, format!("assigning a component of `{name}`, which is copied from or to another name, would change both names' vector under CPython"))
                    .with_note("in kernels a vector is a value; under CPython `w = v` gives one vector object two names")
                    .with_help(format!("make the copy a new vector: `{name} = {}(...)` of the other name", t.name())),
            );
            return;
        }
        let what = format!("assigned to a component of {}", t.with_article());
        let Some(c) = self.coerce(ex, Ty::Scalar(t.scalar()), value_span, &what) else {
            return;
        };
        let cur = self.read(var, target_span);
        let new = match slot {
            Slot::Const(i) => self.val(Op::Insert(i), t, [cur, c], target_span),
            Slot::At(k) => self.val(Op::InsertAt, t, [cur, k, c], target_span),
        };
        self.def(var, new);
    }

    /// `v.x = value` (and `v.x += value` through `aug_assign`): a new value of the local
    /// vector `v` with one component replaced.
    pub(super) fn assign_component(
        &mut self,
        base: ExprId,
        attr: &str,
        ex: Ex,
        target_span: Span,
        value_span: Span,
    ) {
        let b = self.ast.expr(base);
        let Some(var) = self.vector_var(base) else {
            let d = match &b.kind {
                ExprKind::Subscript(..) => Diagnostic::error(
                    target_span,
                    "a component of an array element cannot be assigned in place",
                )
                .with_help("copy the element, change it and store it back: `v = a[i]; v.x = ...; a[i] = v`"),
                ExprKind::Name(n) if matches!(self.locals.get(n), Some(Local::Array(_))) => {
                    Diagnostic::error(target_span, format!("`{n}` is an array: it has no attributes to assign"))
                        .with_help("an array has `a[i]`, `a[i] = v` and `len(a)`")
                }
                _ => Diagnostic::error(
                    target_span,
                    "only a component of a local vector variable can be assigned (`v.x = ...`)",
                ),
            };
            self.cx.diags.push(d);
            return;
        };
        let t = self.var_ty(var);
        let i = match attr.chars().collect::<Vec<_>>()[..] {
            [c] => COMPONENTS
                .iter()
                .position(|&k| k == c)
                .filter(|&i| (i as u32) < t.components()),
            _ => None,
        };
        let Some(i) = i else {
            let msg = if attr.len() > 1 && attr.chars().all(|c| COMPONENTS.contains(&c)) {
                format!(
                    "a swizzle cannot be assigned; assign `.{}` and the others one at a time",
                    &attr[..1]
                )
            } else {
                format!("{} has no component `{attr}`", t.with_article())
            };
            self.error(target_span, msg);
            return;
        };
        self.insert_component(var, Slot::Const(i as u32), ex, target_span, value_span);
    }

    /// Brings a vector and a vector or scalar to one vector type: a scalar is converted to
    /// the component type as it would be for one component (an int promotes to a float
    /// vector's `f32`; a float never becomes an int) and splatted.
    pub(super) fn unify_vectors(
        &mut self,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        op: &str,
    ) -> Option<(Operand, Operand, Ty)> {
        let vec_of = |x: &Ex| match x {
            Ex::Val(_, t @ Ty::Vector(..)) => Some(*t),
            _ => None,
        };
        let t = match (vec_of(&a), vec_of(&b)) {
            (Some(x), Some(y)) if x == y => x,
            (Some(x), Some(y)) => {
                let help = if x.components() == y.components() {
                    format!("convert one side, as in `{}(...)`", x.name())
                } else {
                    "both sides need the same number of components".to_string()
                };
                self.cx.diags.push(
                    Diagnostic::error(a_span.to(b_span), format!("`{op}` cannot mix {x} and {y}"))
                        .with_secondary(a_span, format!("this is {x}"))
                        .with_secondary(b_span, format!("this is {y}"))
                        .with_help(help),
                );
                return None;
            }
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return self.unify(a, b, a_span, b_span, op),
        };
        let x = self.broadcast(a, t, a_span, op)?;
        let y = self.broadcast(b, t, b_span, op)?;
        Some((x, y, t))
    }

    /// `x` as a value of vector type `t`: itself, or a scalar converted and splatted (a vector
    /// of another type is an error).
    pub(super) fn broadcast(&mut self, x: Ex, t: Ty, span: Span, op: &str) -> Option<Operand> {
        let s = t.scalar();
        match x {
            Ex::Val(o, xt) if xt == t => Some(o),
            Ex::Val(_, xt @ Ty::Vector(..)) => {
                let help = if xt.components() == t.components() {
                    format!("convert it, as in `{}(...)`", t.name())
                } else {
                    format!("the operands of `{op}` need the same number of components")
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{op}` needs {} here, but this is {}",
                            t.with_article(),
                            xt.with_article()
                        ),
                    )
                    .with_help(help),
                );
                None
            }
            Ex::Val(_, Ty::Scalar(Scalar::F32)) | Ex::Lit(Lit::Float(_)) if s.is_int() => {
                self.cx.diags.push(
                    Diagnostic::error(span, format!("`{op}` cannot mix {t} and a float"))
                        .with_label("this is a float")
                        .with_help(format!(
                            "convert the vector with `{}(...)`, or the number with `int(...)`",
                            t.with_scalar(Scalar::F32).name()
                        )),
                );
                None
            }
            Ex::Val(_, Ty::Scalar(Scalar::Bool)) => {
                self.error(span, format!("`{op}` on a bool and a {t} is not supported"));
                None
            }
            x @ (Ex::Val(_, Ty::Scalar(_)) | Ex::Lit(_)) => {
                let what = format!("an operand of `{op}` with {}", t.with_article());
                let c = self.coerce(x, Ty::Scalar(s), span, &what)?;
                Some(self.splat(c, t, span))
            }
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// A binary operator with a vector operand.
    pub(super) fn vector_binary(
        &mut self,
        op: BinaryOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        let sym = op.symbol();
        if op == BinaryOp::Pow {
            return match b {
                Ex::Lit(Lit::Int(n)) if n >= 0 => {
                    let Some((x, t)) = self.value(a, a_span) else {
                        return Ex::Err;
                    };
                    Ex::Val(self.int_power(x, t, n, span), t)
                }
                _ => {
                    self.error(
                        span,
                        "`**` on a vector needs a literal non-negative integer exponent",
                    );
                    Ex::Err
                }
            };
        }
        let Some((x, y, t)) = self.unify_vectors(a, b, a_span, b_span, sym) else {
            return Ex::Err;
        };
        let s = t.scalar();
        // `**` is handled above.
        let Some(bin) = ir_binop(op) else {
            return Ex::Err;
        };
        let int_only = !matches!(
            bin,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod
        );
        if int_only && !s.is_int() {
            self.error(span, format!("`{sym}` needs integer vectors, not {t}"));
            return Ex::Err;
        }
        match bin {
            BinOp::Div if s.is_int() => {
                let ft = t.with_scalar(Scalar::F32);
                let fx = self.val(Op::Convert, ft, [x], a_span);
                let fy = self.val(Op::Convert, ft, [y], b_span);
                Ex::Val(self.val(Op::Binary(BinOp::Div), ft, [fx, fy], span), ft)
            }
            // Python's `//` and `%` per component, by the scalar rules.
            BinOp::FloorDiv | BinOp::Mod => {
                let mut comps = Vec::new();
                for i in 0..t.components() {
                    let cx = self.component(x, t, i, a_span);
                    let cy = self.component(y, t, i, b_span);
                    let st = Ty::Scalar(s);
                    match self.binary(op, Ex::Val(cx, st), Ex::Val(cy, st), a_span, b_span, span) {
                        Ex::Val(c, _) => comps.push(c),
                        _ => return Ex::Err,
                    }
                }
                Ex::Val(self.val(Op::Construct, t, comps, span), t)
            }
            _ => Ex::Val(self.val(Op::Binary(bin), t, [x, y], span), t),
        }
    }

    /// `-v`, `+v`, `~v` on a vector.
    pub(super) fn vector_unary(&mut self, op: UnaryOp, o: Operand, t: Ty, span: Span) -> Ex {
        let s = t.scalar();
        match op {
            UnaryOp::Pos => Ex::Val(o, t),
            // `-u` wraps modulo 2**32: `0 - u`.
            UnaryOp::Neg if s == Scalar::U32 => {
                let zero = self.konst(Const::U32(0));
                let z = self.splat(zero, t, span);
                Ex::Val(self.val(Op::Binary(BinOp::Sub), t, [z, o], span), t)
            }
            UnaryOp::Neg => Ex::Val(self.val(Op::Unary(UnOp::Neg), t, [o], span), t),
            UnaryOp::Invert if s.is_int() => {
                Ex::Val(self.val(Op::Unary(UnOp::BitNot), t, [o], span), t)
            }
            _ => {
                self.error(span, format!("`~` needs an integer vector, not {t}"));
                Ex::Err
            }
        }
    }

    /// `v == w` (every component equal) and `v != w` (some component differs), as Python
    /// compares sequences; ordering comparisons of vectors are errors.
    pub(super) fn vector_compare(
        &mut self,
        op: CmpOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        if !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            self.cx.diags.push(
                Diagnostic::error(span, "vectors can be compared only with `==` and `!=`")
                    .with_help("compare their components, as in `v.x < w.x`"),
            );
            return Ex::Err;
        }
        let Some((x, y, t)) = self.unify_vectors(a, b, a_span, b_span, op.symbol()) else {
            return Ex::Err;
        };
        let join = if op == CmpOp::Eq {
            BinOp::And
        } else {
            BinOp::Or
        };
        let mut acc: Option<Operand> = None;
        for i in 0..t.components() {
            let cx = self.component(x, t, i, a_span);
            let cy = self.component(y, t, i, b_span);
            let c = self.val(Op::Cmp(op), Ty::BOOL, [cx, cy], span);
            acc = Some(match acc {
                None => c,
                Some(p) => self.val(Op::Binary(join), Ty::BOOL, [p, c], span),
            });
        }
        match acc {
            Some(r) => Ex::Val(r, Ty::BOOL),
            None => Ex::Err,
        }
    }
}

//! Operators with Python's semantics: unary and binary arithmetic, shifts, power,
//! comparisons and chained comparisons, `and`/`or` (values and tests), and conditional
//! expressions.

use super::*;

impl Lower<'_, '_> {
    pub(super) fn unary(&mut self, op: UnaryOp, x: Ex, span: Span) -> Ex {
        match x {
            Ex::Lit(l) => match lit::unary(op, l) {
                Ok(r) => Ex::Lit(r),
                Err(e) => {
                    self.error(span, e);
                    Ex::Err
                }
            },
            Ex::Err => Ex::Err,
            Ex::Val(o, t @ Ty::Vector(..)) if op != UnaryOp::Not => {
                self.vector_unary(op, o, t, span)
            }
            Ex::Val(o, Ty::Matrix(s, n)) if op == UnaryOp::Neg => self.matrix_negate(o, s, n, span),
            Ex::Val(o, Ty::Quat) if op == UnaryOp::Neg => self.quat_negate(o, span),
            Ex::Val(o, t @ (Ty::Matrix(..) | Ty::Quat)) if op == UnaryOp::Pos => Ex::Val(o, t),
            Ex::Val(_, t @ (Ty::Matrix(..) | Ty::Quat)) if op != UnaryOp::Not => {
                self.error(
                    span,
                    format!(
                        "a unary operator other than `-` and `+` does not apply to {}",
                        t.with_article()
                    ),
                );
                Ex::Err
            }
            _ if op == UnaryOp::Not => match self.truthy(x, span) {
                Some(b) => Ex::Val(
                    self.val(Op::Unary(UnOp::Not), Ty::BOOL, [b], span),
                    Ty::BOOL,
                ),
                None => Ex::Err,
            },
            Ex::Val(o, t) => match (op, t.scalar()) {
                (_, Scalar::Bool) => {
                    self.cx.diags.push(
                        Diagnostic::error(
                            span,
                            format!(
                                "`{}` on a bool is not supported",
                                if op == UnaryOp::Invert { "~" } else { "-" }
                            ),
                        )
                        .with_help("use `not`, or convert with `int(...)`"),
                    );
                    Ex::Err
                }
                (UnaryOp::Pos, _) => x,
                (UnaryOp::Neg, _) => Ex::Val(self.val(Op::Unary(UnOp::Neg), t, [o], span), t),
                (UnaryOp::Invert, s) if s.is_int() => {
                    Ex::Val(self.val(Op::Unary(UnOp::BitNot), t, [o], span), t)
                }
                _ => {
                    self.error(span, format!("`~` needs an integer, not {t}"));
                    Ex::Err
                }
            },
            other => {
                let _ = self.value(other, span);
                Ex::Err
            }
        }
    }

    /// Both operands of a matrix or quaternion operator as values; `None` when either is
    /// already reported (or reported now).
    pub(super) fn operands(
        &mut self,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
    ) -> Option<((Operand, Ty), (Operand, Ty))> {
        if matches!(a, Ex::Err) || matches!(b, Ex::Err) {
            return None;
        }
        Some((self.value(a, a_span)?, self.value(b, b_span)?))
    }

    /// The `f32` operation `a op b`.
    pub(super) fn fop(&mut self, op: BinOp, a: Operand, b: Operand, span: Span) -> Operand {
        self.val(Op::Binary(op), Ty::F32, [a, b], span)
    }

    /// A number operand of type `t` as an `f32` (an int converted).
    pub(super) fn as_float(&mut self, o: Operand, t: Ty, span: Span) -> Operand {
        if t == Ty::F32 {
            o
        } else {
            self.val(Op::Convert, Ty::F32, [o], span)
        }
    }

    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        if let (Ex::Lit(x), Ex::Lit(y)) = (a, b) {
            return match lit::binary(op, x, y) {
                Ok(r) => Ex::Lit(r),
                Err(e) => {
                    self.error(span, e);
                    Ex::Err
                }
            };
        }
        if a.is_quat() || b.is_quat() {
            return self.quat_binary(op, a, b, a_span, b_span, span);
        }
        if op == BinaryOp::MatMul || a.is_matrix() || b.is_matrix() {
            return self.matrix_binary(op, a, b, a_span, b_span, span);
        }
        if a.is_vector() || b.is_vector() {
            return self.vector_binary(op, a, b, a_span, b_span, span);
        }
        let sym = op.symbol();
        match op {
            BinaryOp::Pow => self.pow(a, b, a_span, b_span, span),
            BinaryOp::Div => {
                // In an operand's float type (two float types do not mix), else `f32`.
                let float_of = |x: &Ex| match x {
                    Ex::Val(_, t @ Ty::Scalar(s)) if s.is_float() => Some(*t),
                    _ => None,
                };
                let ft = match (float_of(&a), float_of(&b)) {
                    (Some(x), Some(y)) if x != y => {
                        self.unify(a, b, a_span, b_span, sym);
                        return Ex::Err;
                    }
                    (Some(x), _) | (_, Some(x)) => x,
                    (None, None) => Ty::F32,
                };
                let x = self.coerce_float(a, ft, a_span, sym);
                let y = self.coerce_float(b, ft, b_span, sym);
                match (x, y) {
                    (Some(x), Some(y)) => {
                        Ex::Val(self.val(Op::Binary(BinOp::Div), ft, [x, y], span), ft)
                    }
                    _ => Ex::Err,
                }
            }
            BinaryOp::Shl | BinaryOp::Shr => self.shift(op, a, b, a_span, b_span, span),
            _ => {
                let arithmetic =
                    !matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
                let is_bool = |x: &Ex| matches!(x, Ex::Val(_, t) if *t == Ty::BOOL);
                if arithmetic && (is_bool(&a) || is_bool(&b)) {
                    self.cx.diags.push(
                        Diagnostic::error(span, format!("`{sym}` on bools is not supported"))
                            .with_help("convert with `int(...)`"),
                    );
                    return Ex::Err;
                }
                let Some((x, y, t)) = self.unify(a, b, a_span, b_span, sym) else {
                    return Ex::Err;
                };
                // `**`, `/` and the shifts are lowered above.
                let Some(bin) = ir_binop(op) else {
                    return Ex::Err;
                };
                let bitwise = matches!(bin, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
                match t.scalar() {
                    Scalar::Bool if bitwise => {}
                    Scalar::Bool => {
                        self.cx.diags.push(
                            Diagnostic::error(span, format!("`{sym}` on bools is not supported"))
                                .with_help("convert with `int(...)`"),
                        );
                        return Ex::Err;
                    }
                    s if bitwise && s.is_float() => {
                        self.error(span, format!("`{sym}` needs integers, not {}", s.name()));
                        return Ex::Err;
                    }
                    _ => {}
                }
                if let BinOp::FloorDiv | BinOp::Mod = bin {
                    self.check_divisor(y, t, bin == BinOp::Mod, span);
                }
                Ex::Val(self.val(Op::Binary(bin), t, [x, y], span), t)
            }
        }
    }

    /// An operand of a float operation as float type `ft` (an int converted).
    pub(super) fn coerce_float(&mut self, x: Ex, ft: Ty, span: Span, op: &str) -> Option<Operand> {
        match x {
            Ex::Val(_, t) if t == Ty::BOOL => {
                self.error(span, format!("`{op}` on a bool is not supported"));
                None
            }
            other => self.coerce(other, ft, span, &format!("an operand of `{op}`")),
        }
    }

    pub(super) fn shift(
        &mut self,
        op: BinaryOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        let (x, t) = match a {
            Ex::Lit(l) => match b {
                // The count's type decides a literal left operand's.
                Ex::Val(_, tb) => match self.lit_const(l, tb, a_span) {
                    Some(o) => (o, tb),
                    None => return Ex::Err,
                },
                _ => return Ex::Err,
            },
            other => match self.value(other, a_span) {
                Some(v) => v,
                None => return Ex::Err,
            },
        };
        if !t.scalar().is_int() {
            self.error(
                a_span,
                format!("`{}` needs an integer, not {t}", op.symbol()),
            );
            return Ex::Err;
        }
        let y = match b {
            Ex::Lit(l) => match self.lit_const(l, t, b_span) {
                Some(o) => o,
                None => return Ex::Err,
            },
            Ex::Val(o, tb) if tb == t => o,
            // A 64-bit count of a narrower value is first capped at 64 (read as unsigned, so
            // a negative one too): dropping its high bits could make a huge count small.
            Ex::Val(o, tb) if tb.scalar().is_int64() && !t.scalar().is_int64() => {
                let u = Ty::Scalar(Scalar::U64);
                let unsigned = if tb == u {
                    o
                } else {
                    self.val(Op::Convert, u, [o], b_span)
                };
                let cap = self.konst(Const::U64(64));
                let capped = self.val(Op::Math(MathFn::Min), u, [unsigned, cap], b_span);
                self.val(Op::Convert, t, [capped], b_span)
            }
            Ex::Val(o, tb) if tb.scalar().is_int() => self.val(Op::Convert, t, [o], b_span),
            Ex::Val(_, tb) => {
                self.error(
                    b_span,
                    format!("a shift count must be an integer, not {tb}"),
                );
                return Ex::Err;
            }
            _ => return Ex::Err,
        };
        let bin = if op == BinaryOp::Shl {
            BinOp::Shl
        } else {
            BinOp::Shr
        };
        Ex::Val(self.val(Op::Binary(bin), t, [x, y], span), t)
    }

    /// `x ** n`: repeated multiplication for a literal integer `n` (exact), else `pow` on
    /// floats. `int ** int` with a run-time exponent has no static type in Python.
    pub(super) fn pow(&mut self, a: Ex, b: Ex, a_span: Span, b_span: Span, span: Span) -> Ex {
        match b {
            Ex::Lit(Lit::Int(n)) => {
                let Some((x, t)) = self.value(a, a_span) else {
                    return Ex::Err;
                };
                if t == Ty::BOOL {
                    self.error(a_span, "`**` on a bool is not supported");
                    return Ex::Err;
                }
                let (x, t) = if n < 0 {
                    let ft = if t.scalar().is_float() { t } else { Ty::F32 };
                    match self.coerce(
                        Ex::Val(x, t),
                        ft,
                        a_span,
                        "the base of `**` with a negative exponent",
                    ) {
                        Some(x) => (x, ft),
                        None => return Ex::Err,
                    }
                } else {
                    (x, t)
                };
                Ex::Val(self.int_power(x, t, n, span), t)
            }
            _ => {
                let int_exp = matches!(b, Ex::Val(_, t) if t.scalar().is_int());
                let int_base = matches!(a, Ex::Lit(Lit::Int(_)))
                    || matches!(a, Ex::Val(_, t) if t.scalar().is_int());
                if int_exp && int_base {
                    self.cx.diags.push(Diagnostic::error(span, "`int ** int` needs a literal exponent")
                        .with_note("with a run-time exponent, Python's result is an int or a float depending on its sign")
                        .with_help("write `float(x) ** n` for a float result, or multiply in a loop"));
                    return Ex::Err;
                }
                let half = Ty::Scalar(Scalar::F16);
                if a.is(half) || b.is(half) {
                    self.cx.diags.push(
                        Diagnostic::error(span, "`**` on an f16 needs an int literal exponent")
                            .with_note("the f16 `pow` is not in the library yet")
                            .with_help("write `x ** 3` (repeated multiplication), or compute in f32 with `f16(f32(x) ** y)`"),
                    );
                    return Ex::Err;
                }
                // In f64 when a side is one (the module's own `pow`), else in f32.
                let ft = if a.is(Ty::F64) || b.is(Ty::F64) {
                    Ty::F64
                } else {
                    Ty::F32
                };
                let x = self.coerce_float(a, ft, a_span, "**");
                let y = self.coerce_float(b, ft, b_span, "**");
                match (x, y) {
                    (Some(x), Some(y)) => {
                        Ex::Val(self.val(Op::Math(MathFn::Pow), ft, [x, y], span), ft)
                    }
                    _ => Ex::Err,
                }
            }
        }
    }

    /// `x ** n` for a literal int `n` (a float `x` when `n` is negative): square-and-multiply,
    /// then the reciprocal. An `f16`'s (or `f16` vector's) power is the half nearest to the
    /// `f32` one (docs/language.md): the products and the reciprocal in `f32`, rounded to
    /// half once, as NumPy's `float16` power is.
    pub(super) fn int_power(&mut self, x: Operand, t: Ty, n: i128, span: Span) -> Operand {
        let half = t.scalar() == Scalar::F16;
        let (x, wt) = if half {
            let wt = t.with_scalar(Scalar::F32);
            (self.val(Op::Convert, wt, [x], span), wt)
        } else {
            (x, t)
        };
        let k = u64::try_from(n.unsigned_abs()).unwrap_or(u64::MAX);
        let mut p = self.power(x, wt, k, span);
        if n < 0 {
            let one = self.konst(Const::one(wt.scalar()));
            let one = self.splat(one, wt, span);
            p = self.val(Op::Binary(BinOp::Div), wt, [one, p], span);
        }
        if half {
            p = self.val(Op::Convert, t, [p], span);
        }
        p
    }

    /// `x ** n` by square-and-multiply.
    pub(super) fn power(&mut self, x: Operand, t: Ty, mut n: u64, span: Span) -> Operand {
        let one = Const::one(t.scalar());
        let mut result: Option<Operand> = None;
        let mut base = x;
        while n > 0 {
            if n & 1 == 1 {
                result = Some(match result {
                    None => base,
                    Some(r) => self.val(Op::Binary(BinOp::Mul), t, [r, base], span),
                });
            }
            n >>= 1;
            if n > 0 {
                base = self.val(Op::Binary(BinOp::Mul), t, [base, base], span);
            }
        }
        result.unwrap_or_else(|| {
            // `x ** 0` is one, in every component of a vector.
            let c = self.konst(one);
            self.splat(c, t, span)
        })
    }

    pub(super) fn compare(
        &mut self,
        op: CmpOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        if let (Ex::Lit(x), Ex::Lit(y)) = (a, b) {
            return Ex::Lit(Lit::Bool(lit::compare(op, x, y)));
        }
        if a.is_vector() || b.is_vector() {
            return self.vector_compare(op, a, b, a_span, b_span, span);
        }
        let Some((x, y, t)) = self.unify(a, b, a_span, b_span, op.symbol()) else {
            return Ex::Err;
        };
        if t == Ty::BOOL && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
            self.error(span, "bools can be compared only with `==` and `!=`");
            return Ex::Err;
        }
        Ex::Val(self.val(Op::Cmp(op), Ty::BOOL, [x, y], span), Ty::BOOL)
    }

    /// Whether `a == b` is a case's test (the parser's, over the hidden subject of a
    /// `match`) with a literal outside the subject's type (`case -1:` on a `u32`): a case
    /// that never matches, as under CPython, where the subject is never that value.
    fn outside_the_subject(&self, left: ExprId, a: Ex, b: Ex) -> bool {
        let hidden =
            matches!(&self.ast.expr(left).kind, ExprKind::Name(n) if n.starts_with("match@"));
        match (a, b) {
            (Ex::Val(_, Ty::Scalar(s)), Ex::Lit(l @ Lit::Int(_))) if hidden => {
                l.to_const(s).is_err()
            }
            _ => false,
        }
    }

    pub(super) fn compare_chain(
        &mut self,
        left: ExprId,
        rest: &[(CmpOp, ExprId)],
        span: Span,
    ) -> Ex {
        let mut a = self.expr(left);
        let mut a_span = self.ast.expr(left).span;
        let (op0, b0) = rest[0];
        let b = self.expr(b0);
        let b_span = self.ast.expr(b0).span;
        if self.outside_the_subject(left, a, b) {
            return Ex::Lit(Lit::Bool(false));
        }
        let mut result = self.compare(op0, a, b, a_span, b_span, span);
        a = b;
        a_span = b_span;
        if rest.len() == 1 {
            return result;
        }
        let lazy = rest[1..].iter().any(|r| !self.is_pure(r.1));
        if !lazy {
            for &(op, e) in &rest[1..] {
                let b = self.expr(e);
                let b_span = self.ast.expr(e).span;
                let r = self.compare(op, a, b, a_span, b_span, span);
                result = self.and_bools(result, r, span);
                a = b;
                a_span = b_span;
            }
            return result;
        }
        // `a < b < c` is `a < b and b < c`, with `c` evaluated only when `a < b`: each further
        // comparison is a selection nested in the true side of the one before, so that an
        // operand evaluated there (`x[2]` in `a < x[2] < d`) dominates its second use.
        let Some(r0) = self.truthy(result, span) else {
            return Ex::Err;
        };
        let t = self.new_var("", Ty::BOOL, span);
        self.def(t, r0);
        let mut merges = Vec::with_capacity(rest.len() - 1);
        for &(op, e) in &rest[1..] {
            let cur = self.read(t, span);
            let next = self.new_block();
            let merge = self.new_block();
            self.set_merge(Merge::Selection(merge));
            self.terminate(Term::Branch(cur, next, merge));
            self.switch(next);
            let b = self.expr(e);
            let b_span = self.ast.expr(e).span;
            let r = self.compare(op, a, b, a_span, b_span, span);
            if let Some(r) = self.truthy(r, span) {
                self.def(t, r);
            }
            merges.push(merge);
            a = b;
            a_span = b_span;
        }
        for merge in merges.into_iter().rev() {
            self.jump(merge);
            self.switch(merge);
        }
        Ex::Val(self.read(t, span), Ty::BOOL)
    }

    pub(super) fn and_bools(&mut self, a: Ex, b: Ex, span: Span) -> Ex {
        match (a, b) {
            (Ex::Lit(Lit::Bool(false)), _) | (_, Ex::Lit(Lit::Bool(false))) => {
                Ex::Lit(Lit::Bool(false))
            }
            (Ex::Lit(Lit::Bool(true)), x) | (x, Ex::Lit(Lit::Bool(true))) => x,
            (Ex::Val(x, _), Ex::Val(y, _)) => Ex::Val(
                self.val(Op::Binary(BinOp::And), Ty::BOOL, [x, y], span),
                Ty::BOOL,
            ),
            _ => Ex::Err,
        }
    }

    /// `a and b and ...` / `a or b or ...`. With `test`, in a test position: each operand
    /// is taken for its truth ([`Self::test_ex`]) and the result is a bool.
    pub(super) fn bool_op(
        &mut self,
        is_and: bool,
        values: &[ExprId],
        span: Span,
        test: bool,
    ) -> Ex {
        let op_name = if is_and { "and" } else { "or" };
        let operand = |l: &mut Self, e: ExprId| if test { l.test_ex(e) } else { l.expr(e) };
        let mut i = 0;
        let mut cur = operand(self, values[0]);
        let mut cur_span = self.ast.expr(values[0]).span;
        // After an operand that assigns a name (`(r := x) == x and r == 2`), the rest are
        // evaluated only where Python evaluates them, pure or not: they may read it.
        let mut assigned = self.has_walrus(values[0]);
        while i + 1 < values.len() {
            let next = values[i + 1];
            let next_span = self.ast.expr(next).span;
            i += 1;
            // A literal left operand decides at compile time.
            if let Ex::Lit(l) = cur {
                if l.truthy() == is_and {
                    cur = operand(self, next);
                    cur_span = next_span;
                    continue;
                }
                return cur;
            }
            if matches!(cur, Ex::Err) {
                return Ex::Err;
            }
            let Some((a, t)) = self.value(cur, cur_span) else {
                return Ex::Err;
            };
            let eager = !assigned && self.is_pure(next);
            assigned = assigned || self.has_walrus(next);
            if eager {
                let b = operand(self, next);
                let Some(b) = self.same_type(b, t, next_span, op_name, cur_span) else {
                    return Ex::Err;
                };
                let r = if t == Ty::BOOL {
                    let op = if is_and { BinOp::And } else { BinOp::Or };
                    self.val(Op::Binary(op), Ty::BOOL, [a, b], span)
                } else {
                    let Some(c) = self.truthy(Ex::Val(a, t), cur_span) else {
                        return Ex::Err;
                    };
                    let args = if is_and { vec![c, b, a] } else { vec![c, a, b] };
                    self.val(Op::Select, t, args, span)
                };
                cur = Ex::Val(r, t);
            } else {
                let var = self.new_var("", t, span);
                self.def(var, a);
                let Some(c) = self.truthy(Ex::Val(a, t), cur_span) else {
                    return Ex::Err;
                };
                let rhs = self.new_block();
                let merge = self.new_block();
                self.set_merge(Merge::Selection(merge));
                let term = if is_and {
                    Term::Branch(c, rhs, merge)
                } else {
                    Term::Branch(c, merge, rhs)
                };
                self.terminate(term);
                self.switch(rhs);
                let b = operand(self, next);
                if let Some(b) = self.same_type(b, t, next_span, op_name, cur_span) {
                    self.def(var, b);
                }
                self.jump(merge);
                self.switch(merge);
                cur = Ex::Val(self.read(var, span), t);
            }
            cur_span = cur_span.to(next_span);
        }
        cur
    }

    /// `b` as type `t` for the other operand of `and`/`or` or the other side of a
    /// conditional expression: literals adapt; values must already have type `t`.
    pub(super) fn same_type(
        &mut self,
        b: Ex,
        t: Ty,
        span: Span,
        what: &str,
        other_span: Span,
    ) -> Option<Operand> {
        match b {
            Ex::Val(o, tb) if tb == t => Some(o),
            Ex::Val(_, tb) => {
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("the operands of `{what}` must have one type, but this is {tb}"),
                    )
                    .with_secondary(other_span, format!("this is {t}"))
                    .with_help("convert one of them, for example with `float(...)`"),
                );
                None
            }
            Ex::Lit(l) => self.lit_const(l, t, span),
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// `a if c else b` where only its truth matters (a test): each side is a test of its own,
    /// so the sides need not share a type (`assert y if c else True`).
    pub(super) fn test_if_exp(
        &mut self,
        test: ExprId,
        body: ExprId,
        orelse: ExprId,
        span: Span,
    ) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Ok(Some(l)) = self.m.const_eval(self.ast, test, &is_local) {
            return self.test_ex(if l.truthy() { body } else { orelse });
        }
        let c = self.cond(test);
        let then_b = self.new_block();
        let else_b = self.new_block();
        let merge = self.new_block();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(c, then_b, else_b));
        let v = self.new_var("", Ty::BOOL, span);
        let mut ok = true;
        for (e, block) in [(body, then_b), (orelse, else_b)] {
            self.switch(block);
            match self.test_ex(e) {
                Ex::Lit(l) => {
                    let k = self.konst(Const::Bool(l.truthy()));
                    self.def(v, k);
                }
                Ex::Val(o, _) => self.def(v, o),
                _ => ok = false,
            }
            self.jump(merge);
        }
        self.switch(merge);
        if ok {
            Ex::Val(self.read(v, span), Ty::BOOL)
        } else {
            Ex::Err
        }
    }

    pub(super) fn if_exp(&mut self, test: ExprId, body: ExprId, orelse: ExprId, span: Span) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Ok(Some(l)) = self.m.const_eval(self.ast, test, &is_local) {
            return self.expr(if l.truthy() { body } else { orelse });
        }
        let (body_span, else_span) = (self.ast.expr(body).span, self.ast.expr(orelse).span);
        let c = self.cond(test);
        if self.is_pure(body) && self.is_pure(orelse) {
            let a = self.expr(body);
            let b = self.expr(orelse);
            if let Ex::Struct(_) = a {
                return self.struct_select(c, a, b, else_span, span);
            }
            let (a, b, t) = match (a, b) {
                (Ex::Lit(_), Ex::Lit(_)) => {
                    let (x, t) = match self.value(a, body_span) {
                        Some(v) => v,
                        None => return Ex::Err,
                    };
                    match self.same_type(b, t, else_span, "if-else", body_span) {
                        Some(y) => (x, y, t),
                        None => return Ex::Err,
                    }
                }
                (Ex::Lit(l), Ex::Val(y, t)) => match self.lit_const(l, t, body_span) {
                    Some(x) => (x, y, t),
                    None => return Ex::Err,
                },
                _ => {
                    let Some((x, t)) = self.value(a, body_span) else {
                        return Ex::Err;
                    };
                    match self.same_type(b, t, else_span, "if-else", body_span) {
                        Some(y) => (x, y, t),
                        None => return Ex::Err,
                    }
                }
            };
            return Ex::Val(self.val(Op::Select, t, [c, a, b], span), t);
        }
        let then_b = self.new_block();
        let else_b = self.new_block();
        let merge = self.new_block();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(c, then_b, else_b));
        // Lower a literal side last, so that it can take the other side's type.
        let body_is_lit = matches!(
            self.m
                .const_eval(self.ast, body, &|n: &str| self.is_local(n)),
            Ok(Some(_))
        );
        let sides = if body_is_lit {
            [(orelse, else_b, else_span), (body, then_b, body_span)]
        } else {
            [(body, then_b, body_span), (orelse, else_b, else_span)]
        };
        let mut var: Option<(Var, Ty)> = None;
        // A struct on both sides: one hidden variable per leaf.
        let mut leaves: Option<(StructId, Vec<Var>)> = None;
        for (e, block, sp) in sides {
            self.switch(block);
            let x = self.expr(e);
            if (matches!(x, Ex::Struct(_)) && var.is_none()) || leaves.is_some() {
                self.struct_side(x, sp, &mut leaves);
                self.jump(merge);
                continue;
            }
            match var {
                None => {
                    if let Some((o, t)) = self.value(x, sp) {
                        let v = self.new_var("", t, sp);
                        self.def(v, o);
                        var = Some((v, t));
                    }
                }
                Some((v, t)) => {
                    if let Some(o) = self.same_type(x, t, sp, "if-else", sides[0].2) {
                        self.def(v, o);
                    }
                }
            }
            self.jump(merge);
        }
        self.switch(merge);
        if let Some((id, vars)) = leaves {
            let ops = vars.into_iter().map(|v| self.read(v, span)).collect();
            return self.struct_value(id, ops);
        }
        match var {
            Some((v, t)) => Ex::Val(self.read(v, span), t),
            None => Ex::Err,
        }
    }
}

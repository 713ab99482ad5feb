//! Matrices: `mat22 mat33 mat44` (square, `f32`) and `dmat22 dmat33 dmat44` (`f64`),
//! row-major as NumPy and Warp hold them,
//! their constructors, entries and rows (`m[i, j]`, `m[i]`), `@` with matrices and vectors,
//! `*` and `/` by a number, `+ -` of two, and `transpose determinant inverse outer diag
//! identity`.
//!
//! A matrix value is its `n * n` entries in row-major order ([`Ty::Matrix`]). Everything here
//! takes it apart into entries (`Op::Extract`) and builds the result entry by entry
//! (`Op::Construct`) with the scalar float operations, in a fixed order that the reference
//! executor (`spirthon/matrices.py`) repeats operation for operation, so both give the same
//! bits (the float operations are not contracted: see the emitter). Each sum runs left to
//! right over `k`: `(a[i,0]*b[0,j] + a[i,1]*b[1,j]) + a[i,2]*b[2,j]`. A determinant expands
//! along the first row (a 4×4 one over 3×3 minors of the last three rows), and `inverse` is
//! the adjugate's entries each divided by the determinant (a singular matrix gives the
//! IEEE result on the GPU and `ZeroDivisionError` under CPython, as any float division by
//! zero).

use super::vectors::Slot;
use super::*;

/// What an assignment into a matrix stores: a value, or `op` applied to the entry (or row)
/// and the expression (`m[i, j] += x`).
#[derive(Copy, Clone)]
pub(super) enum Assigned {
    Value(Ex),
    Aug(BinaryOp, ExprId),
}

impl Lower<'_, '_> {
    /// The entries of matrix `o` (entries `s`, size `n`), row-major.
    fn entries(&mut self, o: Operand, s: Scalar, n: u8, span: Span) -> Vec<Operand> {
        self.components(o, Ty::Matrix(s, n), span)
    }

    /// The matrix of `s` of size `n` with these entries, row-major.
    fn matrix(&mut self, s: Scalar, n: u8, entries: Vec<Operand>, span: Span) -> Ex {
        let t = Ty::Matrix(s, n);
        Ex::Val(self.val(Op::Construct, t, entries, span), t)
    }

    /// `a op b` on two floats of type `s`.
    fn sop(&mut self, s: Scalar, op: BinOp, a: Operand, b: Operand, span: Span) -> Operand {
        self.val(Op::Binary(op), Ty::Scalar(s), [a, b], span)
    }

    /// `x[0]*y[0] + x[1]*y[1] + …` in `s`, summed left to right.
    fn dot_entries(&mut self, s: Scalar, x: &[Operand], y: &[Operand], span: Span) -> Operand {
        let mut acc = self.sop(s, BinOp::Mul, x[0], y[0], span);
        for k in 1..x.len() {
            let p = self.sop(s, BinOp::Mul, x[k], y[k], span);
            acc = self.sop(s, BinOp::Add, acc, p, span);
        }
        acc
    }

    /// `mat33(r0, r1, r2)` from rows (vectors of `n` floats), `mat33(a, b, …)` from all
    /// `n * n` numbers, or `mat33(m)` copying a matrix of the same size (converting each
    /// entry between `f32` and `f64`).
    pub(super) fn matrix_ctor(&mut self, t: Ty, args: &[ExprId], span: Span) -> Ex {
        self.matrix_entries(t, args, span).unwrap_or(Ex::Err)
    }

    fn matrix_entries(&mut self, t: Ty, args: &[ExprId], span: Span) -> Option<Ex> {
        let Ty::Matrix(s, n) = t else { return None };
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return None;
        }
        if let [(Ex::Val(o, Ty::Matrix(ms, m)), _)] = exs[..] {
            if m == n && ms == s {
                return Some(Ex::Val(o, t));
            }
            if m == n {
                let es = self.entries(o, ms, m, span);
                let out = es
                    .into_iter()
                    .map(|e| self.val(Op::Convert, Ty::Scalar(s), [e], span))
                    .collect();
                return Some(self.matrix(s, n, out, span));
            }
        }
        let row = Ty::Vector(s, n);
        let what = format!("a row of a {t}");
        let mut entries = Vec::new();
        if exs.len() == n as usize && exs.iter().all(|(x, _)| x.is_vector()) {
            for &(x, sp) in &exs {
                let o = self.coerce(x, row, sp, &what)?;
                entries.extend(self.components(o, row, sp));
            }
            return Some(self.matrix(s, n, entries, span));
        }
        if exs.len() == (n as usize) * (n as usize) {
            let what = format!("an entry of a {t}");
            for &(x, sp) in &exs {
                entries.push(self.coerce(x, Ty::Scalar(s), sp, &what)?);
            }
            return Some(self.matrix(s, n, entries, span));
        }
        let row = Ty::Vector(s, n);
        self.cx.diags.push(
            Diagnostic::error(span, format!("`{t}` takes {n} rows or {} numbers, but these are {} arguments", n * n, exs.len()))
                .with_help(format!("`{t}({row}(...), …)` row by row, or every entry in row-major order; `identity({n})` and `diag(v)` make the usual ones")),
        );
        None
    }

    /// `m[i, j]` (an entry) or `m[i]` (a row, as a vector) of a matrix of `s` of size `n`;
    /// each index a constant or a run-time int, negative ones counting from the end as for a
    /// vector.
    pub(super) fn matrix_item(
        &mut self,
        o: Operand,
        s: Scalar,
        n: u8,
        index: ExprId,
        span: Span,
    ) -> Ex {
        let row_t = Ty::Vector(s, n);
        let mt = Ty::Matrix(s, n);
        if let ExprKind::Tuple(items) = &self.ast.expr(index).kind {
            let [i, j] = items[..] else {
                self.error(
                    self.ast.expr(index).span,
                    format!("a {mt} is indexed `m[i, j]` (an entry) or `m[i]` (a row)"),
                );
                return Ex::Err;
            };
            let (Some(si), Some(sj)) =
                (self.matrix_slot(mt, i, span), self.matrix_slot(mt, j, span))
            else {
                return Ex::Err;
            };
            let es = self.entries(o, s, n, span);
            let row = self.matrix_row(&es, s, n, si, span);
            return Ex::Val(self.slot_read(row, row_t, sj, span), Ty::Scalar(s));
        }
        let Some(si) = self.matrix_slot(mt, index, span) else {
            return Ex::Err;
        };
        let es = self.entries(o, s, n, span);
        Ex::Val(self.matrix_row(&es, s, n, si, span), row_t)
    }

    /// The index `e` into matrix type `mt`, checked as a vector's of `n` components (its
    /// rows, or a row's entries) is; a constant one out of range is an error that names the
    /// matrix.
    fn matrix_slot(&mut self, mt: Ty, e: ExprId, span: Span) -> Option<Slot> {
        let Ty::Matrix(_, n) = mt else { return None };
        if let Ok(Some(Lit::Int(k))) = self.m.const_eval(self.ast, e, &|v: &str| self.is_local(v)) {
            if lit::sequence_index(k, n as usize).is_none() {
                let sp = self.ast.expr(e).span;
                self.error(
                    sp,
                    format!("index {k} is out of range for a {mt} ({n} rows of {n} entries)"),
                );
                return None;
            }
        }
        self.vector_slot(Ty::Vector(Scalar::F32, n), e, span)
    }

    /// Row `slot` of the matrix of `s` of size `n` with entries `es`, a vector: at a run-time
    /// index, each entry picked from the rows by `Op::ExtractAt` over the column.
    fn matrix_row(&mut self, es: &[Operand], s: Scalar, n: u8, slot: Slot, span: Span) -> Operand {
        let row_t = Ty::Vector(s, n);
        let n = n as usize;
        let comps: Vec<Operand> = match slot {
            Slot::Const(i) => es[i as usize * n..(i as usize + 1) * n].to_vec(),
            Slot::At(k) => (0..n)
                .map(|c| {
                    let column: Vec<Operand> = (0..n).map(|r| es[r * n + c]).collect();
                    let col = self.val(Op::Construct, row_t, column, span);
                    self.val(Op::ExtractAt, Ty::Scalar(s), [col, k], span)
                })
                .collect(),
        };
        self.val(Op::Construct, row_t, comps, span)
    }

    /// Whether `e` names a local matrix variable.
    pub(super) fn matrix_var(&self, e: ExprId) -> bool {
        match &self.ast.expr(e).kind {
            ExprKind::Name(n) => matches!(
                self.locals.get(n).copied(),
                Some(Local::Var(v)) if matches!(self.var_ty(v), Ty::Matrix(..))
            ),
            _ => false,
        }
    }

    /// `m[i, j] = x` or `m[i] = v` (a row) for a local matrix `m`; whether `base` is one.
    pub(super) fn assign_matrix_item(
        &mut self,
        base: ExprId,
        index: ExprId,
        value: Assigned,
        target_span: Span,
        value_span: Span,
    ) -> bool {
        let ExprKind::Name(name) = &self.ast.expr(base).kind else {
            return false;
        };
        let Some(Local::Var(var)) = self.locals.get(name).copied() else {
            return false;
        };
        let mt @ Ty::Matrix(s, n) = self.var_ty(var) else {
            return false;
        };
        let name = name.clone();
        if self.copies.contains(&name) {
            self.cx.diags.push(
                Diagnostic::error(target_span, format!("assigning into `{name}`, which is copied from or to another name, would change both names' matrix under CPython"))
                    .with_note("in kernels a matrix is a value; under CPython `w = m` gives one matrix object two names")
                    .with_help(format!("make the copy a new matrix: `{name} = {mt}(...)` of the other name")),
            );
            return true;
        }
        let row_t = Ty::Vector(s, n);
        let (rows, entry) = match &self.ast.expr(index).kind {
            ExprKind::Tuple(items) if items.len() == 2 => (items[0], Some(items[1])),
            _ => (index, None),
        };
        let Some(si) = self.matrix_slot(mt, rows, target_span) else {
            return true;
        };
        let sj = match entry {
            Some(j) => match self.matrix_slot(mt, j, target_span) {
                Some(s) => Some(s),
                None => return true,
            },
            None => None,
        };
        let (want, what) = match sj {
            Some(_) => (Ty::Scalar(s), format!("assigned to an entry of a {mt}")),
            None => (row_t, format!("assigned to a row of a {mt}")),
        };
        let cur = self.read(var, target_span);
        let mut es = self.entries(cur, s, n, target_span);
        // The row assigned into: an entry assignment keeps its other entries, and `op=` reads
        // the entry or row first (a whole row's plain assignment leaves it unused, for
        // folding to drop).
        let old_row = self.matrix_row(&es, s, n, si, target_span);
        let ex = match value {
            Assigned::Value(ex) => ex,
            // `m[i, j] op= x`: the indices once, then the entry (or row), then `x`.
            Assigned::Aug(op, x) => {
                let old = match sj {
                    Some(sj) => Ex::Val(
                        self.slot_read(old_row, row_t, sj, target_span),
                        Ty::Scalar(s),
                    ),
                    None => Ex::Val(old_row, row_t),
                };
                let rhs = self.expr(x);
                let xs = self.ast.expr(x).span;
                match self.binary(op, old, rhs, target_span, xs, value_span) {
                    Ex::Err => return true,
                    r => r,
                }
            }
        };
        let Some(v) = self.coerce(ex, want, value_span, &what) else {
            return true;
        };
        let nn = n as usize;
        // The new row: the value, or the old row with one entry replaced.
        let new_row = match sj {
            None => v,
            Some(Slot::Const(c)) => self.val(Op::Insert(c), row_t, [old_row, v], target_span),
            Some(Slot::At(k)) => self.val(Op::InsertAt, row_t, [old_row, k, v], target_span),
        };
        for r in 0..nn {
            let take = match si {
                Slot::Const(i) if i as usize == r => None,
                Slot::Const(_) => continue,
                Slot::At(k) => Some(k),
            };
            for c in 0..nn {
                let fresh = self.val(Op::Extract(c as u32), Ty::Scalar(s), [new_row], target_span);
                es[r * nn + c] = match take {
                    None => fresh,
                    Some(k) => {
                        let rr = self.konst(Const::I32(r as i32));
                        let here = self.val(Op::Cmp(CmpOp::Eq), Ty::BOOL, [k, rr], target_span);
                        self.val(
                            Op::Select,
                            Ty::Scalar(s),
                            [here, fresh, es[r * nn + c]],
                            target_span,
                        )
                    }
                };
            }
        }
        let new = self.val(Op::Construct, mt, es, target_span);
        self.def(var, new);
        true
    }

    /// A binary operator with a matrix operand, or `@`.
    pub(super) fn matrix_binary(
        &mut self,
        op: BinaryOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        // A number meeting an `f64` matrix is taken as an `f64` (a literal exactly; an `f32`
        // is refused, as beside a `dvec`).
        let (Some(a), Some(b)) = (
            self.matrix_number(a, &b, a_span, op),
            self.matrix_number(b, &a, b_span, op),
        ) else {
            return Ex::Err;
        };
        let Some(((x, xt), (y, yt))) = self.operands(a, b, a_span, b_span) else {
            return Ex::Err;
        };
        let sym = op.symbol();
        let number = |t: Ty| t.as_scalar().is_some_and(Scalar::is_numeric);
        match (op, xt, yt) {
            (BinaryOp::MatMul, Ty::Matrix(s, n), Ty::Matrix(s2, m)) if n == m && s == s2 => {
                let (ea, eb) = (self.entries(x, s, n, span), self.entries(y, s, n, span));
                let nn = n as usize;
                let mut out = Vec::with_capacity(nn * nn);
                for i in 0..nn {
                    for j in 0..nn {
                        let row: Vec<Operand> = ea[i * nn..(i + 1) * nn].to_vec();
                        let col: Vec<Operand> = (0..nn).map(|k| eb[k * nn + j]).collect();
                        out.push(self.dot_entries(s, &row, &col, span));
                    }
                }
                self.matrix(s, n, out, span)
            }
            (BinaryOp::MatMul, Ty::Matrix(s, n), Ty::Vector(vs, m)) if n == m && vs == s => {
                let ea = self.entries(x, s, n, span);
                let nn = n as usize;
                let v = self.components(y, yt, span);
                let comps: Vec<Operand> = (0..nn)
                    .map(|i| {
                        let row: Vec<Operand> = ea[i * nn..(i + 1) * nn].to_vec();
                        self.dot_entries(s, &row, &v, span)
                    })
                    .collect();
                Ex::Val(self.val(Op::Construct, yt, comps, span), yt)
            }
            (BinaryOp::MatMul, Ty::Vector(vs, m), Ty::Matrix(s, n)) if n == m && vs == s => {
                let eb = self.entries(y, s, n, span);
                let nn = n as usize;
                let v = self.components(x, xt, span);
                let comps: Vec<Operand> = (0..nn)
                    .map(|j| {
                        let col: Vec<Operand> = (0..nn).map(|k| eb[k * nn + j]).collect();
                        self.dot_entries(s, &v, &col, span)
                    })
                    .collect();
                Ex::Val(self.val(Op::Construct, xt, comps, span), xt)
            }
            (BinaryOp::Add | BinaryOp::Sub, Ty::Matrix(s, n), Ty::Matrix(s2, m))
                if n == m && s == s2 =>
            {
                let (ea, eb) = (self.entries(x, s, n, span), self.entries(y, s, n, span));
                let bop = match op {
                    BinaryOp::Add => BinOp::Add,
                    _ => BinOp::Sub,
                };
                let out = ea
                    .iter()
                    .zip(&eb)
                    .map(|(&p, &q)| self.sop(s, bop, p, q, span))
                    .collect();
                self.matrix(s, n, out, span)
            }
            (BinaryOp::Mul, Ty::Matrix(s, n), k) | (BinaryOp::Mul, k, Ty::Matrix(s, n))
                if number(k) =>
            {
                let (m, f, m_first) = if let Ty::Matrix(..) = xt {
                    (x, y, true)
                } else {
                    (y, x, false)
                };
                let f = self.matrix_factor(f, k, s, span);
                let out = self
                    .entries(m, s, n, span)
                    .into_iter()
                    .map(|e| {
                        if m_first {
                            self.sop(s, BinOp::Mul, e, f, span)
                        } else {
                            self.sop(s, BinOp::Mul, f, e, span)
                        }
                    })
                    .collect();
                self.matrix(s, n, out, span)
            }
            (BinaryOp::Div, Ty::Matrix(s, n), k) if number(k) => {
                let f = self.matrix_factor(y, k, s, span);
                let out = self
                    .entries(x, s, n, span)
                    .into_iter()
                    .map(|e| self.sop(s, BinOp::Div, e, f, span))
                    .collect();
                self.matrix(s, n, out, span)
            }
            _ => {
                let help = match op {
                    _ if matches!((xt, yt), (Ty::Matrix(s, _), Ty::Matrix(s2, _)) | (Ty::Matrix(s, _), Ty::Vector(s2, _)) | (Ty::Vector(s2, _), Ty::Matrix(s, _)) if s != s2) => {
                        "`f32` and `f64` do not mix: convert one side, as in `dmat33(m)` or `mat33(m)`".to_string()
                    }
                    BinaryOp::Mul if matches!((xt, yt), (Ty::Matrix(..), Ty::Matrix(..) | Ty::Vector(..)) | (Ty::Vector(..), Ty::Matrix(..))) => {
                        "the matrix product is `@` (`m @ v`, `a @ b`, `v @ m`); `*` multiplies by a number".to_string()
                    }
                    BinaryOp::MatMul => "`@` multiplies two matrices of one size, a matrix and a vector of its size (`m @ v`), or a vector and a matrix (`v @ m`)".to_string(),
                    _ => format!("matrices take `@`, `+` and `-` with a matrix of their size, and `*` and `/` by a number; `{sym}` is not one of them"),
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{sym}` cannot combine {} and {}",
                            xt.with_article(),
                            yt.with_article()
                        ),
                    )
                    .with_help(help),
                );
                Ex::Err
            }
        }
    }

    /// Operand `x` of `op`, whose other operand is `other`: a number beside an `f64` matrix
    /// coerced to `f64` (`None` after an error), anything else as it is.
    fn matrix_number(&mut self, x: Ex, other: &Ex, sp: Span, op: BinaryOp) -> Option<Ex> {
        let number = match x {
            Ex::Lit(_) => true,
            Ex::Val(_, t) => t.as_scalar().is_some_and(Scalar::is_numeric),
            _ => false,
        };
        match other {
            Ex::Val(_, mt @ Ty::Matrix(Scalar::F64, _)) if number => {
                let what = format!("an operand of `{}` with a {mt}", op.symbol());
                let o = self.coerce(x, Ty::F64, sp, &what)?;
                Some(Ex::Val(o, Ty::F64))
            }
            _ => Some(x),
        }
    }

    /// The number `k` of type `kt` that multiplies or divides a matrix of `s`, as an `s`.
    fn matrix_factor(&mut self, k: Operand, kt: Ty, s: Scalar, span: Span) -> Operand {
        if kt == Ty::Scalar(s) {
            k
        } else {
            self.as_float(k, kt, span)
        }
    }

    /// `-m` (each entry negated) and `+m`.
    pub(super) fn matrix_negate(&mut self, o: Operand, s: Scalar, n: u8, span: Span) -> Ex {
        let out = self
            .entries(o, s, n, span)
            .into_iter()
            .map(|e| self.val(Op::Unary(UnOp::Neg), Ty::Scalar(s), [e], span))
            .collect();
        self.matrix(s, n, out, span)
    }

    /// `transpose determinant inverse outer diag identity`.
    pub(super) fn matrix_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        if item == "identity" {
            return self.identity(args[0], span);
        }
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return Ex::Err;
        }
        let (x, sp) = exs[0];
        let Some((o, t)) = self.value(x, sp) else {
            return Ex::Err;
        };
        match (item, t) {
            ("transpose", Ty::Matrix(s, n)) => {
                let es = self.entries(o, s, n, span);
                let nn = n as usize;
                let out = (0..nn * nn).map(|k| es[(k % nn) * nn + k / nn]).collect();
                self.matrix(s, n, out, span)
            }
            ("determinant", Ty::Matrix(s, n)) => {
                let es = self.entries(o, s, n, span);
                Ex::Val(self.det(s, &es, n as usize, span), Ty::Scalar(s))
            }
            ("inverse", Ty::Matrix(s, n)) => {
                let es = self.entries(o, s, n, span);
                let nn = n as usize;
                let d = self.det(s, &es, nn, span);
                let mut out = Vec::with_capacity(nn * nn);
                for i in 0..nn {
                    for j in 0..nn {
                        // The adjugate's (i, j) entry: the cofactor of (j, i).
                        let c = self.cofactor(s, &es, nn, j, i, span);
                        out.push(self.sop(s, BinOp::Div, c, d, span));
                    }
                }
                self.matrix(s, n, out, span)
            }
            ("diag", Ty::Vector(s @ (Scalar::F32 | Scalar::F64), n)) if n >= 2 => {
                let zero = self.konst(Const::zero(s));
                let nn = n as usize;
                let out = (0..nn * nn)
                    .map(|k| match k % (nn + 1) {
                        0 => self.val(Op::Extract((k / (nn + 1)) as u32), Ty::Scalar(s), [o], span),
                        _ => zero,
                    })
                    .collect();
                self.matrix(s, n, out, span)
            }
            ("outer", Ty::Vector(s @ (Scalar::F32 | Scalar::F64), n)) if n >= 2 => {
                let (y, ysp) = exs[1];
                let Some((p, pt)) = self.value(y, ysp) else {
                    return Ex::Err;
                };
                if pt != t {
                    self.error(
                        ysp,
                        format!(
                            "`outer` takes two vectors of one size, but these are {t} and {pt}"
                        ),
                    );
                    return Ex::Err;
                }
                let nn = n as usize;
                let (u, v) = (self.components(o, t, span), self.components(p, pt, span));
                let mut out = Vec::with_capacity(nn * nn);
                for i in 0..nn {
                    for j in 0..nn {
                        out.push(self.sop(s, BinOp::Mul, u[i], v[j], span));
                    }
                }
                self.matrix(s, n, out, span)
            }
            _ => {
                let want = match item {
                    "diag" | "outer" => "a float vector (`vec2`…`vec4`, `dvec2`…`dvec4`)",
                    _ => "a matrix (`mat22`, `mat33`, `mat44`, or a `dmat` of them)",
                };
                self.error(
                    sp,
                    format!("`{item}` takes {want}, not {}", t.with_article()),
                );
                Ex::Err
            }
        }
    }

    /// `identity(n)`: the `n`×`n` identity, `n` a constant 2, 3 or 4.
    fn identity(&mut self, arg: ExprId, span: Span) -> Ex {
        let n = match self
            .m
            .const_eval(self.ast, arg, &|v: &str| self.is_local(v))
        {
            Ok(Some(Lit::Int(n))) if (2..=4).contains(&n) => n as u8,
            _ => {
                self.error(
                    self.ast.expr(arg).span,
                    "`identity(n)` takes a constant size: 2, 3 or 4",
                );
                return Ex::Err;
            }
        };
        let (zero, one) = (self.konst(Const::f32(0.0)), self.konst(Const::f32(1.0)));
        let nn = n as usize;
        let out = (0..nn * nn)
            .map(|k| if k % (nn + 1) == 0 { one } else { zero })
            .collect();
        self.matrix(Scalar::F32, n, out, span)
    }

    /// The determinant of the `n`×`n` entries `es` (row-major): along the first row,
    /// `e[0,0]·C00 + e[0,1]·C01 + …` left to right, with each cofactor signed.
    fn det(&mut self, s: Scalar, es: &[Operand], n: usize, span: Span) -> Operand {
        if n == 2 {
            let a = self.sop(s, BinOp::Mul, es[0], es[3], span);
            let b = self.sop(s, BinOp::Mul, es[1], es[2], span);
            return self.sop(s, BinOp::Sub, a, b, span);
        }
        let mut sum: Option<Operand> = None;
        for j in 0..n {
            let minor = self.minor_det(s, es, n, 0, j, span);
            let term = self.sop(s, BinOp::Mul, es[j], minor, span);
            sum = Some(match (sum, j % 2) {
                (None, _) => term,
                (Some(acc), 0) => self.sop(s, BinOp::Add, acc, term, span),
                (Some(acc), _) => self.sop(s, BinOp::Sub, acc, term, span),
            });
        }
        sum.unwrap_or(es[0])
    }

    /// The determinant of the minor without row `r` and column `c`.
    fn minor_det(
        &mut self,
        s: Scalar,
        es: &[Operand],
        n: usize,
        r: usize,
        c: usize,
        span: Span,
    ) -> Operand {
        let mut m = Vec::with_capacity((n - 1) * (n - 1));
        for i in (0..n).filter(|&i| i != r) {
            for j in (0..n).filter(|&j| j != c) {
                m.push(es[i * n + j]);
            }
        }
        if n - 1 == 1 {
            return m[0];
        }
        self.det(s, &m, n - 1, span)
    }

    /// The cofactor of entry `(r, c)`: the minor's determinant, negated where `r + c` is odd.
    fn cofactor(
        &mut self,
        s: Scalar,
        es: &[Operand],
        n: usize,
        r: usize,
        c: usize,
        span: Span,
    ) -> Operand {
        let m = self.minor_det(s, es, n, r, c, span);
        if (r + c).is_multiple_of(2) {
            m
        } else {
            self.val(Op::Unary(UnOp::Neg), Ty::Scalar(s), [m], span)
        }
    }
}

//! Checked mode's run-time checks (see `spirthon_ir::checks`): an index within its axis, a
//! nonzero integer divisor, an `assert`'s test, and after each call, whether the callee
//! failed.
//!
//! A check is a selection whose merge block is the code after it: the failing branch records
//! the site with `Op::Fail` and returns (a func returns a zero of its type, which no caller
//! reads: the caller's own check after the call returns too), so the invocation stops at its
//! first failure and an out-of-range store never happens. A check is placed where Python
//! raises: at the access, after the value of a store and the operands of an atomic are
//! evaluated; at the division; at the assert. The axes of one access share one branch (the
//! first failing axis is reported), and the lengths of a function's buffers are read once, at
//! its entry ([`Lower::check_lengths`]), not at every access in a loop. Outside checked mode
//! nothing here emits anything.

use super::*;

/// An array index as lowering computed it: the flat element index, and each axis's own
/// index with its type, for the checks.
#[derive(Clone, Debug)]
pub(super) struct Index {
    pub flat: Operand,
    pub axes: Vec<(Operand, Ty, Span)>,
}

impl Lower<'_, '_> {
    fn site(&mut self, kind: CheckKind, span: Span) -> u32 {
        self.cx.checks.push(CheckSite { kind, span });
        self.cx.checks.len() as u32 - 1
    }

    /// What the failing branch of a check returns: nothing, or a zero of the func's type.
    pub(super) fn zero_return(&mut self, span: Span) -> Term<Operand> {
        match self.f.ret {
            None => Term::Return(None),
            Some(t) => {
                let z = self.konst(Const::zero(t.scalar()));
                Term::Return(Some(self.splat(z, t, span)))
            }
        }
    }

    /// Continues where `ok` holds; elsewhere records `[site, index, len]` and returns.
    fn guard(&mut self, ok: Operand, fail_args: [Operand; 3], span: Span) {
        let ok = self.ok_unless_live(ok, span);
        let fail = self.new_block();
        let rest = self.new_block();
        self.set_merge(Merge::Selection(rest));
        self.terminate(Term::Branch(ok, rest, fail));
        self.switch(fail);
        self.emit(Op::Fail, None, fail_args, span);
        let ret = self.zero_return(span);
        self.terminate(ret);
        self.switch(rest);
    }

    /// In checked mode, at a function's entry: the length of each axis of each of its
    /// buffers (those nothing reads are removed as dead code).
    pub(super) fn check_lengths(&mut self, arrays: &[ArrayId]) {
        if !self.cx.checked {
            return;
        }
        let span = self.sig.span;
        for &a in arrays {
            let g = &self.cx.arrays[a.index()];
            if g.known_len().is_some() {
                continue;
            }
            let dims = g.dims;
            if dims == 1 {
                let n = self.val(Op::ArrayLen(a), Ty::I32, [], span);
                self.lens.insert((a, 0), n);
                continue;
            }
            for k in 0..dims {
                let n = self.val(Op::ArrayShape(a, k), Ty::I32, [], span);
                self.lens.insert((a, k), n);
            }
        }
    }

    /// The length of axis `k` of `a` (`None`: the index `i` is a constant within a known
    /// length, and needs no check).
    fn axis_len(&mut self, a: ArrayId, k: u32, i: Operand, span: Span) -> Option<Operand> {
        let g = &self.cx.arrays[a.index()];
        if let Some(n) = g.known_axis(k) {
            if self.int_const(i).is_some_and(|c| (c as u64) < n as u64) {
                return None;
            }
            return Some(self.konst(Const::I32(n as i32)));
        }
        if let Some(&n) = self.lens.get(&(a, k)) {
            return Some(n);
        }
        let op = if g.dims > 1 {
            Op::ArrayShape(a, k)
        } else {
            Op::ArrayLen(a)
        };
        Some(self.val(op, Ty::I32, [], span))
    }

    /// Checks every axis of an access to `a` at `span` with one branch; the first axis out
    /// of range is the one reported.
    pub(super) fn check_index(&mut self, a: ArrayId, index: &Index, span: Span) {
        if !self.cx.checked {
            return;
        }
        let g = &self.cx.arrays[a.index()];
        // A column of a tuple of tuples (`DIRS#0`) is reported as the tuple, as Python's is.
        let name = g.name.split('#').next().unwrap_or(&g.name).to_string();
        let dims = g.dims;
        // Per checked axis: (in range, site, index, len), in axis order.
        let mut axes = Vec::new();
        for (k, &(i, t, isp)) in index.axes.iter().enumerate() {
            let Some(len) = self.axis_len(a, k as u32, i, isp) else {
                continue;
            };
            // One unsigned comparison: a negative index is a huge `u32`.
            let ui = match t.scalar() {
                Scalar::U32 => i,
                _ => self.val(Op::Convert, Ty::U32, [i], isp),
            };
            let ulen = self.val(Op::Convert, Ty::U32, [len], isp);
            let ok = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [ui, ulen], isp);
            let si = match t.scalar() {
                Scalar::U32 => self.val(Op::Convert, Ty::I32, [i], isp),
                _ => i,
            };
            let axis = (dims > 1).then_some(k as u32);
            let array = name.clone();
            let site = self.site(CheckKind::Index { array, axis }, span);
            let site = self.konst(Const::U32(site));
            axes.push((ok, site, si, len));
        }
        // Fold from the last axis: where an earlier axis fails, its values win.
        let Some(&(mut ok, mut site, mut si, mut len)) = axes.last() else {
            return;
        };
        for &(ok_k, site_k, si_k, len_k) in axes.iter().rev().skip(1) {
            let pick = |l: &mut Self, x: Operand, y: Operand, t: Ty| {
                l.val(Op::Select, t, [ok_k, x, y], span)
            };
            site = pick(self, site, site_k, Ty::U32);
            si = pick(self, si, si_k, Ty::I32);
            len = pick(self, len, len_k, Ty::I32);
            ok = self.val(Op::Binary(BinOp::And), Ty::BOOL, [ok_k, ok], span);
        }
        self.guard(ok, [site, si, len], span);
    }

    /// The value of an integer operand that is a constant.
    pub(super) fn int_const(&self, o: Operand) -> Option<i64> {
        let Operand::Value(v) = o else { return None };
        match self.f.insts[v].op {
            Op::Const(Const::I32(c)) => Some(c as i64),
            Op::Const(Const::U32(c)) => Some(c as i64),
            _ => None,
        }
    }

    /// Checks that a vector's run-time index `k` (of type `kt`), `at` once wrapped, names one
    /// of the components of vector type `t`.
    pub(super) fn check_vector_index(
        &mut self,
        k: Operand,
        kt: Ty,
        at: Operand,
        t: Ty,
        span: Span,
    ) {
        if !self.cx.checked {
            return;
        }
        let n = t.components();
        let un = self.konst(Const::U32(n));
        // One unsigned comparison: a wrapped index still negative is a huge `u32`.
        let u = match kt.scalar() {
            Scalar::U32 => k,
            _ => self.val(Op::Convert, Ty::U32, [at], span),
        };
        let ok = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [u, un], span);
        let site = self.site(CheckKind::VectorIndex { vector: t.name() }, span);
        let site = self.konst(Const::U32(site));
        let si = match kt.scalar() {
            Scalar::U32 => self.val(Op::Convert, Ty::I32, [k], span),
            _ => k,
        };
        let len = self.konst(Const::I32(n as i32));
        self.guard(ok, [site, si, len], span);
    }

    /// Checks that the divisor `y` (an `i32` or `u32`) of `//` or `%` at `span` is not zero.
    pub(super) fn check_divisor(&mut self, y: Operand, t: Ty, modulo: bool, span: Span) {
        if !self.cx.checked || !t.scalar().is_int() {
            return;
        }
        if self.int_const(y).is_some_and(|c| c != 0) {
            return;
        }
        let zero = self.konst(Const::zero(t.scalar()));
        let ok = self.val(Op::Cmp(CmpOp::Ne), Ty::BOOL, [y, zero], span);
        let site = self.site(CheckKind::ZeroDivision { modulo }, span);
        let site = self.konst(Const::U32(site));
        let z = self.konst(Const::I32(0));
        self.guard(ok, [site, z, z], span);
    }

    /// `assert test` / `assert test, "message"`: the test must hold.
    pub(super) fn check_assert(&mut self, test: ExprId, message: Option<String>) {
        let span = self.ast.expr(test).span;
        let ok = self.cond(test);
        let site = self.site(CheckKind::Assert { message }, span);
        let site = self.konst(Const::U32(site));
        let z = self.konst(Const::I32(0));
        self.guard(ok, [site, z, z], span);
    }

    /// After a call: returns at once when the callee failed.
    pub(super) fn check_call(&mut self, span: Span) {
        if !self.cx.checked {
            return;
        }
        let failed = self.val(Op::Failed, Ty::BOOL, [], span);
        let ret = self.new_block();
        let rest = self.new_block();
        self.set_merge(Merge::Selection(rest));
        self.terminate(Term::Branch(failed, ret, rest));
        self.switch(ret);
        let r = self.zero_return(span);
        self.terminate(r);
        self.switch(rest);
    }
}

//! Funcs that return tuples: `return a, b` packs the items into the func's carrier vector
//! ([`TupleTy::carrier`]: their components, as `u32` bits when their types differ), and
//! `a, b = f(x)` unpacks them at the call. A row of a module's tuple of tuples
//! (`dx, dy = DIRS[k]`) is such a tuple too, packed from its columns' tables. A tuple is
//! never a value of its own: it exists between a call (or a row) and its unpacking.

use super::*;

impl Lower<'_, '_> {
    /// The carrier of `return v` in a func returning `tt`: `v` is a tuple display of as many
    /// items, or a call of a func returning the same tuple type.
    pub(super) fn pack_tuple(&mut self, v: ExprId, tt: TupleTy) -> Option<Operand> {
        let vspan = self.ast.expr(v).span;
        let items = match &self.ast.expr(v).kind {
            ExprKind::Tuple(items) if items.len() == tt.items().len() => items.clone(),
            ExprKind::Tuple(items) => {
                let msg = format!(
                    "`{}` returns {} values ({}), but this tuple has {}",
                    self.sig.name,
                    tt.items().len(),
                    tt.name(),
                    items.len()
                );
                self.error(vspan, msg);
                return None;
            }
            _ => {
                return match self.expr(v) {
                    Ex::Tuple(o, t) if t == tt => Some(o),
                    Ex::Err => None,
                    _ => {
                        let msg = format!(
                            "`{}` returns a {}: return as many values, as in `return a, b`",
                            self.sig.name,
                            tt.name()
                        );
                        self.error(vspan, msg);
                        None
                    }
                };
            }
        };
        let mut values = Vec::new();
        for (&item, &t) in items.iter().zip(tt.items()) {
            let ex = self.expr(item);
            let sp = self.ast.expr(item).span;
            let what = format!("returned as an item of {}", tt.name());
            values.push(self.coerce(ex, t, sp, &what)?);
        }
        Some(self.pack_items(tt, &values, vspan))
    }

    /// The carrier of a `tt` whose items are `values`.
    pub(super) fn pack_items(&mut self, tt: TupleTy, values: &[Operand], span: Span) -> Operand {
        let mut comps = Vec::new();
        for (&o, &t) in values.iter().zip(tt.items()) {
            for k in 0..t.components() {
                let c = match t {
                    Ty::Scalar(_) => o,
                    _ => self.val(Op::Extract(k), Ty::Scalar(t.scalar()), [o], span),
                };
                comps.push(self.carried(tt, t.scalar(), c, span));
            }
        }
        match tt.carrier() {
            c @ (Ty::Vector(..) | Ty::Matrix(..) | Ty::Quat) => {
                self.val(Op::Construct, c, comps, span)
            }
            Ty::Scalar(_) => comps[0],
        }
    }

    /// `ROWS[k]` of a module's tuple of tuples ([`Global::Rows`]): row `k` read from each
    /// column's table, as a tuple to unpack (`dx, dy = DIRS[k]`); `None` when `base` is not
    /// such a tuple.
    pub(super) fn row_item(&mut self, base: ExprId, index: ExprId, span: Span) -> Option<Ex> {
        let ExprKind::Name(n) = &self.ast.expr(base).kind else {
            return None;
        };
        if self.is_local(n) {
            return None;
        }
        let Some(Global::Rows { columns, .. }) = self.m.globals.get(n) else {
            return None;
        };
        let (n, columns) = (n.clone(), columns.clone());
        if let ExprKind::Tuple(_) = self.ast.expr(index).kind {
            let names = ["a", "b", "c", "d"][..columns.len()].join(", ");
            self.error(
                self.ast.expr(index).span,
                format!("`{n}` is a tuple of tuples: index a row with one integer, as in `{names} = {n}[k]`"),
            );
            return Some(Ex::Err);
        }
        let types: Vec<Ty> = columns.iter().map(|(_, s)| Ty::Scalar(*s)).collect();
        let tt = TupleTy::new(&types)?;
        let is_local = |n: &str| self.is_local(n);
        // A constant index (counting from the end when negative, as Python's): the row's
        // numbers themselves.
        let fixed = match self.m.const_eval(self.ast, index, &is_local) {
            Ok(Some(Lit::Int(k))) => lit::sequence_index(k, columns[0].0.len()),
            _ => None,
        };
        let mut comps = Vec::new();
        // The index is evaluated once: every column has the rows' count.
        let mut at = None;
        for (k, (items, elem)) in columns.iter().enumerate() {
            let t = Ty::Scalar(*elem);
            if let Some(r) = fixed {
                let c = match items[r].to_const(*elem) {
                    Ok(c) => self.konst(c),
                    Err(_) => return Some(Ex::Err),
                };
                comps.push(self.carried(tt, *elem, c, span));
                continue;
            }
            let a = self.cx.column_table(&n, k, items, *elem);
            let i = match at.take() {
                Some(i) => i,
                None => {
                    let Some(i) = self.index(a, index) else {
                        return Some(Ex::Err);
                    };
                    self.check_index(a, &i, span);
                    i
                }
            };
            let c = self.val(Op::Load(a), t, [i.flat], span);
            comps.push(self.carried(tt, *elem, c, span));
            at = Some(i);
        }
        Some(Ex::Tuple(
            match tt.carrier() {
                c @ (Ty::Vector(..) | Ty::Matrix(..) | Ty::Quat) => {
                    self.val(Op::Construct, c, comps, span)
                }
                Ty::Scalar(_) => comps[0],
            },
            tt,
        ))
    }

    /// Component `c` (of scalar type `s`) as `tt`'s carrier holds it: itself, or its bits as a
    /// `u32` in a packed carrier (a bool as 0 or 1).
    fn carried(&mut self, tt: TupleTy, s: Scalar, c: Operand, span: Span) -> Operand {
        match (tt.packed(), s) {
            (false, _) | (true, Scalar::U32) => c,
            (true, Scalar::F32 | Scalar::F16) => self.val(Op::Bitcast, Ty::U32, [c], span),
            (true, _) => self.val(Op::Convert, Ty::U32, [c], span),
        }
    }

    /// `a, b = f(...)`: the items of a returned tuple into as many targets.
    pub(super) fn unpack_tuple(&mut self, targets: &[ExprId], o: Operand, tt: TupleTy, span: Span) {
        if targets.len() != tt.items().len() {
            if self.has_error_item(targets) {
                return self.poison_targets(targets);
            }
            let msg = format!(
                "cannot unpack a {} ({} values) into {} targets",
                tt.name(),
                tt.items().len(),
                targets.len()
            );
            self.error(span, msg);
            return self.poison_targets(targets);
        }
        for (k, &target) in targets.iter().enumerate() {
            let (v, t) = self.tuple_item(o, tt, k, span);
            self.assign_to(target, Ex::Val(v, t), span);
        }
    }

    /// Item `k` of a tuple value `o` of type `tt`, and its type.
    pub(super) fn tuple_item(
        &mut self,
        o: Operand,
        tt: TupleTy,
        k: usize,
        span: Span,
    ) -> (Operand, Ty) {
        let carrier = tt.carrier();
        let t = tt.items()[k];
        let first: u32 = tt.items()[..k].iter().map(|i| i.components()).sum();
        let mut comps = Vec::new();
        for next in first..first + t.components() {
            let c = match carrier {
                Ty::Scalar(_) => o,
                _ => self.val(Op::Extract(next), Ty::Scalar(carrier.scalar()), [o], span),
            };
            let s = t.scalar();
            comps.push(match (tt.packed(), s) {
                (false, _) | (true, Scalar::U32) => c,
                (true, Scalar::F32 | Scalar::F16) => {
                    self.val(Op::Bitcast, Ty::Scalar(s), [c], span)
                }
                (true, _) => self.val(Op::Convert, Ty::Scalar(s), [c], span),
            });
        }
        let v = match t {
            Ty::Scalar(_) => comps[0],
            _ => self.val(Op::Construct, t, comps, span),
        };
        (v, t)
    }

    /// `t[k]` of a tuple value (a row of a table of tuples, `C[q][0]`, or a func's result):
    /// the item, for a constant `k` (counting from the end when negative, as Python's).
    pub(super) fn indexed_tuple(
        &mut self,
        o: Operand,
        tt: TupleTy,
        index: ExprId,
        span: Span,
    ) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        let n = tt.items().len();
        match self.m.const_eval(self.ast, index, &is_local) {
            Ok(Some(Lit::Int(k))) => match lit::sequence_index(k, n) {
                Some(k) => {
                    let (v, t) = self.tuple_item(o, tt, k, span);
                    Ex::Val(v, t)
                }
                None => {
                    self.error(
                        self.ast.expr(index).span,
                        format!(
                            "tuple index {k} out of range: the {} has {n} items",
                            tt.name()
                        ),
                    );
                    Ex::Err
                }
            },
            Err(_) => Ex::Err,
            _ => {
                self.cx.diags.push(
                    Diagnostic::error(self.ast.expr(index).span, "a tuple is indexed with a constant")
                        .with_help("index a tuple with a literal or a module constant (`row[0]`); for an index known only at run time, make the rows a table per column"),
                );
                Ex::Err
            }
        }
    }
}

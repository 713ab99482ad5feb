//! Statements: expression statements, `assert`, assignment (plain, augmented, annotated,
//! tuple unpacking) and stores into arrays.

use super::*;

impl Lower<'_, '_> {
    /// A statement list. The local arrays created in it are usable to its end: later their
    /// names say where they were created (see `name`).
    pub(super) fn stmts(&mut self, body: &[StmtId]) {
        let mark = self.local_arrays.len();
        match self.live {
            Some((plan, _)) => self.stmts_live(plan, body),
            None => {
                for &s in body {
                    self.stmt(s);
                }
            }
        }
        for (name, span) in self.local_arrays.split_off(mark) {
            self.locals.remove(&name);
            self.scoped_out.insert(name, span);
        }
    }

    pub(super) fn stmt(&mut self, s: StmtId) {
        let stmt = self.ast.stmt(s);
        let span = stmt.span;
        let outer = std::mem::replace(&mut self.stmt_span, span);
        self.stmt_kind(s, span);
        self.stmt_span = outer;
    }

    pub(super) fn stmt_kind(&mut self, s: StmtId, span: Span) {
        let stmt = self.ast.stmt(s);
        match &stmt.kind {
            StmtKind::Expr(e) => self.expr_stmt(*e),
            StmtKind::Assign(targets, value) => self.assign(targets, *value),
            StmtKind::AugAssign(t, op, v) => self.aug_assign(*t, *op, *v, span),
            StmtKind::AnnAssign(t, ann, v) => self.ann_assign(*t, *ann, *v),
            StmtKind::If(..) => self.if_stmt(s),
            StmtKind::While(test, body, orelse) => {
                self.loop_stmt = Some(s);
                self.while_stmt(*test, body, orelse)
            }
            StmtKind::For(t, iter, body, orelse) => {
                self.loop_stmt = Some(s);
                self.for_stmt(*t, *iter, body, orelse, span)
            }
            StmtKind::Break => match self.loops.last() {
                Some(l) => {
                    let (to, broke) = (l.brk, l.broke);
                    self.leave_loop(to, broke);
                }
                None => self.error(span, "`break` outside a loop"),
            },
            StmtKind::Continue => match self.loops.last() {
                Some(l) => {
                    let to = l.cont;
                    self.terminate_dead(Term::Jump(to));
                }
                None => self.error(span, "`continue` outside a loop"),
            },
            StmtKind::Return(_) if self.return_inactive(s) => {}
            StmtKind::Return(v) => self.return_stmt(*v, span),
            StmtKind::Pass | StmtKind::Error => {}
            StmtKind::Assert(test, message) => self.assert_stmt(*test, message.clone()),
            StmtKind::Match(target, subject, chain) => self.match_stmt(*target, *subject, *chain),
        }
    }

    /// `match subject:`: the subject, an `i32` or a `u32`, is evaluated once into the hidden
    /// local `target`, then the parser's `if` chain over it tries the cases.
    fn match_stmt(&mut self, target: ExprId, subject: ExprId, chain: StmtId) {
        let at = self.ast.expr(subject).span;
        let x = match self.expr(subject) {
            x @ (Ex::Lit(Lit::Int(_)) | Ex::Err) => x,
            // An array, a tuple or nothing is reported as no value; other literals take
            // their own type.
            other => match self.value(other, at) {
                Some((o, t)) => Ex::Val(o, t),
                None => return,
            },
        };
        match x {
            Ex::Err => return,
            Ex::Val(_, t) if !matches!(t, Ty::Scalar(Scalar::I32 | Scalar::U32)) => {
                self.cx.diags.push(
                    Diagnostic::error(at, format!("`match` in a kernel works on an `i32` or a `u32`, not {t}"))
                        .with_help("convert the subject with `int(...)`, or test other values with `if`/`elif`"),
                );
                return;
            }
            _ => {}
        }
        self.assign_to(target, x, at);
        let selector = match x {
            Ex::Val(o, Ty::Scalar(s)) => Some((o, s)),
            _ => None,
        };
        let hidden = match &self.ast.expr(target).kind {
            ExprKind::Name(n) => n.as_str(),
            _ => unreachable!("the parser names the hidden subject"),
        };
        match selector.and_then(|(o, s)| self.switch_cases(chain, hidden, s).map(|c| (o, c))) {
            Some((o, cases)) => {
                let outer = std::mem::replace(&mut self.stmt_span, self.ast.stmt(chain).span);
                self.switch_chain(o, chain, cases);
                self.stmt_span = outer;
            }
            None => self.stmt(chain),
        }
    }

    /// Outside checked mode an assertion is type-checked only, as `python -O` skips it: its
    /// test is lowered in a block that nothing reaches (and folding removes), so every error
    /// in it is reported and nothing of it runs. In checked mode it is a check.
    pub(super) fn assert_stmt(&mut self, test: ExprId, message: Option<String>) {
        if self.cx.checked {
            return self.check_assert(test, message);
        }
        let cont = self.new_block();
        self.jump(cont);
        let dead = self.new_block();
        self.switch(dead);
        let _ = self.cond(test);
        self.terminate(Term::Unreachable);
        self.switch(cont);
    }

    pub(super) fn expr_stmt(&mut self, e: ExprId) {
        let expr = self.ast.expr(e);
        match &expr.kind {
            // Under CPython `breakpoint` debugs a kernel; the GPU has none (lowering says
            // so).
            ExprKind::Call { func, .. }
                if self.cx.cpython && self.is_builtin(*func, "breakpoint") => {}
            ExprKind::Call {
                func,
                args,
                keywords,
            } if self.is_builtin(*func, "print") => self.print_stmt(args, keywords, expr.span),
            ExprKind::Call { .. } => {
                let _ = self.expr(e);
            }
            ExprKind::Error => {}
            _ => self.cx.diags.push(
                Diagnostic::error(expr.span, "this expression has no effect")
                    .with_help("only calls can stand alone as statements"),
            ),
        }
    }

    pub(super) fn assign(&mut self, targets: &[ExprId], value: ExprId) {
        let value_expr = self.ast.expr(value);
        if let (ExprKind::Call { func, args, .. }, [target]) = (&value_expr.kind, targets) {
            let is_local = |n: &str| self.is_local(n);
            if let Some((Lib::Spirthon, item)) = self.m.lib_item(self.ast, *func, &is_local) {
                if let Some(kind) = workgroup::Fixed::named(item) {
                    self.fixed_array_stmt(kind, *target, value, args);
                    // An array that could not be made (reported): its name says no more.
                    if let ExprKind::Name(n) = &self.ast.expr(*target).kind {
                        self.poison_if_unbound(n);
                    }
                    return;
                }
            }
        }
        // `x0, y0, x1, y1 = BOX` with a module's constant tuple: its items, typed as its
        // table is.
        let table = match &value_expr.kind {
            ExprKind::Name(n) if !self.is_local(n) => match self.m.globals.get(n) {
                Some(Global::Table { items, elem, .. }) => Some((items.clone(), *elem)),
                _ => None,
            },
            _ => None,
        };
        let all_unpack = targets
            .iter()
            .all(|&t| matches!(self.ast.expr(t).kind, ExprKind::Tuple(_)));
        if let (Some((items, elem)), true) = (table, all_unpack) {
            let vals: Vec<(Ex, Span)> = items
                .iter()
                .map(|l| match l.to_const(elem) {
                    Ok(c) => (Ex::Val(self.konst(c), Ty::Scalar(elem)), value_expr.span),
                    Err(_) => (Ex::Err, value_expr.span),
                })
                .collect();
            return self.assign_items(targets, &vals, value_expr.span);
        }
        if let ExprKind::Tuple(items) = &value_expr.kind {
            // Every right-hand value is evaluated before any store.
            let vals: Vec<(Ex, Span)> = items
                .iter()
                .map(|&i| (self.expr(i), self.ast.expr(i).span))
                .collect();
            return self.assign_items(targets, &vals, value_expr.span);
        }
        let ex = self.expr(value);
        for &t in targets {
            if let ExprKind::Tuple(ts) = &self.ast.expr(t).kind {
                self.unpack(ts, ex, value_expr.span);
            } else {
                self.assign_to(t, ex, value_expr.span);
            }
        }
    }

    /// `a, b = x, y` (or a constant tuple): the values, already evaluated, into each
    /// target list of as many items.
    fn assign_items(&mut self, targets: &[ExprId], vals: &[(Ex, Span)], value_span: Span) {
        for &t in targets {
            match &self.ast.expr(t).kind {
                ExprKind::Tuple(ts) if ts.len() == vals.len() => {
                    for (&ti, &(ex, sp)) in ts.iter().zip(vals) {
                        self.assign_to(ti, ex, sp);
                    }
                }
                // A target the parser already reported (`*rest`): no count error too.
                ExprKind::Tuple(ts) if self.has_error_item(ts) => self.poison_targets(ts),
                ExprKind::Tuple(ts) => {
                    let msg = format!(
                        "cannot unpack {} values into {} targets",
                        vals.len(),
                        ts.len()
                    );
                    self.error(self.ast.expr(t).span, msg);
                    self.poison_targets(ts);
                }
                _ => {
                    self.error(
                        value_span,
                        "a tuple is not a value in kernels: assign its items to as many targets",
                    );
                    self.poison_targets(&[t]);
                }
            }
        }
    }

    /// After an unpacking that failed, its names report nothing more where they are read.
    pub(super) fn poison_targets(&mut self, targets: &[ExprId]) {
        for &t in targets {
            if let ExprKind::Name(n) = &self.ast.expr(t).kind {
                self.poisoned.insert(n.clone());
            }
        }
    }

    pub(super) fn unpack(&mut self, targets: &[ExprId], ex: Ex, span: Span) {
        let (o, ty) = match ex {
            Ex::Val(o, ty @ Ty::Vector(..)) => (o, ty),
            Ex::Tuple(o, tt) => return self.unpack_tuple(targets, o, tt, span),
            Ex::Err => return self.poison_targets(targets),
            _ => {
                self.error(
                    span,
                    "only a vector (such as `global_id()`), a tuple or a func's returned tuple can be unpacked",
                );
                return self.poison_targets(targets);
            }
        };
        let Ty::Vector(s, n) = ty else { return };
        if targets.len() != n as usize {
            if self.has_error_item(targets) {
                return self.poison_targets(targets);
            }
            let msg = format!(
                "cannot unpack a value of type {} ({n} components) into {} targets",
                ty.name(),
                targets.len()
            );
            self.error(span, msg);
            return self.poison_targets(targets);
        }
        for (i, &t) in targets.iter().enumerate() {
            let c = self.val(Op::Extract(i as u32), Ty::Scalar(s), [o], span);
            self.assign_to(t, Ex::Val(c, Ty::Scalar(s)), span);
        }
    }

    pub(super) fn assign_to(&mut self, target: ExprId, ex: Ex, value_span: Span) {
        let t = self.ast.expr(target);
        if self.guard_stores && !matches!(t.kind, ExprKind::Name(_)) {
            return self.store_when_live(|l| l.assign_to(target, ex, value_span));
        }
        match &t.kind {
            ExprKind::Name(n) => self.assign_name(n, ex, t.span, value_span, None),
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                if self.struct_array_store(base, index, ex, value_span, t.span) {
                    return;
                }
                if self.assign_vector_item(base, index, ex, t.span, value_span)
                    || self.assign_matrix_item(
                        base,
                        index,
                        matrices::Assigned::Value(ex),
                        t.span,
                        value_span,
                    )
                {
                    return;
                }
                let Some(a) = self.array_of(base) else { return };
                let Some(i) = self.index(a, index) else {
                    return;
                };
                self.check_index(a, &i, t.span);
                if self.record_of(a).is_some() {
                    return self.store_record(a, &i, ex, value_span, t.span);
                }
                self.store(a, i.flat, ex, value_span, t.span);
            }
            ExprKind::Attr(base, attr) => {
                if !self.assign_struct_field(target, ex, value_span) {
                    self.assign_component(*base, attr, ex, t.span, value_span)
                }
            }
            ExprKind::Error => {}
            _ => self.error(t.span, "cannot assign to this expression"),
        }
    }

    pub(super) fn store(
        &mut self,
        a: ArrayId,
        index: Operand,
        ex: Ex,
        value_span: Span,
        span: Span,
    ) {
        if self.read_only_table(a, span) {
            return;
        }
        let elem = self.cx.arrays[a.index()].elem;
        let what = format!(
            "stored into `{}`, an Array[{elem}]",
            self.cx.arrays[a.index()].name
        );
        if let Some(v) = self.coerce(ex, elem, value_span, &what) {
            self.emit(Op::Store(a), None, [index, v], span);
        }
    }

    /// Reports a change of a constant tuple; whether `a` is one.
    pub(super) fn read_only_table(&mut self, a: ArrayId, span: Span) -> bool {
        let arr = &self.cx.arrays[a.index()];
        if arr.constant().is_none() {
            return false;
        }
        let d = Diagnostic::error(
            span,
            format!("`{}` is a constant tuple: it cannot be changed", arr.name),
        )
        .with_help("copy what you need into a local variable or a `shared_array`");
        self.cx.diags.push(d);
        true
    }

    pub(super) fn assign_name(
        &mut self,
        name: &str,
        ex: Ex,
        target_span: Span,
        value_span: Span,
        declared: Option<Ty>,
    ) {
        if let Ex::Struct(v) = ex {
            return self.assign_struct_name(name, v, target_span);
        }
        let mut local = self.locals.get(name).copied();
        // `_` is Python's throwaway name: a value of another type starts a new variable
        // (`x, y, _ = global_id()` then `hit, _ = trace(...)` with a float second item).
        if let (Some(Local::Var(var)), "_", None) = (local, name, declared) {
            if !self.has_type(&ex, self.var_ty(var)) {
                local = None;
            }
        }
        match local {
            Some(Local::Array(_)) => {
                self.error(
                    target_span,
                    format!("cannot assign to `{name}`: it is an array parameter"),
                );
            }
            Some(Local::StructArray(_)) => {
                self.error(
                    target_span,
                    format!("cannot assign to `{name}`: it is an array of structs"),
                );
            }
            Some(Local::Struct(k)) => {
                let had = self.struct_name(self.slocals[k as usize].0).to_string();
                if !matches!(ex, Ex::Err) {
                    self.error(value_span, format!("`{name}` holds a {had}: assign it a {had}, or assign one of its fields (`{name}.field = ...`)"));
                }
            }
            Some(Local::Var(var)) => {
                let ty = self.var_ty(var);
                if let Some(d) = declared {
                    if d != ty {
                        let first = self.var_spans[var.index()];
                        self.cx.diags.push(
                            Diagnostic::error(target_span, format!("`{name}` already has type {ty}; an annotation cannot change it"))
                                .with_secondary(first, format!("`{name}` got type {ty} here")),
                        );
                    }
                }
                let assigned = match declared {
                    Some(d) if d != ty => None,
                    _ => self.coerce_assign(ex, var, name, value_span),
                };
                match assigned {
                    Some(o) => self.def(var, o),
                    // Reported. A zero stands for the value, so that a later use does not
                    // add "may be used before it is assigned" (nothing is compiled).
                    None => {
                        let zero = self.konst(Const::zero(ty.scalar()));
                        let o = self.splat(zero, ty, value_span);
                        self.def(var, o);
                    }
                }
            }
            None => {
                let (o, ty) = match declared {
                    Some(t) => {
                        let what = format!("assigned to `{name}: {t}`");
                        match self.coerce(ex, t, value_span, &what) {
                            Some(o) => (o, t),
                            None => {
                                self.poisoned.insert(name.to_string());
                                return;
                            }
                        }
                    }
                    None => match self.value(ex, value_span) {
                        Some(x) => x,
                        None => {
                            self.poisoned.insert(name.to_string());
                            return;
                        }
                    },
                };
                let var = self.new_var(name, ty, target_span);
                self.def(var, o);
            }
        }
    }

    /// Whether `ex` has type `ty` as it is (a literal: the type it gets on its own).
    fn has_type(&self, ex: &Ex, ty: Ty) -> bool {
        match ex {
            Ex::Val(_, t) => *t == ty,
            // A literal too large for any type is reported where it is assigned.
            Ex::Lit(l) => l.default_scalar().map_or(true, |s| ty == Ty::Scalar(s)),
            _ => true,
        }
    }

    /// `ex` as a new value of `var`, which already has a type.
    pub(super) fn coerce_assign(
        &mut self,
        ex: Ex,
        var: Var,
        name: &str,
        span: Span,
    ) -> Option<Operand> {
        let ty = self.var_ty(var);
        match ex {
            Ex::Val(o, t) if t == ty => Some(o),
            Ex::Val(o, t)
                if ty.as_scalar().is_some_and(Scalar::is_float)
                    && t.as_scalar().is_some_and(Scalar::is_int) =>
            {
                Some(self.val(Op::Convert, ty, [o], span))
            }
            Ex::Val(_, t) => {
                let first = self.var_spans[var.index()];
                let help = if t.as_scalar().is_some_and(Scalar::is_float) && ty.scalar().is_int() {
                    format!("to make `{name}` a float, give its first assignment a float value (`{name} = 0.0`) or annotate it (`{name}: f32 = 0`)")
                } else {
                    format!("convert the value, for example `{}(...)`", ty.name())
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("`{name}` has type {ty}, but this value is {t}"),
                    )
                    .with_label(format!("this is {t}"))
                    .with_secondary(
                        first,
                        format!("`{name}` got type {ty} here, at its first assignment"),
                    )
                    .with_help(help),
                );
                None
            }
            Ex::Lit(_) if ty.as_scalar().is_none() => {
                let first = self.var_spans[var.index()];
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!("`{name}` has type {ty}, but this value is a number"),
                    )
                    .with_secondary(first, format!("`{name}` got type {ty} here"))
                    .with_help(format!(
                        "write `{}(...)` for a vector with this value in every component",
                        ty.name()
                    )),
                );
                None
            }
            Ex::Lit(l) => match l.to_const(ty.scalar()) {
                Ok(c) => Some(self.konst(c)),
                Err(e) => {
                    let first = self.var_spans[var.index()];
                    self.cx.diags.push(
                        Diagnostic::error(
                            span,
                            format!("cannot assign this to `{name}`, which has type {ty}"),
                        )
                        .with_label(e)
                        .with_secondary(first, format!("`{name}` got type {ty} here")),
                    );
                    None
                }
            },
            other => self.value(other, span).map(|x| x.0),
        }
    }

    /// `name op= value`: the value evaluated after the name's, unless given (`rhs`).
    fn aug_assign_name(
        &mut self,
        target: ExprId,
        op: BinaryOp,
        rhs: Option<Ex>,
        value: ExprId,
        span: Span,
    ) {
        let t = self.ast.expr(target);
        let ExprKind::Name(n) = &t.kind else { return };
        let cur = self.name(n, t.span);
        let rhs = rhs.unwrap_or_else(|| self.expr(value));
        let r = self.binary(op, cur, rhs, t.span, self.ast.expr(value).span, span);
        let n = n.clone();
        if let Some(Local::Var(var)) = self.locals.get(&n).copied() {
            if let Some(o) = self.coerce_assign(r, var, &n, span) {
                self.def(var, o);
            }
        }
    }

    pub(super) fn aug_assign(&mut self, target: ExprId, op: BinaryOp, value: ExprId, span: Span) {
        let t = self.ast.expr(target);
        match &t.kind {
            // In a statement an inactive invocation runs for the barrier of a call in
            // `value`: the call, then the update for the living only (a call cannot change
            // a local of its caller, so the order does not show).
            ExprKind::Name(_) if self.guard_stores => {
                let rhs = self.expr(value);
                self.store_when_live(|l| l.aug_assign_name(target, op, Some(rhs), value, span));
            }
            ExprKind::Name(_) => self.aug_assign_name(target, op, None, value, span),
            ExprKind::Subscript(base, index) if self.vector_var(*base).is_some() => {
                if let Some(var) = self.vector_var(*base) {
                    self.aug_assign_vector_item(var, *index, op, value, t.span, span);
                }
            }
            ExprKind::Subscript(base, index) if self.matrix_var(*base) => {
                let aug = matrices::Assigned::Aug(op, value);
                self.assign_matrix_item(*base, *index, aug, t.span, span);
            }
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                let Some(a) = self.array_of(base) else { return };
                if let Some(id) = self.record_of(a) {
                    let name = self.struct_name(id).to_string();
                    self.cx.diags.push(
                        Diagnostic::error(t.span, format!("an element of this array is a {name}, a struct: `{}=` has no meaning for it", op.symbol()))
                            .with_help("apply the operator to a field: `a[i].field += ...`"),
                    );
                    return;
                }
                let Some(i) = self.index(a, index) else {
                    return;
                };
                // Checked once, at the load: the store reuses the index.
                self.check_index(a, &i, t.span);
                let elem = self.cx.arrays[a.index()].elem;
                let cur = self.val(Op::Load(a), elem, [i.flat], t.span);
                let rhs = self.expr(value);
                let r = self.binary(
                    op,
                    Ex::Val(cur, elem),
                    rhs,
                    t.span,
                    self.ast.expr(value).span,
                    span,
                );
                self.store(a, i.flat, r, span, t.span);
            }
            ExprKind::Attr(..) if self.aug_assign_struct_field(target, op, value, span) => {}
            ExprKind::Attr(base, attr) => {
                let cur = self.expr(target);
                let rhs = self.expr(value);
                let r = self.binary(op, cur, rhs, t.span, self.ast.expr(value).span, span);
                if !matches!(r, Ex::Err) {
                    self.assign_component(*base, attr, r, t.span, span);
                }
            }
            ExprKind::Error => {}
            _ => self.error(t.span, "cannot assign to this expression"),
        }
    }

    /// After an annotation that is no local's type (reported): the value's own errors, and
    /// nothing more of the name where it is read.
    fn ann_refused(&mut self, name: &str, value: Option<ExprId>) {
        if let Some(v) = value {
            let _ = self.expr(v);
        }
        self.poison_if_unbound(name);
    }

    /// A name whose binding failed (reported) and that holds nothing yet: its reads say no
    /// more. One already bound keeps its value, and its reads their errors.
    fn poison_if_unbound(&mut self, name: &str) {
        if !self.locals.contains_key(name) {
            self.poisoned.insert(name.to_string());
        }
    }

    pub(super) fn ann_assign(&mut self, target: ExprId, ann: ExprId, value: Option<ExprId>) {
        let t = self.ast.expr(target);
        let ExprKind::Name(name) = &t.kind else {
            self.error(t.span, "only a plain name can be annotated");
            return;
        };
        let ty = match self.m.annotation(self.ast, ann) {
            Ok(crate::module::Ann::Value(ty)) => ty,
            Ok(crate::module::Ann::Struct(id)) => return self.ann_assign_struct(target, id, value),
            Ok(_) => {
                self.error(
                    self.ast.expr(ann).span,
                    "a local variable holds a number or a bool",
                );
                return self.ann_refused(name, value);
            }
            Err(d) => {
                self.cx.diags.push(d);
                return self.ann_refused(name, value);
            }
        };
        match value {
            Some(v) => {
                let ex = self.expr(v);
                let vspan = self.ast.expr(v).span;
                self.assign_name(name, ex, t.span, vspan, Some(ty));
            }
            None => {
                if let Some(Local::Var(var)) = self.locals.get(name).copied() {
                    let old = self.var_ty(var);
                    if old != ty {
                        self.error(
                            t.span,
                            format!(
                                "`{name}` already has type {old}; an annotation cannot change it"
                            ),
                        );
                    }
                } else {
                    self.new_var(name, ty, t.span);
                }
            }
        }
    }
}

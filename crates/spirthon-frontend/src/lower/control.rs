//! Control flow: `if`/`elif` chains (nested, or flat past `FLAT_CHAIN` links), `while` and
//! `for` loops with `break`, `continue` and loop `else`, `range` arguments, and `return`.

use super::*;

impl Lower<'_, '_> {
    /// An `if` and its `elif` chain, walked iteratively. Up to [`FLAT_CHAIN`] links, each
    /// `elif` is a selection in the `else` of the one before (as Python nests them). A longer
    /// chain would nest as deep as it is long (SPIR-V allows 1023 levels, and spirv-val's
    /// time grows with the cube of the depth), so it becomes a one-trip loop construct in
    /// which each link is a selection whose true side runs its body and leaves the loop: all
    /// links are at one depth (past [`CHAIN_CHUNK`] links, the rest go in a loop nested
    /// where the chain continues, so no merge joins too many branches). Every path still runs exactly one body (or the `else`), so
    /// definite assignment is as exact as in the nested form. That needs every
    /// `break`/`continue` in the chain to be its own loop's, so a long chain with a jump for
    /// an enclosing loop stays nested (and is bounded by the depth limit).
    pub(super) fn if_stmt(&mut self, s: StmtId) {
        let (links, orelse) = self.ast.if_chain(s);
        self.chain(&links, orelse);
    }

    /// Links of an `if`/`elif` chain and its `else`, nested or flat ([`Self::if_stmt`]).
    fn chain(&mut self, links: &[IfLink<'_>], orelse: &[StmtId]) {
        let flat = links.len() > FLAT_CHAIN
            && !links.iter().any(|l| has_jump(self.ast, l.body, true))
            && !has_jump(self.ast, orelse, true);
        if flat {
            self.flat_chain(links, orelse);
        } else {
            self.nested_chain(links, orelse);
        }
    }

    /// The cases of a `match` (its `if`/`elif` chain over the hidden subject `hidden`, as the
    /// parser builds it) that a switch can take: the leading links whose test only compares
    /// the subject with integer literals (`case 1 | -2:`), each value once and of the
    /// subject's type, as (values as the subject's bits, number of links). `None` when fewer
    /// than two values lead, or a body has a `break`/`continue` for an enclosing loop (which
    /// would leave the switch for the loop, a branch naga's translators do not all take).
    pub(super) fn switch_cases(
        &self,
        chain: StmtId,
        hidden: &str,
        subject: Scalar,
    ) -> Option<(Vec<Vec<u32>>, usize)> {
        let (links, orelse) = self.ast.if_chain(chain);
        if links.iter().any(|l| has_jump(self.ast, l.body, true))
            || has_jump(self.ast, orelse, true)
        {
            return None;
        }
        let mut seen: FastSet<u32> = FastSet::default();
        let mut cases = Vec::new();
        for link in &links {
            let Some(values) = case_values(self.ast, link.test, hidden) else {
                break;
            };
            let bits: Option<Vec<u32>> = values
                .iter()
                .map(|&v| match subject {
                    Scalar::I32 => i32::try_from(v).ok().map(|v| v as u32),
                    _ => u32::try_from(v).ok(),
                })
                .collect();
            match bits {
                Some(mut bits) if bits.iter().all(|b| !seen.contains(b)) => {
                    // `case 1 | 1:` names one value once in the table.
                    bits.sort_unstable();
                    bits.dedup();
                    seen.extend(bits.iter().copied());
                    cases.push(bits);
                }
                _ => break,
            }
        }
        let n = cases.len();
        (seen.len() >= 2).then_some((cases, n))
    }

    /// A `match` as a switch: one selection construct whose cases are the leading literal
    /// cases ([`Self::switch_cases`]); the rest of the chain (guards, captures, `case _:`)
    /// runs in its default, tried in order as Python tries them.
    pub(super) fn switch_chain(
        &mut self,
        selector: Operand,
        chain: StmtId,
        cases: (Vec<Vec<u32>>, usize),
    ) {
        let (values, taken) = cases;
        let (links, orelse) = self.ast.if_chain(chain);
        let targets: Vec<Block> = links[..taken].iter().map(|_| self.new_block()).collect();
        let default = self.new_block();
        let merge = self.new_block();
        let table = values
            .iter()
            .zip(&targets)
            .flat_map(|(vs, &t)| vs.iter().map(move |&v| (v, t)))
            .collect();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Switch(selector, default, table));
        for (link, &target) in links[..taken].iter().zip(&targets) {
            self.switch(target);
            self.stmts(link.body);
            self.jump(merge);
        }
        self.switch(default);
        match &links[taken..] {
            [] => self.stmts(orelse),
            rest => self.chain(rest, orelse),
        }
        self.jump(merge);
        self.switch(merge);
    }

    pub(super) fn nested_chain(&mut self, links: &[IfLink<'_>], orelse: &[StmtId]) {
        let mut merges = Vec::with_capacity(links.len());
        for (k, &IfLink { test, body, .. }) in links.iter().enumerate() {
            let last = k + 1 == links.len();
            // A nesting error belongs to the link that passes the limit.
            self.stmt_span = self.ast.expr(test).span;
            let c = self.cond(test);
            let then_b = self.new_block();
            let else_b = (!last || !orelse.is_empty()).then(|| self.new_block());
            let merge = self.new_block();
            self.set_merge(Merge::Selection(merge));
            self.terminate(Term::Branch(c, then_b, else_b.unwrap_or(merge)));
            self.switch(then_b);
            self.stmts(body);
            self.jump(merge);
            merges.push(merge);
            match else_b {
                Some(e) => self.switch(e),
                None => {
                    merges.pop();
                    self.switch(merge);
                }
            }
        }
        self.stmts(orelse);
        for merge in merges.into_iter().rev() {
            self.jump(merge);
            self.switch(merge);
        }
    }

    pub(super) fn flat_chain(&mut self, links: &[IfLink<'_>], orelse: &[StmtId]) {
        let mut loops = Vec::new();
        for chunk in links.chunks(CHAIN_CHUNK) {
            let (header, cont, merge) = self.open_loop();
            let first = self.new_block();
            self.jump(first);
            self.switch(first);
            for &IfLink { test, body, .. } in chunk {
                let c = self.cond(test);
                let then_b = self.new_block();
                let next = self.new_block();
                self.set_merge(Merge::Selection(next));
                self.terminate(Term::Branch(c, then_b, next));
                self.switch(then_b);
                self.stmts(body);
                self.jump(merge);
                self.switch(next);
            }
            // No link of this chunk was taken: the next chunk runs inside this loop.
            loops.push((header, cont, merge));
        }
        self.stmts(orelse);
        for (header, cont, merge) in loops.into_iter().rev() {
            self.jump(merge);
            // Nothing reaches the continue block: every path leaves the loop.
            self.switch(cont);
            self.jump(header);
            self.switch(merge);
        }
    }

    /// Opens a loop: jumps to a new header and records the loop's structure on it.
    /// Returns (header, continue, merge).
    pub(super) fn open_loop(&mut self) -> (Block, Block, Block) {
        let header = self.new_block();
        let cont = self.new_block();
        let merge = self.new_block();
        self.jump(header);
        self.switch(header);
        self.set_merge(Merge::Loop { merge, cont });
        (header, cont, merge)
    }

    /// The loop's body, continue block, and `else` clause. `exit` is where the loop goes
    /// when its condition fails; `flag` is the hidden "left normally" variable when the loop
    /// has both `break` and `else`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn close_loop(
        &mut self,
        header: Block,
        cont: Block,
        merge: Block,
        body_b: Block,
        body: &[StmtId],
        orelse: &[StmtId],
        exit: LoopElse,
        prologue: impl FnOnce(&mut Self),
        step: impl FnOnce(&mut Self),
    ) {
        let broke = match exit {
            LoopElse::Flag(flag) => Some(flag),
            _ => None,
        };
        let (kept, returns) = self.loop_plan();
        self.loop_stmt = None;
        self.loops.push(LoopCtx {
            brk: merge,
            kept,
            cont,
            broke,
        });
        self.switch(body_b);
        prologue(self);
        // A loop that inactive invocations run may begin an iteration with one.
        let outer = self.inactive;
        self.inactive |= kept && returns;
        self.stmts(body);
        self.jump(cont);
        self.loops.pop();
        self.switch(cont);
        step(self);
        self.jump(header);
        if let LoopElse::Inside(else_b) = exit {
            self.switch(else_b);
            self.stmts(orelse);
            self.jump(merge);
            self.switch(merge);
        } else if let LoopElse::Flag(flag) = exit {
            self.switch(merge);
            let broke = self.read(flag, Span::default());
            let else_b = self.new_block();
            let after = self.new_block();
            self.set_merge(Merge::Selection(after));
            self.terminate(Term::Branch(broke, after, else_b));
            self.switch(else_b);
            self.stmts(orelse);
            self.jump(after);
            self.switch(after);
        } else {
            self.switch(merge);
            self.stmts(orelse);
        }
        self.inactive = outer;
    }

    /// Where the loop's `else` clause goes (see [`LoopElse`]); `cond_in_header` says the
    /// loop's condition is evaluated in its header block, whose `OpLoopMerge` makes a branch
    /// into the loop construct structured.
    pub(super) fn loop_exit(
        &mut self,
        body: &[StmtId],
        orelse: &[StmtId],
        cond_in_header: bool,
    ) -> LoopElse {
        // A `return` that makes the invocation inactive leaves a loop it does not keep.
        let (kept, returns) = self.loop_plan();
        if orelse.is_empty() || !(has_jump(self.ast, body, false) || returns && !kept) {
            return LoopElse::InMerge;
        }
        if cond_in_header && !has_jump(self.ast, orelse, true) {
            return LoopElse::Inside(self.new_block());
        }
        let flag = self.new_var("", Ty::BOOL, Span::default());
        let f = self.konst(Const::Bool(false));
        self.def(flag, f);
        LoopElse::Flag(flag)
    }

    /// Where the loop goes when its condition fails.
    pub(super) fn exit_target(exit: LoopElse, merge: Block) -> Block {
        match exit {
            LoopElse::InMerge | LoopElse::Flag(_) => merge,
            LoopElse::Inside(b) => b,
        }
    }

    pub(super) fn while_stmt(&mut self, test: ExprId, body: &[StmtId], orelse: &[StmtId]) {
        let separate_cond = self.needs_blocks(test);
        let exit = self.loop_exit(body, orelse, !separate_cond);
        let (header, cont, merge) = self.open_loop();
        if separate_cond {
            let cond_b = self.new_block();
            self.jump(cond_b);
            self.switch(cond_b);
        }
        // `while True:` (any constant true test) leaves only by `break` or `return`: the
        // header goes straight to the body, so code after a loop without `break` is known
        // unreachable (a func ending in such a loop needs no return after it).
        let is_local = |n: &str| self.is_local(n);
        let always = !separate_cond
            && matches!(self.m.const_eval(self.ast, test, &is_local), Ok(Some(l)) if l.truthy());
        let body_b = self.new_block();
        if always {
            self.jump(body_b);
        } else {
            let c = self.cond(test);
            self.terminate(Term::Branch(c, body_b, Self::exit_target(exit, merge)));
        }
        self.close_loop(
            header,
            cont,
            merge,
            body_b,
            body,
            orelse,
            exit,
            |_| {},
            |_| {},
        );
    }

    pub(super) fn for_stmt(
        &mut self,
        target: ExprId,
        iter: ExprId,
        body: &[StmtId],
        orelse: &[StmtId],
        span: Span,
    ) {
        let Some((binder, args)) = self.for_binder(target, iter) else {
            return;
        };
        let RangeArgs {
            start,
            stop,
            step,
            ty,
        } = args;
        let counter = self.new_var("", ty, span);
        self.def(counter, start);
        let exit = self.loop_exit(body, orelse, true);
        let (header, cont, merge) = self.open_loop();
        let k = self.read(counter, span);
        let c = self.range_continues(k, stop, step, ty, span);
        let body_b = self.new_block();
        self.terminate(Term::Branch(c, body_b, Self::exit_target(exit, merge)));
        let tspan = self.ast.expr(target).span;
        let guard = match step {
            Step::One => StepGuard::None,
            Step::Literal(_, s) if !self.may_pass_limit(stop, s, ty) => StepGuard::None,
            Step::Literal(_, s) => StepGuard::Literal(s),
            Step::Runtime(_) => StepGuard::Runtime,
        };
        let step = match step {
            Step::Literal(s, _) | Step::Runtime(s) => s,
            Step::One => self.konst(Const::one(ty.scalar())),
        };

        // The loop variable is assigned from the counter at the top of each iteration, so
        // assigning to it in the body does not change the iteration (as in Python).
        let prologue = |l: &mut Self| {
            let kb = l.read(counter, span);
            match &binder {
                Binder::Name(name) => l.assign_name(name, Ex::Val(kb, ty), tspan, tspan, None),
                Binder::Table { columns, index, .. } => {
                    if let Some(i) = index {
                        l.assign_to(*i, Ex::Val(kb, ty), tspan);
                    }
                    for &(array, value) in columns {
                        let elem = l.cx.arrays[array.index()].elem;
                        let v = l.val(Op::Load(array), elem, [kb], tspan);
                        l.assign_to(value, Ex::Val(v, elem), tspan);
                    }
                }
            }
        };
        self.close_loop(
            header,
            cont,
            merge,
            body_b,
            body,
            orelse,
            exit,
            prologue,
            move |l| {
                let k = l.read(counter, span);
                let next = l.range_next(k, stop, step, guard, ty, span);
                l.def(counter, next);
            },
        );
    }

    /// How a `for` loop binds its target (a `range` counter, or a constant tuple's items)
    /// and the range its counter runs over (a tuple's indices); `None` after an error.
    fn for_binder(&mut self, target: ExprId, iter: ExprId) -> Option<(Binder, RangeArgs)> {
        let t = self.ast.expr(target);
        let binder = match self.table_iter(target, iter) {
            Some(Ok(b)) => b,
            Some(Err(())) => return None,
            None => match &t.kind {
                ExprKind::Name(name) => Binder::Name(name.clone()),
                _ => {
                    self.error(
                        t.span,
                        "a `for` loop over a `range` takes one variable name",
                    );
                    return None;
                }
            },
        };
        let args = match binder {
            Binder::Name(_) => self.range_args(iter)?,
            Binder::Table { len, .. } => RangeArgs {
                start: self.konst(Const::I32(0)),
                stop: self.konst(Const::I32(len as i32)),
                step: Step::One,
                ty: Ty::I32,
            },
        };
        Some((binder, args))
    }

    /// Whether counter `k` is still short of `stop` in the step's direction; a step known
    /// only at run time is tested for its sign, and a zero step runs nothing.
    fn range_continues(
        &mut self,
        k: Operand,
        stop: Operand,
        step: Step,
        ty: Ty,
        span: Span,
    ) -> Operand {
        match step {
            Step::One | Step::Literal(..) => {
                let up = !matches!(step, Step::Literal(_, s) if s < 0);
                let op = if up { CmpOp::Lt } else { CmpOp::Gt };
                self.val(Op::Cmp(op), Ty::BOOL, [k, stop], span)
            }
            Step::Runtime(step) => {
                let zero = self.konst(Const::zero(ty.scalar()));
                let up = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, [step, zero], span);
                let down = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [step, zero], span);
                let lt = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [k, stop], span);
                let gt = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, [k, stop], span);
                let a = self.val(Op::Binary(BinOp::And), Ty::BOOL, [up, lt], span);
                let b = self.val(Op::Binary(BinOp::And), Ty::BOOL, [down, gt], span);
                self.val(Op::Binary(BinOp::Or), Ty::BOOL, [a, b], span)
            }
        }
    }

    /// Whether a counter on the near side of `stop` may pass the type's limit when `step` is
    /// added: never for a step of 1 or -1, nor for a constant `stop` far enough from the
    /// limit.
    fn may_pass_limit(&self, stop: Operand, step: i64, ty: Ty) -> bool {
        if step.unsigned_abs() <= 1 {
            return false;
        }
        let Some(c) = self.int_const(stop) else {
            return true;
        };
        let (min, max) = if ty == Ty::U32 {
            (0, u32::MAX as i64)
        } else {
            (i32::MIN as i64, i32::MAX as i64)
        };
        if step > 0 {
            c - 1 + step > max
        } else {
            c + 1 + step < min
        }
    }

    /// The counter's next value: `k + step`, or `stop` when that would reach or pass `stop`
    /// (which ends the loop) and could wrap past the integer type's range, where Python's
    /// `range` just ends. A step of 1 or -1 cannot pass `stop` (the counter is on the near
    /// side of it), so only a larger or run-time step compares the distance left with the
    /// step, in `u32`, where the distance between two values of the type always fits.
    fn range_next(
        &mut self,
        k: Operand,
        stop: Operand,
        step: Operand,
        guard: StepGuard,
        ty: Ty,
        span: Span,
    ) -> Operand {
        let next = self.val(Op::Binary(BinOp::Add), ty, [k, step], span);
        let sub = |l: &mut Self, a, b| l.val(Op::Binary(BinOp::Sub), ty, [a, b], span);
        let (gap, size) = match guard {
            StepGuard::None => return next,
            StepGuard::Literal(s) => {
                let gap = if s > 0 {
                    sub(self, stop, k)
                } else {
                    sub(self, k, stop)
                };
                (gap, self.konst(Const::U32(s.unsigned_abs() as u32)))
            }
            StepGuard::Runtime if ty == Ty::U32 => (sub(self, stop, k), step),
            StepGuard::Runtime => {
                let zero = self.konst(Const::zero(ty.scalar()));
                let up = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, [step, zero], span);
                let above = sub(self, stop, k);
                let below = sub(self, k, stop);
                let gap = self.val(Op::Select, ty, [up, above, below], span);
                let neg = sub(self, zero, step);
                (gap, self.val(Op::Select, ty, [up, step, neg], span))
            }
        };
        let unsigned = |l: &mut Self, x| {
            if ty == Ty::U32 {
                x
            } else {
                l.val(Op::Bitcast, Ty::U32, [x], span)
            }
        };
        let gap = unsigned(self, gap);
        let size = if matches!(guard, StepGuard::Literal(_)) {
            size
        } else {
            unsigned(self, size)
        };
        let room = self.val(Op::Cmp(CmpOp::Gt), Ty::BOOL, [gap, size], span);
        self.val(Op::Select, ty, [room, next, stop], span)
    }

    /// `for w in TABLE:` or `for k, w in enumerate(TABLE):` over a constant tuple: how the
    /// loop binds its targets; `None` when `iter` is no such form (a `range`, or an error).
    fn table_iter(&mut self, target: ExprId, iter: ExprId) -> Option<Result<Binder, ()>> {
        let Ok((table_expr, index)) = self.table_form(target, iter)? else {
            return Some(Err(()));
        };
        if let Some(items) = self.runtime_items(table_expr) {
            let (index, value) = match index {
                Some((k, v)) => (Some(k), v),
                None => (None, target),
            };
            let span = self.ast.expr(table_expr).span;
            let Some(a) = self.runtime_tuple(&items, value, span) else {
                return Some(Err(()));
            };
            return Some(Ok(Binder::Table {
                columns: vec![(a, value)],
                index,
                len: items.len() as u32,
            }));
        }
        let Ok((n, global)) = self.table_named(table_expr, index.is_some())? else {
            return Some(Err(()));
        };
        let (index, value) = match index {
            Some((k, v)) => (Some(k), v),
            None => (None, target),
        };
        let Ok((columns, len)) = self.table_columns(table_expr, &n, global, value)? else {
            return Some(Err(()));
        };
        Some(Ok(Binder::Table {
            columns,
            index,
            len,
        }))
    }

    /// The items of a tuple written in place that is not a constant table (some item is
    /// computed at run time, `for v in (a, b + 1):`); `None` for anything else.
    fn runtime_items(&self, table_expr: ExprId) -> Option<Vec<ExprId>> {
        let ExprKind::Tuple(items) = &self.ast.expr(table_expr).kind else {
            return None;
        };
        let is_local = |n: &str| self.is_local(n);
        let constant = |i: ExprId| {
            matches!(
                self.m.const_eval(self.ast, i, &is_local),
                Ok(Some(Lit::Int(_) | Lit::Float(_)))
            )
        };
        let nested = |i: ExprId| matches!(self.ast.expr(i).kind, ExprKind::Tuple(_));
        if items.is_empty()
            || items.iter().any(|&i| nested(i))
            || items.iter().all(|&i| constant(i))
        {
            return None;
        }
        Some(items.clone())
    }

    /// `for v in (a, b, c):` over values computed at run time: the items, evaluated once in
    /// order before the loop as Python does, stored into a hidden local array of their type
    /// (the first value's; the others converted as an assignment would convert them), which
    /// the loop then reads as it reads a constant table. The loop target `value` takes part
    /// in a copy: under CPython it names the item's own object, so a component assignment
    /// to it would change the item there.
    fn runtime_tuple(&mut self, items: &[ExprId], value: ExprId, span: Span) -> Option<ArrayId> {
        let exs = self.args(items);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return None;
        }
        let t = match exs.iter().find_map(|(x, _)| match x {
            Ex::Val(_, t) => Some(*t),
            _ => None,
        }) {
            Some(t) => t,
            None => self.value(exs[0].0, exs[0].1)?.1,
        };
        if t.scalar() == Scalar::Bool || matches!(exs[0].0, Ex::Array(_) | Ex::Tuple(..) | Ex::Void)
        {
            self.cx.diags.push(
                Diagnostic::error(span, "a `for` loop over values computed at run time takes numbers, vectors, matrices or quats")
                    .with_help("loop over indices, `for k in range(n):`, and pick each value"),
            );
            return None;
        }
        let id = ArrayId(self.cx.arrays.len() as u32);
        self.cx.arrays.push(GlobalArray {
            memory: Memory::Local(items.len() as u32),
            ..GlobalArray::buffer(format!("tuple@{}", span.start), t, 0)
        });
        let what = format!("an item of a tuple of {t}s that a `for` loop runs over");
        for (k, &(x, sp)) in exs.iter().enumerate() {
            let o = self.coerce(x, t, sp, &what)?;
            let at = self.konst(Const::I32(k as i32));
            self.emit(Op::Store(id), None, [at, o], sp);
        }
        if let ExprKind::Name(n) = &self.ast.expr(value).kind {
            self.copies.insert(n.clone());
        }
        Some(id)
    }

    /// The tuple `iter` loops over and, for `enumerate`, its index and value targets.
    #[allow(clippy::type_complexity)]
    fn table_form(
        &mut self,
        target: ExprId,
        iter: ExprId,
    ) -> Option<Result<(ExprId, Option<(ExprId, ExprId)>), ()>> {
        let e = self.ast.expr(iter);
        Some(Ok(match &e.kind {
            ExprKind::Name(n) if !self.is_local(n) => (iter, None),
            ExprKind::Tuple(_) => (iter, None),
            ExprKind::Call { func, args, .. } if matches!(&self.ast.expr(*func).kind, ExprKind::Name(n) if n == "enumerate" && !self.is_local(n)) =>
            {
                let ExprKind::Tuple(ts) = &self.ast.expr(target).kind else {
                    self.error(
                        self.ast.expr(target).span,
                        "`enumerate` gives pairs: write `for k, x in enumerate(...)`",
                    );
                    return Some(Err(()));
                };
                match (&args[..], &ts[..]) {
                    ([t], [k, v]) => (*t, Some((*k, *v))),
                    _ => {
                        self.error(e.span, "kernels loop over `enumerate(TABLE)` of one constant tuple, into two names");
                        return Some(Err(()));
                    }
                }
            }
            _ => return None,
        }))
    }

    /// The constant tuple `table_expr` names (a module constant, or one written in place),
    /// with the name its tables take.
    fn table_named(
        &mut self,
        table_expr: ExprId,
        enumerated: bool,
    ) -> Option<Result<(String, Global), ()>> {
        let table_span = self.ast.expr(table_expr).span;
        Some(Ok(match &self.ast.expr(table_expr).kind {
            ExprKind::Name(n) => match self.m.globals.get(n) {
                Some(g @ (Global::Table { .. } | Global::Rows { .. })) => (n.clone(), g.clone()),
                Some(Global::Opaque { span, what }) => {
                    let (span, what) = (*span, what.clone());
                    self.opaque_use(n, table_span, span, &what);
                    return Some(Err(()));
                }
                _ if enumerated => {
                    self.error(
                        table_span,
                        "`enumerate` works on a constant tuple here (a module-level one, or one written in place)",
                    );
                    return Some(Err(()));
                }
                _ => return None,
            },
            ExprKind::Tuple(ts) => {
                let mut diags = Vec::new();
                let is_local = |n: &str| self.is_local(n);
                match crate::module::table(self.m, self.ast, ts, table_span, &is_local, &mut diags)
                {
                    // A table name no Python name can take (`@`), so that it meets no
                    // module constant's in the tables by name.
                    Some(g @ (Global::Table { .. } | Global::Rows { .. })) => {
                        (format!("tuple@{}", table_span.start), g)
                    }
                    Some(_) => {
                        self.cx.diags.push(
                            Diagnostic::error(table_span, "a `for` loop over a tuple needs a non-empty tuple of constant numbers (or of tuples of them, all of one length)")
                                .with_note("the items may be literals or module constants; kernels loop over `range(...)` otherwise")
                                .with_help("for run-time values, loop over indices: `for k in range(n):`"),
                        );
                        return Some(Err(()));
                    }
                    None => {
                        self.cx.diags.extend(diags);
                        return Some(Err(()));
                    }
                }
            }
            _ => {
                self.error(
                    table_span,
                    "`enumerate` works on a constant tuple here (a module-level one, or one written in place)",
                );
                return Some(Err(()));
            }
        }))
    }

    /// The tables of `global`'s columns, each with the target it binds, and its length.
    #[allow(clippy::type_complexity)]
    fn table_columns(
        &mut self,
        table_expr: ExprId,
        n: &str,
        global: Global,
        value: ExprId,
    ) -> Option<Result<(Vec<(ArrayId, ExprId)>, u32), ()>> {
        let shown = match self.ast.expr(table_expr).kind {
            ExprKind::Name(_) => n.to_string(),
            _ => "T".to_string(),
        };
        Some(Ok(match global {
            Global::Table { items, elem, .. } => {
                if !matches!(self.ast.expr(value).kind, ExprKind::Name(_)) {
                    let msg = format!("each item of `{shown}` is one number: loop with `for x in {shown}:`, or `for k, x in enumerate({shown}):`");
                    self.error(self.ast.expr(value).span, msg);
                    return Some(Err(()));
                }
                let len = items.len() as u32;
                (vec![(self.cx.table(n, &items, elem), value)], len)
            }
            Global::Rows { columns, .. } => {
                let targets: Option<Vec<ExprId>> = match &self.ast.expr(value).kind {
                    ExprKind::Tuple(ts)
                        if ts.len() == columns.len()
                            && ts
                                .iter()
                                .all(|&t| matches!(self.ast.expr(t).kind, ExprKind::Name(_))) =>
                    {
                        Some(ts.clone())
                    }
                    _ => None,
                };
                let Some(targets) = targets else {
                    let names = ["a", "b", "c", "d"][..columns.len()].join(", ");
                    let msg = format!("each item of `{shown}` is a tuple of {} numbers: unpack it into names, as in `for {names} in {shown}:`", columns.len());
                    self.error(self.ast.expr(value).span, msg);
                    return Some(Err(()));
                };
                let len = columns[0].0.len() as u32;
                let tables = columns
                    .iter()
                    .enumerate()
                    .map(|(k, (items, elem))| self.cx.column_table(n, k, items, *elem))
                    .collect::<Vec<_>>();
                (tables.into_iter().zip(targets).collect(), len)
            }
            _ => return None,
        }))
    }

    /// The arguments of `range(...)`, all of one integer type.
    pub(super) fn range_args(&mut self, iter: ExprId) -> Option<RangeArgs> {
        let e = self.ast.expr(iter);
        let bad = "kernels loop only over `range(stop)`, `range(start, stop)` or `range(start, stop, step)`";
        let ExprKind::Call {
            func,
            args,
            keywords,
        } = &e.kind
        else {
            self.error(e.span, bad);
            return None;
        };
        let is_range = matches!(&self.ast.expr(*func).kind, ExprKind::Name(n) if n == "range" && !self.assigned.contains(n) && !self.m.globals.contains_key(n));
        if !is_range || args.is_empty() || args.len() > 3 || !keywords.is_empty() {
            self.error(e.span, bad);
            return None;
        }
        // A narrow int argument counts as its `i32` value (a counter of the narrow type would
        // wrap before `stop`).
        let exs: Vec<(Ex, Span)> = args
            .iter()
            .map(|&a| (self.count_expr(a), self.ast.expr(a).span))
            .collect();
        // The common integer type: the first typed argument's, else i32.
        let mut ty = None;
        for &(ex, sp) in &exs {
            match ex {
                Ex::Val(_, t) if t.as_scalar().is_some_and(Scalar::is_int) => {
                    if let Some(u) = ty.filter(|u| *u != t) {
                        self.error(sp, format!("the arguments of `range` mix {u} and {t}"));
                        return None;
                    }
                    ty = Some(t);
                }
                Ex::Val(_, t) => {
                    self.error(sp, format!("`range` needs integers, not {t}"));
                    return None;
                }
                Ex::Lit(Lit::Float(_)) => {
                    self.error(sp, "`range` needs integers, not floats");
                    return None;
                }
                Ex::Err => return None,
                _ => {}
            }
        }
        let ty = ty.unwrap_or(Ty::I32);
        let mut ops = Vec::new();
        for &(ex, sp) in &exs {
            ops.push(self.coerce(ex, ty, sp, "passed to `range`")?);
        }
        let step = match exs.get(2) {
            Some(&(Ex::Lit(Lit::Int(0)), sp)) => {
                self.error(sp, "`range` step must not be zero");
                return None;
            }
            // The step was coerced to the counter's type, so it fits an `i64`.
            Some(&(Ex::Lit(Lit::Int(s)), _)) => Step::Literal(ops[2], s as i64),
            Some(_) => Step::Runtime(ops[2]),
            None => Step::One,
        };
        let (start, stop) = if ops.len() == 1 {
            (self.konst(Const::zero(ty.scalar())), ops[0])
        } else {
            (ops[0], ops[1])
        };
        Some(RangeArgs {
            start,
            stop,
            step,
            ty,
        })
    }

    pub(super) fn return_stmt(&mut self, value: Option<ExprId>, span: Span) {
        let sig = self.sig;
        match (value, sig.ret) {
            (Some(v), _) if sig.is_kernel => {
                self.error(
                    self.ast.expr(v).span,
                    "a kernel cannot return a value: write results into an array",
                );
            }
            (Some(v), None) if self.probing() => {
                self.probe_return(v);
                return;
            }
            (Some(v), None) if sig.ret_unknown => {
                // Its `return`s disagree, which is reported: the value's own errors only.
                match &self.ast.expr(v).kind {
                    ExprKind::Tuple(items) => {
                        for &item in &items.clone() {
                            self.expr(item);
                        }
                    }
                    _ => {
                        self.expr(v);
                    }
                }
                self.terminate_dead(Term::Unreachable);
                return;
            }
            (Some(v), None) => {
                let msg = format!(
                    "`{}` has no return type, so it cannot return a value",
                    sig.source_name()
                );
                self.cx.diags.push(
                    Diagnostic::error(self.ast.expr(v).span, msg)
                        .with_help("annotate the return type, as in `-> f32`"),
                );
            }
            (None, Some(t)) => {
                self.error(
                    span,
                    format!("`{}` must return a value of type {t}", sig.source_name()),
                );
            }
            (Some(v), Some(t)) => {
                if let (Some(id), Some(tt)) = (sig.ret_struct, sig.ret_tuple) {
                    match self.pack_struct(v, id, tt) {
                        Some(o) => self.terminate_dead(Term::Return(Some(o))),
                        None => self.terminate_dead(Term::Unreachable),
                    }
                    return;
                }
                if let Some(tt) = sig.ret_tuple {
                    match self.pack_tuple(v, tt) {
                        Some(o) => self.terminate_dead(Term::Return(Some(o))),
                        None => self.terminate_dead(Term::Unreachable),
                    }
                    return;
                }
                let ex = self.expr(v);
                let what = format!("returned from `{}`, which returns {t}", sig.source_name());
                match self.coerce(ex, t, self.ast.expr(v).span, &what) {
                    Some(o) => self.terminate_dead(Term::Return(Some(o))),
                    // Already reported; the path still ends here.
                    None => self.terminate_dead(Term::Unreachable),
                }
                return;
            }
            (None, None) => {}
        }
        self.terminate_dead(Term::Return(None));
    }
}

/// The integers a `case`'s test compares the hidden subject `hidden` with, when that is all
/// it does: `hidden == 3`, or an `or` of such (`case 1 | -2:`).
fn case_values(ast: &Ast, test: ExprId, hidden: &str) -> Option<Vec<i64>> {
    let compares = match &ast.expr(test).kind {
        ExprKind::BoolOp(false, items) => items.clone(),
        ExprKind::Compare(..) => vec![test],
        _ => return None,
    };
    let literal = |e: ExprId| match &ast.expr(e).kind {
        ExprKind::Int(v) => i64::try_from(*v).ok(),
        ExprKind::Unary(UnaryOp::Neg, inner) => match ast.expr(*inner).kind {
            ExprKind::Int(v) => i64::try_from(-v).ok(),
            _ => None,
        },
        _ => None,
    };
    compares
        .iter()
        .map(|&c| match &ast.expr(c).kind {
            ExprKind::Compare(s, rest) => match (&ast.expr(*s).kind, &rest[..]) {
                (ExprKind::Name(n), [(CmpOp::Eq, lit)]) if n == hidden => literal(*lit),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

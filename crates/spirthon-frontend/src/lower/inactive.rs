//! Early `return`s in a def that a barrier may follow: the invocation stays, inactive.
//!
//! In Python, `if i >= n: return` before a `barrier()` means the invocation does nothing
//! more; on a GPU, every invocation of a workgroup must take the same barriers. So such a
//! `return` (the module's `BarrierPlan::returns`) clears the def's hidden `live` flag
//! instead of leaving, and from there the invocation runs only the statements the plan keeps
//! (barriers, uniform assignments, the loops and branches around them: all in uniform
//! control flow), each other run of statements under `if live:`. Inside a loop the plan
//! does not keep, the `return` leaves the loop (`break`, skipping its `else`), and after a
//! statement holding such a return, that loop is left when `live` is false.
//!
//! Invariants: `live` is a hidden bool with constant definitions only (true at entry, false
//! at each such return), so the SSA stage's path analysis knows it on every path and a local
//! assigned under `if live:` and read under a later one is no "may be used before it is
//! assigned". `inactive` is true exactly where `live` may be false in the list being lowered.

use super::*;

impl Lower<'_, '_> {
    /// At the entry of a kernel with a return before a barrier: its `live` flag, true. At
    /// the entry of a func that reaches a barrier: the flag its caller passes (`given`),
    /// which may be false from the start.
    pub(super) fn start_live(&mut self, given: Option<Operand>) {
        let Some(plan) = self.m.barrier_plans.get(&self.sig.item) else {
            return;
        };
        if given.is_none() && plan.returns.is_empty() || self.probing() {
            return;
        }
        // Constant definitions only, so that the SSA stage's path analysis knows the flag.
        let live = self.new_var("", Ty::BOOL, Span::default());
        let t = self.konst(Const::Bool(true));
        self.def(live, t);
        if let Some(given) = given {
            let off = self.new_block();
            let merge = self.new_block();
            self.set_merge(Merge::Selection(merge));
            self.terminate(Term::Branch(given, merge, off));
            self.switch(off);
            let f = self.konst(Const::Bool(false));
            self.def(live, f);
            self.jump(merge);
            self.switch(merge);
        }
        self.live = Some((plan, live));
        self.inactive = given.is_some();
    }

    /// What a call of a func that reaches a barrier passes for its `live` flag.
    pub(super) fn live_operand(&mut self) -> Operand {
        match self.live {
            Some((_, live)) => self.read(live, Span::default()),
            None => self.konst(Const::Bool(true)),
        }
    }

    /// A check's condition where the invocation may be inactive: it holds for an inactive
    /// one, which Python would not have run this far.
    pub(super) fn ok_unless_live(&mut self, ok: Operand, span: Span) -> Operand {
        match self.live {
            Some((_, live)) if self.inactive => {
                let flag = self.read(live, span);
                let dead = self.val(Op::Unary(UnOp::Not), Ty::BOOL, [flag], span);
                self.val(Op::Binary(BinOp::Or), Ty::BOOL, [ok, dead], span)
            }
            _ => ok,
        }
    }

    /// Runs `store` for the living only (a store of a statement kept for its barrier).
    pub(super) fn store_when_live(&mut self, store: impl FnOnce(&mut Self)) {
        self.if_live(false, |l| {
            l.guard_stores = false;
            store(l);
            l.guard_stores = true;
        });
    }

    /// `if live: then`; with `leave_otherwise`, an inactive invocation returns instead (a
    /// func's value a zero no caller reads). Without a `live` flag, just `then`.
    fn if_live(&mut self, leave_otherwise: bool, then: impl FnOnce(&mut Self)) {
        let Some((_, live)) = self.live else {
            return then(self);
        };
        let flag = self.read(live, Span::default());
        let then_b = self.new_block();
        let merge = self.new_block();
        let else_b = match leave_otherwise {
            true => self.new_block(),
            false => merge,
        };
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(flag, then_b, else_b));
        if leave_otherwise {
            self.switch(else_b);
            let ret = self.zero_return(Span::default());
            self.terminate(ret);
        }
        self.switch(then_b);
        then(self);
        self.jump(merge);
        self.switch(merge);
    }

    /// A kept statement while the invocation may be inactive: one that takes a barrier
    /// through a call may act otherwise only through its stores (which the living alone
    /// make); a call that acts is refused.
    fn kept_stmt(&mut self, plan: &BarrierPlan, s: StmtId) {
        if let Some(&at) = plan.acting.get(&s) {
            self.cx.diags.push(
                Diagnostic::error(at, "an invocation that returned above still runs this statement, to take the barrier of the call in it, so this would act for it too")
                    .with_help("call the func that takes the barrier in a statement of its own (`v = f(...)`), and use its value in the next"),
            );
        }
        let simple = matches!(
            self.ast.stmt(s).kind,
            StmtKind::Assign(..) | StmtKind::AnnAssign(..) | StmtKind::AugAssign(..)
        );
        // A uniform assignment runs whole: the inactive invocations compute it too.
        if !plan.takes_barrier.contains(&s)
            || !simple && !matches!(self.ast.stmt(s).kind, StmtKind::Expr(_))
        {
            return self.stmt(s);
        }
        self.guard_stores = simple;
        self.inactive_args = true;
        self.stmt(s);
        self.guard_stores = false;
        self.inactive_args = false;
    }

    /// An argument of a call that takes a barrier, in a statement an inactive invocation
    /// runs: evaluated by the living only (an inactive one passes a zero), so it reads no
    /// local the invocation never assigned and no element out of range.
    pub(super) fn barrier_arg(&mut self, e: ExprId) -> Ex {
        let Some((_, live)) = self.live.filter(|_| self.inactive_args) else {
            return self.expr(e);
        };
        let by_name = match &self.ast.expr(e).kind {
            ExprKind::Name(n) => !matches!(self.locals.get(n), Some(Local::Var(_))),
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
            _ => false,
        };
        if by_name {
            return self.expr(e);
        }
        let span = self.ast.expr(e).span;
        let flag = self.read(live, span);
        let then_b = self.new_block();
        let else_b = self.new_block();
        let merge = self.new_block();
        self.set_merge(Merge::Selection(merge));
        self.terminate(Term::Branch(flag, then_b, else_b));
        self.switch(then_b);
        self.inactive_args = false;
        let outer = std::mem::replace(&mut self.inactive, false);
        let ex = self.expr(e);
        self.inactive = outer;
        self.inactive_args = true;
        let kept = match ex {
            Ex::Val(o, t) => {
                let var = self.new_var("", t, span);
                self.def(var, o);
                Some((var, t))
            }
            Ex::Lit(_) | Ex::Err | Ex::Array(_) | Ex::Void => None,
            Ex::Tuple(..) | Ex::Struct(_) => {
                self.cx.diags.push(
                    Diagnostic::error(span, "an invocation that returned above still makes this call, to take its barrier, and cannot pass this value")
                        .with_help("assign the value to a local first and pass the local"),
                );
                None
            }
        };
        self.jump(merge);
        self.switch(else_b);
        if let Some((var, t)) = kept {
            let z = self.konst(Const::zero(t.scalar()));
            let z = self.splat(z, t, span);
            self.def(var, z);
        }
        self.jump(merge);
        self.switch(merge);
        match kept {
            Some((var, t)) => Ex::Val(self.read(var, span), t),
            None => ex,
        }
    }

    /// A statement list of a def with a `live` flag: once the invocation may have returned,
    /// each run of statements the plan does not keep goes under `if live:`.
    pub(super) fn stmts_live(&mut self, plan: &BarrierPlan, body: &[StmtId]) {
        let outer = self.inactive;
        let mut k = 0;
        while k < body.len() {
            if self.inactive && !plan.kept.contains(&body[k]) {
                let start = k;
                while k < body.len() && !plan.kept.contains(&body[k]) {
                    k += 1;
                }
                self.when_live(&body[start..k]);
                continue;
            }
            let s = body[k];
            k += 1;
            match self.inactive {
                true => self.kept_stmt(plan, s),
                false => self.stmt(s),
            }
            if plan.clears.contains(&s) {
                self.after_return();
            }
        }
        self.inactive = outer;
    }

    /// `if live: body`, where the invocation is known not to have returned. When `body` has
    /// a `return` that leaves (one the plan does not make inactive), no barrier follows it,
    /// so an inactive invocation leaves here too (a func's value a zero no caller reads), and
    /// the end of the def is reached only as Python reaches it.
    fn when_live(&mut self, body: &[StmtId]) {
        let leaves = leaves(self.ast, body, &self.live.map(|(p, _)| p));
        self.if_live(leaves, |l| {
            let outer = std::mem::replace(&mut l.inactive, false);
            l.stmts(body);
            l.inactive = outer;
        });
    }

    /// After a statement that may have returned: in a loop that inactive invocations leave,
    /// leave it when `live` is false; elsewhere the rest of the list is for the living.
    fn after_return(&mut self) {
        match self.loops.last() {
            Some(l) if !l.kept => {
                let (brk, broke) = (l.brk, l.broke);
                let Some((_, live)) = self.live else { return };
                let flag = self.read(live, Span::default());
                let leave = self.new_block();
                let after = self.new_block();
                self.set_merge(Merge::Selection(after));
                self.terminate(Term::Branch(flag, after, leave));
                self.switch(leave);
                self.leave_loop(brk, broke);
                self.switch(after);
            }
            _ => self.inactive = true,
        }
    }

    /// A `break` to `brk`, setting the loop's "left by `break`" flag when it has one.
    pub(super) fn leave_loop(&mut self, brk: Block, broke: Option<Var>) {
        if let Some(flag) = broke {
            let t = self.konst(Const::Bool(true));
            self.def(flag, t);
        }
        self.terminate_dead(Term::Jump(brk));
    }

    /// `return` at `s`, when the plan makes the invocation inactive there: `live` becomes
    /// false, and a loop the inactive invocations do not run is left. Whether it did.
    pub(super) fn return_inactive(&mut self, s: StmtId) -> bool {
        let Some((plan, live)) = self.live else {
            return false;
        };
        if !plan.returns.contains(&s) {
            return false;
        }
        let f = self.konst(Const::Bool(false));
        self.def(live, f);
        if let Some(l) = self.loops.last().filter(|l| !l.kept) {
            let (brk, broke) = (l.brk, l.broke);
            self.leave_loop(brk, broke);
        }
        true
    }

    /// For the loop statement being lowered: whether inactive invocations still run it, and
    /// whether a `return` in it may make the invocation inactive.
    pub(super) fn loop_plan(&self) -> (bool, bool) {
        match (self.live, self.loop_stmt) {
            (Some((plan, _)), Some(s)) => (plan.kept.contains(&s), plan.clears.contains(&s)),
            _ => (false, false),
        }
    }
}

/// Whether a statement list has a `return` that leaves (one not in the plan's `returns`).
fn leaves(ast: &Ast, body: &[StmtId], plan: &Option<&BarrierPlan>) -> bool {
    let mut work: Vec<&[StmtId]> = vec![body];
    while let Some(list) = work.pop() {
        for &s in list {
            match &ast.stmt(s).kind {
                StmtKind::Return(_) if !plan.is_some_and(|p| p.returns.contains(&s)) => {
                    return true
                }
                StmtKind::If(_, a, b) | StmtKind::While(_, a, b) | StmtKind::For(_, _, a, b) => {
                    work.extend([a.as_slice(), b.as_slice()])
                }
                StmtKind::Match(_, _, chain) => work.push(std::slice::from_ref(chain)),
                _ => {}
            }
        }
    }
    false
}

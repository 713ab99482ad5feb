//! The CFG builder: blocks, terminators, merges and joins, instructions and constants,
//! variables (definitions and reads recorded for SSA construction), and the kernel prologue
//! (launch guard, parameters). It keeps the IR function and the SSA builder's view of it in
//! step: every block, definition and read goes through here.

use super::*;

impl Lower<'_, '_> {
    pub(super) fn error(&mut self, span: Span, message: impl Into<String>) {
        self.cx.diags.push(Diagnostic::error(span, message));
    }

    pub(super) fn new_block(&mut self) -> Block {
        let b = self.b.create_block();
        self.f.blocks.push(BlockData::default());
        b
    }

    pub(super) fn switch(&mut self, b: Block) {
        self.b.switch_to_block(b);
        self.f.order.push(b);
        self.cur = b;
        // Constructs close in the order they opened: reaching a merge block closes its own.
        if self.open.last() == Some(&b) {
            self.open.pop();
        }
    }

    pub(super) fn terminate(&mut self, term: Term<Operand>) {
        for s in term.successors() {
            self.b.add_edge(self.cur, s);
            self.count_join(s);
        }
        self.f.blocks[self.cur].term = term;
    }

    pub(super) fn jump(&mut self, to: Block) {
        self.terminate(Term::Jump(to));
    }

    /// Counts a branch to `to`. A phi takes two words per incoming branch and an instruction
    /// at most 65,535 words, so past [`MAX_JOINS`] branches to one block (the `break`s or
    /// `continue`s of one loop) the module could not be written.
    pub(super) fn count_join(&mut self, to: Block) {
        let i = to.index();
        if self.joins.len() <= i {
            self.joins.resize(i + 1, 0);
        }
        self.joins[i] += 1;
        if self.joins[i] as usize > MAX_JOINS && !self.too_many_joins {
            self.too_many_joins = true;
            self.cx.diags.push(
                Diagnostic::error(
                    self.stmt_span,
                    format!("more than {MAX_JOINS} branches lead to one point, more than SPIR-V can join"),
                )
                .with_note("every `break` of a loop leads to its end, and every `continue` to its next iteration")
                .with_help("move part of the work into a @func"),
            );
        }
    }

    /// Ends the current block with `term` and continues in a block nothing reaches.
    pub(super) fn terminate_dead(&mut self, term: Term<Operand>) {
        self.terminate(term);
        let dead = self.new_block();
        self.switch(dead);
    }

    /// Makes the current block the header of a construct that ends at `merge`'s merge block.
    /// A block heads at most one construct: a loop header's own branch must not open a
    /// selection (`needs_blocks` moves such a condition into a block of its own).
    pub(super) fn set_merge(&mut self, merge: Merge) {
        debug_assert!(
            matches!(self.f.blocks[self.cur].merge, Merge::None) || matches!(merge, Merge::None),
            "a block would head two constructs"
        );
        self.f.blocks[self.cur].merge = merge;
        let end = match merge {
            Merge::Selection(m) | Merge::Loop { merge: m, .. } => m,
            Merge::None => return,
        };
        self.open.push(end);
        if self.open.len() > MAX_CONSTRUCT_DEPTH && !self.too_deep {
            self.too_deep = true;
            self.cx.diags.push(
                Diagnostic::error(
                    self.stmt_span,
                    format!("control flow nested more than {MAX_CONSTRUCT_DEPTH} levels deep, more than SPIR-V allows"),
                )
                .with_note("each enclosing `if`/`elif`, loop, lazy `and`/`or`, chained comparison and conditional expression counts one level; a long `elif` chain counts one level per branch when a branch has a `break` or `continue` for an enclosing loop")
                .with_help("move part of the work into a @func, or split the chain"),
            );
        }
    }

    pub(super) fn emit(
        &mut self,
        op: Op,
        ty: Option<Ty>,
        args: impl AsRef<[Operand]>,
        span: Span,
    ) -> Value {
        let v = Value::new(self.f.insts.len());
        self.f.insts.push(Inst {
            op,
            ty,
            args: Args::from_slice(args.as_ref()),
            span,
            var: None,
        });
        self.f.blocks[self.cur].insts.push(v);
        v
    }

    pub(super) fn val(
        &mut self,
        op: Op,
        ty: Ty,
        args: impl AsRef<[Operand]>,
        span: Span,
    ) -> Operand {
        Operand::Value(self.emit(op, Some(ty), args, span))
    }

    /// A constant: one instruction per distinct constant, in no block (the backend emits
    /// constants at module level), so equal constants are one value and phis of them fold.
    pub(super) fn konst(&mut self, c: Const) -> Operand {
        if let Some(&v) = self.consts.get(&c) {
            return Operand::Value(v);
        }
        let v = Value::new(self.f.insts.len());
        self.f.insts.push(Inst {
            op: Op::Const(c),
            ty: Some(c.ty()),
            args: Args::new(),
            span: Span::default(),
            var: None,
        });
        self.consts.insert(c, v);
        Operand::Value(v)
    }

    pub(super) fn new_var(&mut self, name: &str, ty: Ty, span: Span) -> Var {
        let v = Var::new(self.f.vars.len());
        self.f.vars.push(VarInfo {
            name: name.to_string(),
            ty,
        });
        self.var_spans.push(span);
        if !name.is_empty() {
            self.locals.insert(name.to_string(), Local::Var(v));
        }
        v
    }

    pub(super) fn def(&mut self, var: Var, op: Operand) {
        if let Operand::Value(v) = op {
            let inst = &mut self.f.insts[v];
            if inst.var.is_none() && !matches!(inst.op, Op::Const(_)) {
                inst.var = Some(var);
            }
        }
        self.b.def_var(var, op);
    }

    /// A variable's type (fixed by its first assignment).
    pub(super) fn var_ty(&self, var: Var) -> Ty {
        self.f.vars[var].ty
    }

    pub(super) fn read(&mut self, var: Var, span: Span) -> Operand {
        let op = self.b.use_var(var);
        if let Operand::Use(u) = op {
            if u.index() == self.use_spans.len() {
                self.use_spans.push(span);
            }
        }
        op
    }

    // ----- prologue ----------------------------------------------------------------------

    pub(super) fn launch_guard(&mut self) {
        let span = self.sig.span;
        let out = self.val(Op::OutsideLaunch, Ty::BOOL, [], span);
        let ret = self.new_block();
        let rest = self.new_block();
        self.set_merge(Merge::Selection(rest));
        self.terminate(Term::Branch(out, ret, rest));
        self.switch(ret);
        self.terminate(Term::Return(None));
        self.switch(rest);
    }

    pub(super) fn params(&mut self, arrays: &[ArrayId]) {
        let mut next_array = arrays.iter();
        let mut scalar = 0u32;
        for p in &self.sig.params {
            match p.kind {
                ParamKind::Value(t) => {
                    if !self.sig.is_kernel {
                        self.f.params.push(t);
                    }
                    let v = self.val(Op::Param(scalar), t, [], p.span);
                    scalar += 1;
                    let var = self.new_var(&p.name, t, p.span);
                    self.def(var, v);
                }
                ParamKind::Struct(id) => {
                    let leaves: Vec<Ty> = self.m.strukt(id).leaves.iter().map(|l| l.ty).collect();
                    let mut ops = Vec::new();
                    for t in leaves {
                        if !self.sig.is_kernel {
                            self.f.params.push(t);
                        }
                        ops.push(self.val(Op::Param(scalar), t, [], p.span));
                        scalar += 1;
                    }
                    if let Ex::Struct(v) = self.struct_value(id, ops) {
                        self.assign_struct_name(&p.name, v, p.span);
                    }
                }
                ParamKind::Array(..) | ParamKind::Records(..) => {
                    let a = *next_array.next().expect("one array per array parameter");
                    self.locals.insert(p.name.clone(), Local::Array(a));
                }
            }
        }
        self.check_lengths(arrays);
        if !self.sig.is_kernel && self.m.reaches_num_threads[self.def_index] {
            let t = Ty::Vector(Scalar::I32, 3);
            self.f.params.push(t);
            self.threads = Some(self.val(Op::Param(scalar), t, [], self.sig.span));
            scalar += 1;
        }
        // A func that reaches a barrier: whether its caller is live (see `inactive`).
        if !self.sig.is_kernel && self.m.reaches_barrier[self.def_index] {
            self.f.params.push(Ty::BOOL);
            let live = self.val(Op::Param(scalar), Ty::BOOL, [], self.sig.span);
            self.start_live(Some(live));
        } else {
            self.start_live(None);
        }
    }
}

//! The return types of funcs written without one (`def sample(x: f32):` that returns a
//! value): each is lowered once, before the kernels, in a scratch context whose `return`
//! statements record the type of what they return instead of checking it (a literal takes
//! its default type, `1` an `i32`, `0.5` an `f32`, as a local assigned one does). When
//! every `return` of a func gives the same type, that is its return type, as if annotated;
//! two that differ are an error that names both. A func whose body calls another whose
//! type is not known yet waits for it: the rounds repeat while one more is inferred (calls
//! cannot be recursive, so every func's callees come first). The scratch lowering's own
//! diagnostics are dropped: the real lowering reports them.
//!
//! Invariant: only `DefSig::ret`/`ret_tuple` of funcs with no return annotation and a
//! `return value` change, and only to a type an annotation could have given.

use super::*;

/// What one `return` gives.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Returned {
    Value(Ty),
    Tuple(TupleTy),
    /// A struct: the compiler asks for an annotation.
    Struct(StructId),
}

/// The `return`s seen while a func is probed, and whether it called a func whose return
/// type is not known yet.
#[derive(Default, Debug)]
pub(super) struct Probe {
    pub returns: Vec<(Returned, Span)>,
    pub blocked: bool,
}

/// Fills in the return type of every func with `return value`s and no annotation; the
/// errors for those whose `return`s disagree (marked `ret_unknown`).
pub fn infer_returns(ast: &Ast, info: &mut ModuleInfo, cpython: bool) -> Vec<Diagnostic> {
    let mut pending: Vec<usize> = (0..info.defs.len())
        .filter(|&d| {
            let sig = &info.defs[d];
            !sig.is_kernel
                && !sig.is_generic()
                && !sig.ret_unknown
                && sig.ret.is_none()
                && info.def(ast, d).returns.is_none()
                && returns_value(ast, sig.item)
        })
        .collect();
    let mut diags = Vec::new();
    while !pending.is_empty() {
        let mut found = Vec::new();
        let mut waiting = Vec::new();
        for &d in &pending {
            match probe(ast, info, d, cpython) {
                None => waiting.push(d),
                Some(returns) => found.push((d, returns)),
            }
        }
        if found.is_empty() {
            // The rest call one another (recursion, which lowering reports) or funcs that
            // failed: they keep no return type.
            break;
        }
        for (d, returns) in found {
            match agree(info, d, &returns) {
                Ok(Some(r)) => set_return(info, d, r),
                // No `return` gave a type: each value's own error (an undefined name)
                // says why, and nothing more is said of the func's return.
                Ok(None) => info.defs[d].ret_unknown = true,
                Err(e) => {
                    diags.push(e);
                    info.defs[d].ret_unknown = true;
                }
            }
        }
        pending = waiting;
    }
    diags
}

/// The `return`s of func `d`, lowered in a scratch context with stand-in arrays; `None`
/// while it calls a func whose return type is not known yet.
fn probe(ast: &Ast, info: &ModuleInfo, d: usize, cpython: bool) -> Option<Vec<(Returned, Span)>> {
    let mut cx = Ctx::new(ast, info, false, cpython);
    cx.probe = Some(Probe::default());
    let arrays = cx.add_arrays(&info.defs[d]);
    let id = cx.instance(d, arrays);
    lower_function(&mut cx, id);
    let p = cx.probe.take()?;
    (!p.blocked).then_some(p.returns)
}

/// The one type the `returns` of func `d` give (`None` when none could be typed: their
/// errors come from the real lowering), or the error for two that differ.
fn agree(
    info: &ModuleInfo,
    d: usize,
    returns: &[(Returned, Span)],
) -> Result<Option<Returned>, Diagnostic> {
    let name = info.defs[d].source_name();
    let Some(&(first, first_span)) = returns.first() else {
        return Ok(None);
    };
    if let Returned::Struct(id) = first {
        let st = &info.strukt(id).name;
        return Err(Diagnostic::error(
            first_span,
            format!("`{name}` returns a {st} struct: annotate it, as in `-> {st}`"),
        )
        .with_note(
            "a func's return type is inferred for numbers, vectors, matrices and tuples of them",
        ));
    }
    for &(r, sp) in &returns[1..] {
        if r != first {
            return Err(Diagnostic::error(
                sp,
                format!(
                    "`{name}` returns {} here, but {} above",
                    describe(info, r),
                    describe(info, first)
                ),
            )
            .with_secondary(first_span, format!("this is {}", describe(info, first)))
            .with_note("a func without a return annotation returns one type: every `return` gives the same")
            .with_help("convert one of them, or annotate the return type (as in `-> f32`), to which each `return` converts"));
        }
    }
    Ok(Some(first))
}

fn describe(info: &ModuleInfo, r: Returned) -> String {
    match r {
        Returned::Value(t) => t.with_article(),
        Returned::Tuple(tt) => format!("a {}", tt.name()),
        Returned::Struct(id) => format!("a {}", info.strukt(id).name),
    }
}

fn set_return(info: &mut ModuleInfo, d: usize, r: Returned) {
    let sig = &mut info.defs[d];
    match r {
        Returned::Value(t) => sig.ret = Some(t),
        Returned::Tuple(tt) => {
            sig.ret = Some(tt.carrier());
            sig.ret_tuple = Some(tt);
        }
        Returned::Struct(_) => {}
    }
}

impl Lower<'_, '_> {
    /// Whether this is a scratch lowering that infers the function's return type.
    pub(super) fn probing(&self) -> bool {
        self.cx.probe.is_some()
    }

    /// `return v` while the return type is inferred: the type `v` gives is recorded.
    pub(super) fn probe_return(&mut self, v: ExprId) {
        let sp = self.ast.expr(v).span;
        let r = match &self.ast.expr(v).kind {
            // `return a, b`: a tuple of the items' types.
            ExprKind::Tuple(items) => {
                let mut types = Vec::with_capacity(items.len());
                for &item in &items.clone() {
                    let ex = self.expr(item);
                    match self.returned(ex) {
                        Some(Returned::Value(t)) => types.push(t),
                        _ => types.clear(),
                    }
                }
                match (types.len() == items.len(), TupleTy::new(&types)) {
                    (true, Some(tt)) if TupleTy::mixed_wide(&types).is_none() => {
                        Some(Returned::Tuple(tt))
                    }
                    _ => None,
                }
            }
            _ => {
                let ex = self.expr(v);
                self.returned(ex)
            }
        };
        if let (Some(r), Some(p)) = (r, self.cx.probe.as_mut()) {
            p.returns.push((r, sp));
        }
        self.terminate_dead(Term::Unreachable);
    }

    /// What returning `ex` gives: its type (a literal's default one).
    fn returned(&mut self, ex: Ex) -> Option<Returned> {
        match ex {
            Ex::Val(_, t) => Some(Returned::Value(t)),
            Ex::Lit(l) => l
                .default_scalar()
                .ok()
                .map(|s| Returned::Value(Ty::Scalar(s))),
            Ex::Tuple(_, tt) => Some(Returned::Tuple(tt)),
            Ex::Struct(sv) => Some(Returned::Struct(self.struct_parts(sv).0)),
            _ => None,
        }
    }

    /// A call of a func whose return type is not known yet, while probing: this func's
    /// type waits for the next round.
    pub(super) fn probe_blocked(&mut self) {
        if let Some(p) = self.cx.probe.as_mut() {
            p.blocked = true;
        }
    }
}

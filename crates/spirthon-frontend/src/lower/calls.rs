//! Calls: resolving the callee, arity, and calls of `@func`s (one instance per set of
//! arrays).

use super::*;

impl Lower<'_, '_> {
    pub(super) fn call(
        &mut self,
        func: ExprId,
        args: &[ExprId],
        keywords: &[Keyword],
        span: Span,
    ) -> Ex {
        let fexpr = self.ast.expr(func);
        if let ExprKind::Name(n) = &fexpr.kind {
            if let (false, Some(id)) = (self.is_local(n), self.m.struct_named(n)) {
                return self.construct_struct(id, args, keywords, span);
            }
        }
        if let (ExprKind::Name(n), false) = (&fexpr.kind, keywords.is_empty()) {
            if let (false, Some(Global::Def(d))) = (self.is_local(n), self.m.globals.get(n)) {
                return self.func_call(*d, args, keywords, span);
            }
        }
        if let Some(k) = keywords.first() {
            self.cx.diags.push(
                Diagnostic::error(k.span, "keyword arguments are not supported")
                    .with_note("`@func`s and struct constructors take them; built-in functions take arguments by position")
                    .with_help("pass arguments by position"),
            );
            return Ex::Err;
        }
        let is_local = |n: &str| self.is_local(n);
        if let Some((lib, item)) = self.m.lib_item(self.ast, func, &is_local) {
            let item = item.to_string();
            return match lib {
                Lib::Math => self.math_call(&item, args, span),
                Lib::Typing => {
                    self.error(
                        span,
                        format!("`{item}` is for annotations: kernels do not call it"),
                    );
                    Ex::Err
                }
                Lib::Spirthon => self.spirthon_call(&item, args, span),
            };
        }
        let ExprKind::Name(name) = &fexpr.kind else {
            self.callee_error(func);
            return Ex::Err;
        };
        if self.is_local(name) {
            self.error(
                fexpr.span,
                format!("`{name}` is a variable, not a function"),
            );
            return Ex::Err;
        }
        match self.m.globals.get(name) {
            Some(Global::Def(d)) => self.func_call(*d, args, &[], span),
            Some(Global::Opaque {
                span: def_span,
                what,
            }) => {
                let d = Diagnostic::error(
                    fexpr.span,
                    format!("`{name}` cannot be called from a kernel: it is {what}"),
                )
                .with_secondary(*def_span, format!("`{name}` is defined here"))
                .with_help("kernels can call only functions decorated with `@func`");
                self.cx.diags.push(d);
                Ex::Err
            }
            Some(_) => {
                self.error(fexpr.span, format!("`{name}` is not a function"));
                Ex::Err
            }
            None => self.builtin_call(name, args, span, fexpr.span),
        }
    }

    /// Explains why a callee that is not a plain name is not callable: `math.sqrt` without
    /// `import math`, a method of a value, or something else.
    pub(super) fn callee_error(&mut self, func: ExprId) {
        let fexpr = self.ast.expr(func);
        if let ExprKind::Attr(base, attr) = &fexpr.kind {
            let b = self.ast.expr(*base);
            if let ExprKind::Name(n) = &b.kind {
                if !self.is_local(n) && !self.m.globals.contains_key(n) {
                    let mut d = Diagnostic::error(b.span, format!("undefined name `{n}`"));
                    if n == "math" || n == "spirthon" {
                        d = d.with_help(format!("add `import {n}`"));
                    }
                    self.cx.diags.push(d);
                    return;
                }
                if self.is_local(n) {
                    self.error(
                        fexpr.span,
                        format!("`{n}.{attr}(...)`: values have no methods in kernels"),
                    );
                    return;
                }
                if let Some(Global::Opaque {
                    span: def_span,
                    what,
                }) = self.m.globals.get(n)
                {
                    self.opaque_use(n, b.span, *def_span, what);
                    return;
                }
            }
        }
        self.error(fexpr.span, "only functions can be called");
    }

    /// A use at `span` of top-level name `n`, which kernels cannot use (`what` it is,
    /// defined at `def_span`).
    pub(super) fn opaque_use(&mut self, n: &str, span: Span, def_span: Span, what: &str) {
        let d = Diagnostic::error(
            span,
            format!("`{n}` cannot be used in a kernel: it is {what}"),
        )
        .with_secondary(def_span, format!("`{n}` is defined here"));
        self.cx.diags.push(d);
    }

    pub(super) fn args(&mut self, args: &[ExprId]) -> Vec<(Ex, Span)> {
        args.iter()
            .map(|&a| (self.expr(a), self.ast.expr(a).span))
            .collect()
    }

    /// Whether an argument was already rejected (`*t`): the call's arity is then unknown,
    /// and checking it would only repeat that error.
    pub(super) fn has_rejected_arg(&self, args: &[ExprId]) -> bool {
        args.iter()
            .any(|&a| matches!(self.ast.expr(a).kind, ExprKind::Error))
    }

    pub(super) fn arity(&mut self, name: &str, args: &[ExprId], n: usize, span: Span) -> bool {
        if args.len() == n {
            return true;
        }
        if self.has_rejected_arg(args) {
            return false;
        }
        let s = if n == 1 { "" } else { "s" };
        self.error(
            span,
            format!(
                "`{name}` takes {n} argument{s}, but {}",
                if args.len() == 1 {
                    "1 was given".to_string()
                } else {
                    format!("{} were given", args.len())
                }
            ),
        );
        false
    }

    pub(super) fn func_call(
        &mut self,
        d: usize,
        args: &[ExprId],
        keywords: &[Keyword],
        span: Span,
    ) -> Ex {
        let sig = &self.m.defs[d];
        if sig.is_kernel {
            self.cx.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` is a kernel; kernels cannot be called",
                        sig.source_name()
                    ),
                )
                .with_help("move the shared code into a `@func`"),
            );
            return Ex::Err;
        }
        let Some(exs) = self.bind_args(d, args, keywords, span) else {
            return Ex::Err;
        };
        let d = match sig.is_generic() {
            true => match self.func_specialization(d, &exs) {
                Some(s) => s,
                None => return Ex::Err,
            },
            false => d,
        };
        let sig = &self.m.defs[d];
        if sig.ret.is_none() && returns_value(self.ast, sig.item) {
            // Its return type is not known yet (see `returns`), or its `return value` is
            // already reported; the call's value is unknown.
            self.probe_blocked();
            return Ex::Err;
        }
        let mut ops = Vec::new();
        let mut arrays = Vec::new();
        let mut ok = true;
        for (k, &(ex, sp)) in exs.iter().enumerate() {
            ok &= self.func_arg(d, k, ex, sp, &mut ops, &mut arrays);
        }
        if !ok {
            return Ex::Err;
        }
        if self.m.reaches_num_threads[d] {
            match self.threads_operand(span) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        if self.m.reaches_barrier[d] {
            let live = self.live_operand();
            ops.push(live);
        }
        let (ret, tuple, ret_struct) = (sig.ret, sig.ret_tuple, sig.ret_struct);
        let id = self.cx.instance(d, arrays);
        let v = self.emit(Op::Call(id), ret, ops, span);
        self.check_call(span);
        if let (Some(s), Some(tt)) = (ret_struct, tuple) {
            return self.unpack_struct(Operand::Value(v), s, tt, span);
        }
        match (ret, tuple) {
            (Some(_), Some(tt)) => Ex::Tuple(Operand::Value(v), tt),
            (Some(t), None) => Ex::Val(Operand::Value(v), t),
            (None, _) => Ex::Void,
        }
    }
    /// The specialization of generic func `d` for these arguments (in parameter order):
    /// each generic parameter takes its argument's type (a literal its default type, an
    /// array its own). `None` after an error, or when the specialization is not made yet:
    /// it is asked for (`ModuleInfo::wanted`), and the compile lowers again once it is.
    fn func_specialization(&mut self, d: usize, exs: &[(Ex, Span)]) -> Option<usize> {
        let m = self.m;
        let sig = &m.defs[d];
        let mut kinds: Vec<ParamKind> = sig.params.iter().map(|p| p.kind).collect();
        // Each generic name's type so far (an element's for `Array[T]`), and who gave it.
        let mut bound: Vec<(&str, String, usize)> = Vec::new();
        // A literal takes the scalar type its TypeVar has from another argument (`pick(x, 1)`
        // with `x` an `Array[f32]` makes `1` an `f32`), else its default type.
        let typed: Vec<(&str, Scalar)> = sig
            .generic
            .iter()
            .filter_map(|g| match (&exs[g.param].0, g.use_) {
                (Ex::Val(_, Ty::Scalar(s)), GenericUse::Value) => Some((g.var.as_str(), *s)),
                (Ex::Array(a), GenericUse::Elem(_)) => match self.cx.arrays[a.index()].elem {
                    Ty::Scalar(s) if self.record_of(*a).is_none() => Some((g.var.as_str(), s)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        for g in &sig.generic {
            let (ex, sp) = &exs[g.param];
            let p = &sig.params[g.param];
            let kind = match *ex {
                Ex::Val(_, t) => ParamKind::Value(t),
                Ex::Lit(l) => {
                    let given = typed.iter().find(|(v, _)| *v == g.var).map(|&(_, s)| s);
                    match given
                        .filter(|&s| l.to_const(s).is_ok())
                        .map(Ok)
                        .unwrap_or_else(|| l.default_scalar())
                    {
                        Ok(s) => ParamKind::Value(Ty::Scalar(s)),
                        Err(e) => {
                            self.error(*sp, e);
                            return None;
                        }
                    }
                }
                Ex::Array(a) => {
                    let dims = self.cx.arrays[a.index()].dims;
                    match self.record_of(a) {
                        Some(id) => ParamKind::Records(id, dims),
                        None => ParamKind::Array(self.cx.arrays[a.index()].elem, dims),
                    }
                }
                Ex::Struct(v) => ParamKind::Struct(self.struct_parts(v).0),
                Ex::Err => return None,
                other => {
                    self.value(other, *sp);
                    return None;
                }
            };
            let fits = match (g.use_, kind) {
                (GenericUse::Whole, _) => true,
                (GenericUse::Value, k) => matches!(k, ParamKind::Value(_) | ParamKind::Struct(_)),
                (GenericUse::Elem(n), ParamKind::Array(_, dims) | ParamKind::Records(_, dims)) => {
                    n == dims
                }
                (GenericUse::Elem(_), _) => false,
            };
            if !fits {
                let found = match kind {
                    ParamKind::Array(..) | ParamKind::Records(..) => self.param_type_name(kind),
                    ParamKind::Value(t) => t.with_article(),
                    ParamKind::Struct(id) => format!("a {}", self.struct_name(id)),
                };
                let want = match g.use_ {
                    GenericUse::Elem(n) => format!(
                        "an {}[{}]",
                        ["Array", "Array2D", "Array3D"][n as usize - 1],
                        g.var
                    ),
                    _ => format!("a value of type {}", g.var),
                };
                self.error(
                    *sp,
                    format!(
                        "parameter `{}` of `{}` takes {want}, but this is {found}",
                        p.name, sig.name
                    ),
                );
                return None;
            }
            let key = match (g.use_, kind) {
                (GenericUse::Elem(_), ParamKind::Array(t, _)) => t.name(),
                (GenericUse::Elem(_), ParamKind::Records(id, _)) => {
                    self.struct_name(id).to_string()
                }
                (_, ParamKind::Value(t)) => t.name(),
                (_, ParamKind::Struct(id)) => self.struct_name(id).to_string(),
                (_, k) => self.param_type_name(k),
            };
            match bound.iter().find(|(v, _, _)| *v == g.var) {
                Some((_, was, k)) if *was != key => {
                    let first = &sig.params[*k];
                    self.cx.diags.push(
                        Diagnostic::error(
                            *sp,
                            format!(
                                "`{}` of `{}` is {key} from argument `{}`, but {was} from argument `{}`",
                                g.var, sig.name, p.name, first.name
                            ),
                        )
                        .with_note("one TypeVar takes one type in a call")
                        .with_help("convert one of the arguments"),
                    );
                    return None;
                }
                Some(_) => {}
                None => bound.push((&g.var, key, g.param)),
            }
            kinds[g.param] = kind;
        }
        if let Some(&s) = m.func_specs.get(&(d, kinds.clone())) {
            return Some(s);
        }
        m.wanted.borrow_mut().push((d, kinds));
        self.probe_blocked();
        None
    }

    /// The arguments of a call of func `d` in parameter order, each lowered where the call
    /// writes it (positional ones, then keywords, left to right, as Python evaluates them):
    /// by position, by name, or the parameter's default (at the call's span). `None` after
    /// an error: too many, an unknown or repeated name, a missing one.
    fn bind_args(
        &mut self,
        d: usize,
        args: &[ExprId],
        keywords: &[Keyword],
        span: Span,
    ) -> Option<Vec<(Ex, Span)>> {
        let m = self.m;
        let sig = &m.defs[d];
        let n = sig.params.len();
        let required = sig.params.iter().filter(|p| p.default.is_none()).count();
        if keywords.is_empty() && required == n && args.len() != n {
            self.arity(&sig.name, args, n, span);
            return None;
        }
        if args.len() > n {
            if !self.has_rejected_arg(args) {
                self.error(
                    span,
                    format!(
                        "`{}` takes at most {n} arguments, but {} were given by position",
                        sig.name,
                        args.len()
                    ),
                );
            }
            self.args(args);
            return None;
        }
        let mut slots: Vec<Option<(Ex, Span)>> = vec![None; n];
        let mut ok = true;
        let takes_barrier = self.m.reaches_barrier[d];
        for (k, &a) in args.iter().enumerate() {
            let ex = match takes_barrier {
                true => self.barrier_arg(a),
                false => self.expr(a),
            };
            slots[k] = Some((ex, self.ast.expr(a).span));
        }
        for kw in keywords {
            let value = match takes_barrier {
                true => self.barrier_arg(kw.value),
                false => self.expr(kw.value),
            };
            let vsp = self.ast.expr(kw.value).span;
            let Some(k) = sig.params.iter().position(|p| p.name == kw.name) else {
                let names: Vec<String> =
                    sig.params.iter().map(|p| format!("`{}`", p.name)).collect();
                self.cx.diags.push(
                    Diagnostic::error(
                        kw.span,
                        format!("`{}` has no parameter `{}`", sig.source_name(), kw.name),
                    )
                    .with_note(format!("its parameters are {}", names.join(", "))),
                );
                ok = false;
                continue;
            };
            if slots[k].is_some() {
                self.error(
                    kw.span,
                    format!(
                        "`{}` got two values for parameter `{}`",
                        sig.source_name(),
                        kw.name
                    ),
                );
                ok = false;
                continue;
            }
            slots[k] = Some((value, vsp));
        }
        let mut out = Vec::with_capacity(n);
        let mut missing = Vec::new();
        for (k, slot) in slots.into_iter().enumerate() {
            let p = &sig.params[k];
            match (slot, p.default) {
                (Some(a), _) => out.push(a),
                (None, Some(lit)) => out.push((Ex::Lit(lit), span)),
                (None, None) => missing.push(format!("`{}`", p.name)),
            }
        }
        if !missing.is_empty() {
            if !self.has_rejected_arg(args) {
                let s = if missing.len() == 1 { "" } else { "s" };
                self.error(
                    span,
                    format!(
                        "`{}` is missing the argument{s} {}",
                        sig.name,
                        missing.join(", ")
                    ),
                );
            }
            return None;
        }
        ok.then_some(out)
    }

    /// Argument `ex` (at `sp`) of a call of func `d`, for its parameter `k`: a value converted
    /// into `ops`, or an array of the parameter's type into `arrays`; `false` after an error.
    fn func_arg(
        &mut self,
        d: usize,
        k: usize,
        ex: Ex,
        sp: Span,
        ops: &mut Vec<Operand>,
        arrays: &mut Vec<ArrayId>,
    ) -> bool {
        let m = self.m;
        let (sig, p) = (&m.defs[d], &m.defs[d].params[k]);
        match p.kind {
            ParamKind::Value(t) => {
                if let Ex::Array(a) = ex {
                    let found = self.array_type_of(a);
                    let msg = format!(
                        "parameter `{}` of `{}` takes one {t}, but this is an {found}",
                        p.name,
                        sig.source_name()
                    );
                    self.cx.diags.push(Diagnostic::error(sp, msg).with_help(
                        "pass one element (`a[i]`), or declare the parameter `Array[...]`",
                    ));
                    return false;
                }
                let what = format!(
                    "passed to parameter `{}` of `{}`",
                    p.name,
                    sig.source_name()
                );
                match self.coerce(ex, t, sp, &what) {
                    Some(o) => ops.push(o),
                    None => return false,
                }
            }
            ParamKind::Struct(id) => {
                let what = format!(
                    "passed to parameter `{}` of `{}`",
                    p.name,
                    sig.source_name()
                );
                match self.struct_arg(id, ex, sp, &what) {
                    Some(leaves) => ops.extend(leaves),
                    None => return false,
                }
            }
            ParamKind::Array(..) | ParamKind::Records(..) => match ex {
                Ex::Array(a) if self.array_param_fits(a, p.kind) => arrays.push(a),
                Ex::Array(a) => {
                    let (want, found) = (self.param_type_name(p.kind), self.array_type_of(a));
                    self.error(
                        sp,
                        format!(
                            "parameter `{}` of `{}` is an {want}, but this is an {found}",
                            p.name,
                            sig.source_name()
                        ),
                    );
                    return false;
                }
                Ex::Err => return false,
                _ => {
                    self.error(
                        sp,
                        format!(
                            "parameter `{}` of `{}` needs an array",
                            p.name,
                            sig.source_name()
                        ),
                    );
                    return false;
                }
            },
        }
        true
    }

    /// Whether array `a` is what an array parameter of kind `kind` takes.
    fn array_param_fits(&self, a: ArrayId, kind: ParamKind) -> bool {
        let g = &self.cx.arrays[a.index()];
        match kind {
            ParamKind::Array(t, dims) => {
                self.record_of(a).is_none() && g.elem == t && g.dims == dims
            }
            ParamKind::Records(id, dims) => self.record_of(a) == Some(id) && g.dims == dims,
            _ => false,
        }
    }

    /// `Array[f32]`, `Array2D[Particle]`: an array's type as written.
    pub(super) fn array_type_of(&self, a: ArrayId) -> String {
        let g = &self.cx.arrays[a.index()];
        match self.record_of(a) {
            Some(id) => match g.dims {
                1 => format!("Array[{}]", self.struct_name(id)),
                d => format!("Array{d}D[{}]", self.struct_name(id)),
            },
            None => array_type_name(g.elem, g.dims),
        }
    }

    /// An array parameter's type as written.
    fn param_type_name(&self, kind: ParamKind) -> String {
        match kind {
            ParamKind::Records(id, 1) => format!("Array[{}]", self.struct_name(id)),
            ParamKind::Records(id, d) => format!("Array{d}D[{}]", self.struct_name(id)),
            ParamKind::Array(t, d) => array_type_name(t, d),
            ParamKind::Struct(id) => self.struct_name(id).to_string(),
            ParamKind::Value(t) => t.name(),
        }
    }
}

//! Expressions: names, attributes, array indexing, and the purity and block-need
//! predicates that decide how an expression is lowered.

use super::*;

impl Lower<'_, '_> {
    pub(super) fn is_local(&self, name: &str) -> bool {
        self.assigned.contains(name) || self.locals.contains_key(name)
    }

    /// Whether `e` names Python's built-in `name` (no local or module name hides it).
    pub(super) fn is_builtin(&self, e: ExprId, name: &str) -> bool {
        matches!(&self.ast.expr(e).kind, ExprKind::Name(n) if n == name && !self.is_local(n) && !self.m.globals.contains_key(n))
    }

    /// Whether one of `items` is an expression the parser already reported (`*rest`), so that
    /// a count of targets or values would only repeat that error.
    pub(super) fn has_error_item(&self, items: &[ExprId]) -> bool {
        items
            .iter()
            .any(|&e| matches!(self.ast.expr(e).kind, ExprKind::Error))
    }

    /// Whether `e` assigns a name (holds an assignment expression `(name := value)`).
    pub(super) fn has_walrus(&self, e: ExprId) -> bool {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                ExprKind::Walrus(..) => return true,
                kind => kind.children(|c| work.push(c)),
            }
        }
        false
    }

    /// Whether evaluating `e` has no effect and cannot fault, so it may be evaluated
    /// whether or not Python would (a select instead of a branch). In checked mode `//` and
    /// `%` can fail (a zero divisor), so they are not.
    pub(super) fn is_pure(&self, e: ExprId) -> bool {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                // An assignment happens only where Python evaluates it.
                ExprKind::Subscript(..) | ExprKind::Walrus(..) => return false,
                ExprKind::Binary(BinaryOp::FloorDiv | BinaryOp::Mod, ..) if self.cx.checked => {
                    return false
                }
                ExprKind::Call { func, args, .. } => {
                    if let ExprKind::Name(n) = &self.ast.expr(*func).kind {
                        if matches!(self.m.globals.get(n), Some(Global::Def(_))) {
                            return false;
                        }
                    }
                    // Built-ins that act: atomics, barriers, draws that advance a stream,
                    // subgroup operations (which act with the other invocations).
                    let is_local = |n: &str| self.is_local(n);
                    if let Some((Lib::Spirthon, item)) = self.m.lib_item(self.ast, *func, &is_local)
                    {
                        if item.starts_with("atomic_")
                            || subgroups::is_subgroup(item)
                            || random::is_draw(item)
                            || item == "barrier"
                        {
                            return false;
                        }
                    }
                    work.extend(args.iter().copied());
                }
                kind => kind.children(|c| work.push(c)),
            }
        }
        true
    }

    /// Whether lowering `e` as a condition creates blocks (then a `while` loop evaluates it
    /// in a block of its own, since its header's one merge is the loop's). In checked mode
    /// every access, division and call is checked with a branch of its own. It may say yes
    /// where no block is made; it must never say no where one is.
    pub(super) fn needs_blocks(&self, e: ExprId) -> bool {
        if self.cx.checked && !self.is_pure(e) {
            return true;
        }
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                ExprKind::BoolOp(_, v) => {
                    if v[1..].iter().any(|&x| !self.is_pure(x)) {
                        return true;
                    }
                    work.extend(v.iter().copied());
                }
                // In a test position (the condition itself, an operand of `and`/`or`/`not`
                // there, or the test of another conditional expression) a conditional
                // expression is always a branch (`test_if_exp`).
                ExprKind::IfExp(..) => return true,
                ExprKind::Compare(a, rest) => {
                    if rest.len() > 1 && rest[1..].iter().any(|r| !self.is_pure(r.1)) {
                        return true;
                    }
                    work.push(*a);
                    work.extend(rest.iter().map(|r| r.1));
                }
                ExprKind::Call { args, .. } => work.extend(args.iter().copied()),
                kind => kind.children(|c| work.push(c)),
            }
        }
        false
    }

    pub(super) fn expr(&mut self, e: ExprId) -> Ex {
        let expr = self.ast.expr(e);
        let span = expr.span;
        match &expr.kind {
            ExprKind::Int(i) => Ex::Lit(Lit::Int(*i)),
            ExprKind::Float(f) => Ex::Lit(Lit::Float(*f)),
            ExprKind::Bool(b) => Ex::Lit(Lit::Bool(*b)),
            ExprKind::None => {
                self.error(span, "`None` is not a value in kernels");
                Ex::Err
            }
            ExprKind::Name(n) => self.name(n, span),
            ExprKind::Attr(base, attr) => self.attr(e, *base, attr, span),
            ExprKind::Subscript(base, index) => {
                let (base, index) = (*base, *index);
                if let ExprKind::Attr(arr, attr) = &self.ast.expr(base).kind {
                    if attr == "shape" {
                        return self.shape_item(*arr, index, span);
                    }
                }
                if let Some(r) = self.row_item(base, index, span) {
                    return r;
                }
                if let Some(r) = self.struct_array_item(base, index, span) {
                    return r;
                }
                let base_span = self.ast.expr(base).span;
                let b = self.expr(base);
                if let Ex::Val(o, t @ (Ty::Vector(..) | Ty::Quat)) = b {
                    return self.vector_item(o, t, index, span);
                }
                if let Ex::Val(o, Ty::Matrix(s, n)) = b {
                    return self.matrix_item(o, s, n, index, span);
                }
                if let Ex::Tuple(o, tt) = b {
                    return self.indexed_tuple(o, tt, index, span);
                }
                let Some(a) = self.array_from(b, base_span) else {
                    return Ex::Err;
                };
                // `TABLE[k]` with a constant `k` in range is the item itself.
                if self.cx.arrays[a.index()].constant().is_some() {
                    let is_local = |n: &str| self.is_local(n);
                    if let Ok(Some(l)) = self.m.const_eval(self.ast, e, &is_local) {
                        return Ex::Lit(l);
                    }
                }
                let Some(i) = self.index(a, index) else {
                    return Ex::Err;
                };
                self.check_index(a, &i, span);
                if self.record_of(a).is_some() {
                    return self.load_record(a, &i, span);
                }
                let elem = self.cx.arrays[a.index()].elem;
                Ex::Val(self.val(Op::Load(a), elem, [i.flat], span), elem)
            }
            ExprKind::Call {
                func,
                args,
                keywords,
            } => self.call(*func, args, keywords, span),
            ExprKind::Unary(op, a) => {
                // `not x` looks only at the truth of `x`.
                let x = if *op == UnaryOp::Not {
                    self.test_ex(*a)
                } else {
                    self.expr(*a)
                };
                self.unary(*op, x, span)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(*a);
                let y = self.expr(*b);
                self.binary(
                    *op,
                    x,
                    y,
                    self.ast.expr(*a).span,
                    self.ast.expr(*b).span,
                    span,
                )
            }
            ExprKind::BoolOp(is_and, values) => self.bool_op(*is_and, values, span, false),
            ExprKind::Compare(left, rest) => self.compare_chain(*left, rest, span),
            ExprKind::IfExp(test, body, orelse) => self.if_exp(*test, *body, *orelse, span),
            ExprKind::Walrus(target, value) => self.walrus(*target, *value),
            ExprKind::Tuple(_) => {
                self.error(
                    span,
                    "a tuple is not a value in kernels (only on either side of `=`)",
                );
                Ex::Err
            }
            ExprKind::Str(_) | ExprKind::FString(_) => {
                self.error(
                    span,
                    "strings are not supported in kernels: only `print` takes them",
                );
                Ex::Err
            }
            ExprKind::Error => Ex::Err,
        }
    }

    /// `(name := value)`: an assignment to `name` as `name = value` makes it (the type rules
    /// of a local's assignments), whose value is then the name's.
    fn walrus(&mut self, target: ExprId, value: ExprId) -> Ex {
        let x = self.expr(value);
        if matches!(x, Ex::Err) {
            return Ex::Err;
        }
        // An assignment reports only errors (lowering's one warning is a def's).
        let before = self.cx.diags.len();
        self.assign_to(target, x, self.ast.expr(value).span);
        if self.cx.diags.len() > before {
            // The assignment was refused: the name's old value is no value of this.
            return Ex::Err;
        }
        self.expr(target)
    }

    pub(super) fn name(&mut self, n: &str, span: Span) -> Ex {
        match self.locals.get(n).copied() {
            Some(Local::Var(v)) => return Ex::Val(self.read(v, span), self.var_ty(v)),
            Some(Local::Array(a)) => return Ex::Array(a),
            Some(Local::Struct(k)) => return self.read_struct_local(k, span),
            Some(Local::StructArray(_)) => {
                let d = Diagnostic::error(span, format!("`{n}` is an array of structs: kernels index it (`{n}[i]`, `{n}[i].field`) or take its `len`"))
                    .with_help("it cannot be passed to a func or used as a value");
                self.cx.diags.push(d);
                return Ex::Err;
            }
            None => {}
        }
        if self.poisoned.contains(n) {
            return Ex::Err;
        }
        if let Some(&created) = self.scoped_out.get(n) {
            self.cx.diags.push(
                Diagnostic::error(
                    span,
                    format!("`{n}` is a local array created inside a block that has ended"),
                )
                .with_label("used here, after that block")
                .with_secondary(
                    created,
                    "created here: usable only to the end of this block",
                )
                .with_help(format!(
                    "create `{n}` before the `if` or the loop that uses it after"
                )),
            );
            self.poisoned.insert(n.to_string());
            return Ex::Err;
        }
        if self.assigned.contains(n) {
            self.cx.diags.push(
                Diagnostic::error(span, format!("`{n}` may be used before it is assigned"))
                    .with_label(format!("`{n}` is not assigned on every path to here")),
            );
            // One error for the name: its later reads before the assignment say no more.
            self.poisoned.insert(n.to_string());
            return Ex::Err;
        }
        match self.m.globals.get(n) {
            Some(Global::Const { lit, ty: None, .. }) => Ex::Lit(*lit),
            Some(Global::Const {
                lit, ty: Some(s), ..
            }) => match lit.to_const(*s) {
                Ok(c) => Ex::Val(self.konst(c), Ty::Scalar(*s)),
                Err(_) => Ex::Err,
            },
            Some(Global::Table { items, elem, .. }) => Ex::Array(self.cx.table(n, items, *elem)),
            Some(Global::Vector { ty, comps, .. }) => {
                let (ty, comps) = (*ty, comps.clone());
                let parts: Vec<Operand> = comps.iter().map(|&c| self.konst(c)).collect();
                Ex::Val(self.val(Op::Construct, ty, parts, span), ty)
            }
            Some(Global::Rows { columns, .. }) => {
                let width = columns.len();
                let names: Vec<String> = ["a", "b", "c", "d"][..width]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                self.cx.diags.push(
                    Diagnostic::error(span, format!("`{n}` is a tuple of tuples: kernels loop over it or unpack its rows, but cannot use it as a value"))
                        .with_help(format!("`for {} in {n}:` (or `for k, ({}) in enumerate({n}):`), or `{} = {n}[k]`", names.join(", "), names.join(", "), names.join(", "))),
                );
                Ex::Err
            }
            Some(Global::Opaque {
                span: def_span,
                what,
            }) => {
                self.opaque_use(n, span, *def_span, what);
                Ex::Err
            }
            Some(Global::Item(Lib::Math, item)) if crate::module::math_const(item).is_some() => {
                Ex::Lit(Lit::Float(crate::module::math_const(item).unwrap_or(0.0)))
            }
            Some(_) => {
                self.error(span, format!("`{n}` is not a value"));
                Ex::Err
            }
            None => {
                self.error(span, format!("undefined name `{n}`"));
                Ex::Err
            }
        }
    }

    pub(super) fn attr(&mut self, e: ExprId, base: ExprId, attr: &str, span: Span) -> Ex {
        let is_local = |n: &str| self.is_local(n);
        if let Some((lib, item)) = self.m.lib_item(self.ast, e, &is_local) {
            if lib == Lib::Math {
                if let Ok(Some(l)) = self.m.const_eval(self.ast, e, &is_local) {
                    return Ex::Lit(l);
                }
            }
            let item = item.to_string();
            self.error(span, format!("`{item}` must be called"));
            return Ex::Err;
        }
        if let ExprKind::Name(n) = &self.ast.expr(base).kind {
            if !self.is_local(n) && matches!(self.m.globals.get(n), Some(Global::Module(_))) {
                self.error(span, format!("`{n}` has no `{attr}` that kernels can use"));
                return Ex::Err;
            }
        }
        let b = self.expr(base);
        match b {
            Ex::Val(o, t @ (Ty::Vector(..) | Ty::Quat)) => self.swizzle(o, t, attr, span),
            Ex::Struct(v) => self.struct_field(v, attr, span),
            Ex::Err => Ex::Err,
            Ex::Array(a) if attr == "shape" && self.cx.arrays[a.index()].dims > 1 => {
                let dims = self.cx.arrays[a.index()].dims;
                let axes = (0..dims)
                    .map(|k| self.axis_operand(a, k, span))
                    .collect::<Vec<_>>();
                let t = Ty::Vector(Scalar::I32, dims as u8);
                Ex::Val(self.val(Op::Construct, t, axes, span), t)
            }
            Ex::Array(_) if attr == "shape" => {
                self.cx.diags.push(
                    Diagnostic::error(span, "a one-dimensional array's shape is `len(a)`")
                        .with_help("`a.shape[0]` also works; `Array2D` and `Array3D` have a `.shape` of 2 or 3 ints"),
                );
                Ex::Err
            }
            Ex::Array(_) => {
                self.cx.diags.push(
                    Diagnostic::error(span, format!("an array has no attribute `{attr}`"))
                        .with_help("an array has `a[i]`, `a[i] = v` and `len(a)`"),
                );
                Ex::Err
            }
            _ => {
                self.error(span, format!("no attribute `{attr}` here: only vectors have components (`.x`, `.y`, `.z`) and structs fields"));
                Ex::Err
            }
        }
    }

    pub(super) fn array_of(&mut self, base: ExprId) -> Option<ArrayId> {
        let sp = self.ast.expr(base).span;
        let b = self.expr(base);
        self.array_from(b, sp)
    }

    /// The array that `b` (the value of the expression at `sp`) is, or an error.
    pub(super) fn array_from(&mut self, b: Ex, sp: Span) -> Option<ArrayId> {
        match b {
            Ex::Array(a) => Some(a),
            Ex::Err => None,
            Ex::Val(_, t @ Ty::Vector(..)) => {
                self.cx.diags.push(
                    Diagnostic::error(sp, format!("{} cannot be indexed", t.with_article()))
                        .with_help(
                            "use its components: `.x`, `.y`, `.z`, `.w`, as in `global_id().x`",
                        ),
                );
                None
            }
            _ => {
                self.error(sp, "only arrays can be indexed");
                None
            }
        }
    }

    /// `A.shape[k]` with a constant `k` (for a one-dimensional array, `shape[0]` is `len`).
    fn shape_item(&mut self, arr: ExprId, index: ExprId, span: Span) -> Ex {
        let a = match self.expr(arr) {
            Ex::Array(a) => a,
            Ex::Err => return Ex::Err,
            _ => {
                self.error(self.ast.expr(arr).span, "only arrays have a `.shape`");
                return Ex::Err;
            }
        };
        let dims = self.cx.arrays[a.index()].dims;
        // A tuple, as in NumPy: `A.shape[-1]` is the last axis.
        let k = match self
            .m
            .const_eval(self.ast, index, &|n: &str| self.is_local(n))
        {
            Ok(Some(Lit::Int(k))) => lit::sequence_index(k, dims as usize),
            _ => None,
        };
        let k = match k {
            Some(k) => k as u32,
            None => {
                let name = self.cx.arrays[a.index()].name.clone();
                self.error(
                    self.ast.expr(index).span,
                    format!(
                        "`{name}.shape` has {dims} item(s): index it with a constant from 0 to {} (or from -{dims} to -1)",
                        dims - 1
                    ),
                );
                return Ex::Err;
            }
        };
        if dims == 1 {
            return self.len_of(a, span);
        }
        if let Some(n) = self.cx.arrays[a.index()].known_axis(k) {
            return Ex::Lit(Lit::Int(n as i128));
        }
        Ex::Val(self.axis_operand(a, k, span), Ty::I32)
    }

    /// The length of axis `k` of `a`: a constant where the compiler knows it (a shared
    /// array's, a constant table's), else read at run time.
    pub(super) fn axis_operand(&mut self, a: ArrayId, k: u32, span: Span) -> Operand {
        let g = &self.cx.arrays[a.index()];
        if let Some(n) = g.known_axis(k) {
            return self.konst(Const::I32(n as i32));
        }
        let op = if g.dims > 1 {
            Op::ArrayShape(a, k)
        } else {
            Op::ArrayLen(a)
        };
        self.val(op, Ty::I32, [], span)
    }

    /// `len(a)`: the element count, or the first axis of a multi-dimensional array.
    pub(super) fn len_of(&mut self, a: ArrayId, span: Span) -> Ex {
        if let Some(n) = self.cx.arrays[a.index()].known_axis(0) {
            return Ex::Lit(Lit::Int(n as i128));
        }
        Ex::Val(self.axis_operand(a, 0, span), Ty::I32)
    }

    /// `e` where it counts (an index, a `range` argument): a narrow int (`u8`, …) as its
    /// `i32` value, which holds every one (Python's ints do not wrap at 8 bits), anything
    /// else as it is.
    pub(super) fn count_expr(&mut self, e: ExprId) -> Ex {
        match self.expr(e) {
            Ex::Val(o, t) if t.as_scalar().is_some_and(Scalar::is_narrow) => {
                let sp = self.ast.expr(e).span;
                Ex::Val(self.val(Op::Convert, Ty::I32, [o], sp), Ty::I32)
            }
            ex => ex,
        }
    }

    /// An `i64`/`u64` index `o` (of type `t`) as an `i32`, clamped to the `i32` range, so
    /// that an index out of every array's range stays out of range (an array holds fewer
    /// than 2**31 elements) rather than wrapping onto an element.
    pub(super) fn saturated_i32(&mut self, o: Operand, t: Ty, sp: Span) -> Operand {
        let s = t.scalar();
        let bound = |v: i32| {
            if s == Scalar::I64 {
                Const::I64(v.into())
            } else {
                Const::U64(v as u64)
            }
        };
        let hi = self.konst(bound(i32::MAX));
        let mut x = self.val(Op::Math(MathFn::Min), t, [o, hi], sp);
        if s == Scalar::I64 {
            let lo = self.konst(bound(i32::MIN));
            x = self.val(Op::Math(MathFn::Max), t, [x, lo], sp);
        }
        self.val(Op::Convert, Ty::I32, [x], sp)
    }

    /// The flat element index of `a[index]`: one integer for a one-dimensional array, or one
    /// per axis (`A[i, j]`, row-major) for an `Array2D`/`Array3D`; with each axis's own index
    /// for checked mode ([`Lower::check_index`]).
    pub(super) fn index(&mut self, a: ArrayId, index: ExprId) -> Option<Index> {
        let dims = self.cx.arrays[a.index()].dims;
        let parts: Vec<ExprId> = match &self.ast.expr(index).kind {
            ExprKind::Tuple(items) => items.clone(),
            _ => vec![index],
        };
        let sp = self.ast.expr(index).span;
        if parts.len() as u32 != dims {
            let name = &self.cx.arrays[a.index()].name;
            let d = if dims == 1 {
                Diagnostic::error(sp, format!("`{name}` is one-dimensional: index it with one integer"))
                    .with_help("declare the parameter `Array2D[T]` (or `Array3D[T]`) to index it as `a[i, j]`, or index a flat array as `a[i * width + j]`")
            } else {
                let axes = ["i", "j", "k"][..dims as usize].join(", ");
                Diagnostic::error(
                    sp,
                    format!("`{name}` has {dims} dimensions: index it as `{name}[{axes}]`"),
                )
            };
            self.cx.diags.push(d);
            return None;
        }
        if dims == 1 {
            let (i, t) = self.index_part(index)?;
            return Some(Index {
                flat: i,
                axes: vec![(i, t, sp)],
            });
        }
        let mut flat: Option<Operand> = None;
        let mut axes = Vec::new();
        for (k, &p) in parts.iter().enumerate() {
            let psp = self.ast.expr(p).span;
            if let Ok(Some(Lit::Int(n))) =
                self.m.const_eval(self.ast, p, &|n: &str| self.is_local(n))
            {
                if n < 0 {
                    self.cx.diags.push(
                        Diagnostic::error(psp, format!("index {n} is out of range"))
                            .with_note("kernels do not wrap negative indices as Python lists do"),
                    );
                    return None;
                }
                let g = &self.cx.arrays[a.index()];
                if let Some(len) = g.known_axis(k as u32).filter(|&len| n >= i128::from(len)) {
                    let name = g.name.clone();
                    self.cx.diags.push(
                        Diagnostic::error(
                            psp,
                            format!("index {n} is out of range for axis {k} of `{name}`"),
                        )
                        .with_label(format!("axis {k} of `{name}` has length {len}")),
                    );
                    return None;
                }
            }
            let (raw, t) = self.index_part(p)?;
            axes.push((raw, t, psp));
            let i = match t {
                Ty::Scalar(Scalar::U32) => self.val(Op::Convert, Ty::I32, [raw], sp),
                _ => raw,
            };
            flat = Some(match flat {
                None => i,
                Some(f) => {
                    let s = self.axis_operand(a, k as u32, sp);
                    let m = self.val(Op::Binary(BinOp::Mul), Ty::I32, [f, s], sp);
                    self.val(Op::Binary(BinOp::Add), Ty::I32, [m, i], sp)
                }
            });
        }
        flat.map(|flat| Index { flat, axes })
    }

    /// One integer index.
    fn index_part(&mut self, index: ExprId) -> Option<(Operand, Ty)> {
        let sp = self.ast.expr(index).span;
        match self.count_expr(index) {
            Ex::Val(o, t) if t.as_scalar().is_some_and(Scalar::is_int64) => {
                Some((self.saturated_i32(o, t, sp), Ty::I32))
            }
            Ex::Val(o, t) if t.as_scalar().is_some_and(Scalar::is_int) => Some((o, t)),
            Ex::Lit(l @ Lit::Int(_)) => match l.to_const(Scalar::I32) {
                Ok(c) => Some((self.konst(c), Ty::I32)),
                Err(e) => {
                    self.error(sp, e);
                    None
                }
            },
            Ex::Err => None,
            Ex::Val(_, t) => {
                self.cx.diags.push(
                    Diagnostic::error(sp, format!("an array index must be an integer, not {t}"))
                        .with_help("convert it with `int(...)`"),
                );
                None
            }
            _ => {
                self.error(sp, "an array index must be an integer");
                None
            }
        }
    }
}

//! Workgroup and private memory, synchronisation and atomics: `shared_array(T, N)`,
//! `local_array(T, N)`, `barrier()`, the `atomic_*` functions, and the launch size
//! `num_threads()`; and the rule that a kernel that reaches a barrier (itself or through the
//! funcs it calls) gets no implicit launch guard.
//!
//! A shared or local array is a module array with a length and no binding
//! ([`Memory::Workgroup`], [`Memory::Local`]): loads, stores, `len()` and passing it to a func
//! work as for a buffer, atomics on shared arrays too. A local array is a module variable in
//! private memory, which is per invocation; funcs cannot recurse, so one variable per
//! `local_array` call of each function instance is never live twice. `Op::Clear` zeroes it
//! where the call runs, so it starts as the reference executor's does, and the name is
//! usable to the end of the statement list it was created in (`Lower::stmts`).

use super::*;
use spirthon_ir::AtomicOp;

/// The most workgroup memory a kernel may declare: 32 KiB, what most devices give (Vulkan
/// guarantees 16 KiB).
const MAX_SHARED_BYTES: u64 = 32 * 1024;

/// The most one `local_array` may hold: 16 KiB per invocation.
const MAX_LOCAL_BYTES: u64 = 16 * 1024;

/// The two arrays a function body creates: `shared_array` (one per workgroup) and
/// `local_array` (one per invocation).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Fixed {
    Shared,
    Local,
}

impl Fixed {
    pub(super) fn named(item: &str) -> Option<Fixed> {
        match item {
            "shared_array" => Some(Fixed::Shared),
            "local_array" => Some(Fixed::Local),
            _ => None,
        }
    }
    /// The function that creates it.
    pub(super) fn call(self) -> &'static str {
        match self {
            Fixed::Shared => "shared_array",
            Fixed::Local => "local_array",
        }
    }
    /// What it is called in a message.
    fn what(self) -> &'static str {
        match self {
            Fixed::Shared => "shared array",
            Fixed::Local => "local array",
        }
    }
}

impl Lower<'_, '_> {
    /// `name = shared_array(T, N)` (or `(H, W)`, `(D, H, W)`), a statement at the top level
    /// of a kernel body; `name = local_array(T, N)` anywhere in a kernel or func body, usable
    /// to the end of the statement list it stands in and zeroed each time it runs.
    pub(super) fn fixed_array_stmt(
        &mut self,
        kind: Fixed,
        target: ExprId,
        call: ExprId,
        args: &[ExprId],
    ) {
        let span = self.ast.expr(call).span;
        let t = self.ast.expr(target);
        let top_level = self.sig.is_kernel && self.open.is_empty() && self.loops.is_empty();
        if kind == Fixed::Shared && !top_level {
            let where_ = if self.sig.is_kernel {
                "inside a loop or a branch"
            } else {
                "in a func"
            };
            self.cx.diags.push(
                Diagnostic::error(span, format!("`shared_array` cannot be created {where_}"))
                    .with_note("a shared array is created once per workgroup, at the top level of a kernel body")
                    .with_help("create it at the top of the kernel and pass it to funcs as an `Array[T]` parameter"),
            );
            return;
        }
        let what = kind.what();
        let ExprKind::Name(name) = &t.kind else {
            self.error(t.span, format!("a {what} must be assigned to a plain name"));
            return;
        };
        if self.locals.contains_key(name) {
            self.error(
                t.span,
                format!("`{name}` is already defined; a {what} needs a name of its own"),
            );
            return;
        }
        if !self.arity(kind.call(), args, 2, span) {
            return;
        }
        if let Ok(crate::module::Ann::Struct(id)) = self.m.annotation(self.ast, args[0]) {
            let name = name.clone();
            return self.struct_fixed_array(kind, name, id, args[1], t.span, span);
        }
        let Some(elem) = self.fixed_array_elem(kind, args[0]) else {
            return;
        };
        let Some(shape) = self.fixed_array_shape(kind, args[1]) else {
            return;
        };
        let len = shape.iter().fold(1u64, |a, &n| a.saturating_mul(n));
        let fits = match kind {
            Fixed::Shared => self.fits_workgroup_memory(len, elem, span),
            Fixed::Local => self.fits_private_memory(len, elem, span),
        };
        if !fits {
            return;
        }
        let id = self.fixed_array(kind, name, elem, &shape, t.span, span);
        self.locals.insert(name.clone(), Local::Array(id));
    }

    /// A new shared or local array of `elem`s (zeroed where a local one is created), not
    /// yet bound to a name.
    pub(super) fn fixed_array(
        &mut self,
        kind: Fixed,
        name: &str,
        elem: Ty,
        shape: &[u64],
        target_span: Span,
        span: Span,
    ) -> ArrayId {
        let len = shape.iter().fold(1u64, |a, &n| a.saturating_mul(n));
        let id = ArrayId(self.cx.arrays.len() as u32);
        let dims = shape.len() as u32;
        let len = len as u32;
        self.cx.arrays.push(GlobalArray {
            memory: match kind {
                Fixed::Shared => Memory::Workgroup(len),
                Fixed::Local => Memory::Local(len),
            },
            fixed_shape: if dims > 1 {
                shape.iter().map(|&n| n as u32).collect()
            } else {
                Vec::new()
            },
            dims,
            ..GlobalArray::buffer(name.to_string(), elem, 0)
        });
        if kind == Fixed::Local {
            self.emit(Op::Clear(id), None, [], span);
            self.local_arrays.push((name.to_string(), target_span));
        }
        id
    }

    /// A shared or local array's element type, from the creating call's first argument.
    fn fixed_array_elem(&mut self, kind: Fixed, arg: ExprId) -> Option<Ty> {
        match self.m.annotation(self.ast, arg) {
            Ok(crate::module::Ann::Value(t)) if t.scalar() != Scalar::Bool => Some(t),
            Ok(_) => {
                self.error(
                    self.ast.expr(arg).span,
                    format!(
                        "a {}'s element type is a number type, a vector, a matrix or a struct",
                        kind.what()
                    ),
                );
                None
            }
            Err(d) => {
                self.cx.diags.push(d);
                None
            }
        }
    }

    /// A shared or local array's shape: `N`, or `(H, W)` / `(D, H, W)` for a row-major two-
    /// or three-dimensional array, each a positive integer constant.
    pub(super) fn fixed_array_shape(&mut self, kind: Fixed, arg: ExprId) -> Option<Vec<u64>> {
        let is_local = |n: &str| self.is_local(n);
        let parts = match self.m.size_items(self.ast, arg, &is_local) {
            Some(items) if (2..=3).contains(&items.len()) => items,
            _ => vec![self.m.size_item(self.ast, arg, &is_local)],
        };
        let mut shape = Vec::new();
        for part in parts {
            match part.value {
                Ok(Some(Lit::Int(n))) if (1..=i128::from(i32::MAX)).contains(&n) => {
                    shape.push(n as u64)
                }
                Ok(_) => {
                    let note = match kind {
                        Fixed::Shared => "workgroup memory is allocated before the kernel runs",
                        Fixed::Local => {
                            "each invocation's private memory is allocated before the kernel runs"
                        }
                    };
                    self.cx.diags.push(
                        part.error(format!(
                            "a {}'s size must be a positive integer constant",
                            kind.what()
                        ))
                        .with_note(note)
                        .with_help("use a literal or a module-level constant such as `TILE = 256`, or a tuple of them (`(TILE, TILE + 1)`) for a two- or three-dimensional array"),
                    );
                    return None;
                }
                Err(d) => {
                    self.cx.diags.push(d);
                    return None;
                }
            }
        }
        Some(shape)
    }

    /// Whether a local array of `len` elements of `elem` is small enough; an error at
    /// `span` if not.
    pub(super) fn fits_private_memory(&mut self, len: u64, elem: Ty, span: Span) -> bool {
        let bytes = len.saturating_mul(elem.size() as u64);
        if bytes <= MAX_LOCAL_BYTES {
            return true;
        }
        self.cx.diags.push(
            Diagnostic::error(span, format!("this local array takes {bytes} bytes, more than the {MAX_LOCAL_BYTES} one may take"))
                .with_note("every invocation holds its own copy: devices keep large ones in slow scratch memory")
                .with_help("share one among the workgroup with `shared_array`, or keep the data in an `Array` parameter"),
        );
        false
    }

    /// Whether `len` more elements of `elem` fit the kernel's workgroup memory beside the
    /// shared arrays it already has; an error at `span` if not.
    pub(super) fn fits_workgroup_memory(&mut self, len: u64, elem: Ty, span: Span) -> bool {
        let used: u64 = self
            .cx
            .arrays
            .iter()
            .filter_map(|a| match a.memory {
                Memory::Workgroup(n) => Some(n as u64 * a.elem.size() as u64),
                _ => None,
            })
            .sum();
        let bytes = len.saturating_mul(elem.size() as u64);
        if used.saturating_add(bytes) <= MAX_SHARED_BYTES {
            return true;
        }
        self.cx.diags.push(
            Diagnostic::error(span, format!("this shared array takes {bytes} bytes; with the others the kernel would need {}", used.saturating_add(bytes)))
                .with_note(format!("a kernel may use at most {MAX_SHARED_BYTES} bytes of workgroup memory (Vulkan guarantees 16384)")),
        );
        false
    }

    /// `barrier()`.
    pub(super) fn barrier_call(&mut self, args: &[ExprId], span: Span) -> Ex {
        if !self.arity("barrier", args, 0, span) {
            return Ex::Err;
        }
        self.emit(Op::Barrier, None, [], span);
        Ex::Void
    }

    /// `num_threads()`: the launch size, in a kernel.
    pub(super) fn num_threads_call(&mut self, args: &[ExprId], span: Span) -> Ex {
        if !self.arity("num_threads", args, 0, span) {
            return Ex::Err;
        }
        let t = Ty::Vector(Scalar::I32, 3);
        match self.threads_operand(span) {
            Some(o) => Ex::Val(o, t),
            None => Ex::Err,
        }
    }

    /// The launch size here: read from the uniform block in a kernel, the hidden trailing
    /// parameter in a func that reaches `num_threads()` (its callers pass theirs).
    pub(super) fn threads_operand(&mut self, span: Span) -> Option<Operand> {
        if self.sig.is_kernel {
            let t = Ty::Vector(Scalar::I32, 3);
            return Some(self.val(Op::LaunchSize, t, [], span));
        }
        self.threads
    }

    /// `atomic_op(array, index, value)` or `atomic_compare_exchange(array, index, expected,
    /// value)`: the element's old value.
    pub(super) fn atomic_call(
        &mut self,
        op: AtomicOp,
        name: &str,
        args: &[ExprId],
        span: Span,
    ) -> Ex {
        let n = if op == AtomicOp::CompareExchange {
            4
        } else {
            3
        };
        if !self.arity(name, args, n, span) {
            return Ex::Err;
        }
        let base_span = self.ast.expr(args[0]).span;
        let a = match self.expr(args[0]) {
            Ex::Array(a) => a,
            Ex::Err => return Ex::Err,
            _ => {
                self.cx.diags.push(
                    Diagnostic::error(base_span, format!("`{name}` works on an array element: its first argument must be an array"))
                        .with_help(format!("`{name}(counts, i, 1)` updates `counts[i]`")),
                );
                return Ex::Err;
            }
        };
        if self.read_only_table(a, base_span) {
            return Ex::Err;
        }
        if let Some(id) = self.record_of(a) {
            let what = self.array_type_of(a);
            self.cx.diags.push(
                Diagnostic::error(base_span, format!("`{name}` works on an array of numbers or vectors, but this is an {what}"))
                    .with_note(format!("a {} element is several words, and no atomic operation spans them", self.struct_name(id)))
                    .with_help("keep what invocations update at once in an array of its own (`Array[i32]`, `Array[f32]`)"),
            );
            return Ex::Err;
        }
        if let Memory::Local(_) = self.cx.arrays[a.index()].memory {
            let arr = self.cx.arrays[a.index()].name.clone();
            self.cx.diags.push(
                Diagnostic::error(base_span, format!("`{name}` works on a buffer or a shared array, but this is the local array `{arr}`"))
                    .with_note("a local array belongs to one invocation: no other one can change it meanwhile")
                    .with_help(format!("update the element directly: `old = {arr}[i]; {arr}[i] = ...`")),
            );
            return Ex::Err;
        }
        let elem = self.cx.arrays[a.index()].elem;
        if let Some(d) = self.atomic_refusal(op, name, a, base_span) {
            self.cx.diags.push(d);
            return Ex::Err;
        }
        let dims = self.cx.arrays[a.index()].dims;
        let is_tuple = matches!(self.ast.expr(args[1]).kind, ExprKind::Tuple(_));
        if dims > 1 && !is_tuple {
            let arr = self.cx.arrays[a.index()].name.clone();
            let axes = ["i", "j", "k"][..dims as usize].join(", ");
            self.cx.diags.push(
                Diagnostic::error(
                    self.ast.expr(args[1]).span,
                    format!("`{arr}` has {dims} dimensions: `{name}` takes its index as a tuple"),
                )
                .with_help(format!(
                    "`{name}({arr}, ({axes}), ...)` updates `{arr}[{axes}]`"
                )),
            );
            return Ex::Err;
        }
        let Some(index) = self.index(a, args[1]) else {
            return Ex::Err;
        };
        let mut ops: Vec<Operand> = vec![index.flat];
        for &v in &args[2..] {
            let x = self.expr(v);
            let what = format!("an operand of `{name}` on an Array[{elem}]");
            match self.coerce(x, elem, self.ast.expr(v).span, &what) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        self.check_index(a, &index, span);
        // On floats `atomic_sub` is the add of the negated value (the same bits: IEEE
        // defines `x - y` as `x + (-y)`), since the device has only a float add.
        let op = match (op, elem.scalar()) {
            (AtomicOp::Sub, Scalar::F32 | Scalar::F64) => {
                ops[1] = self.val(Op::Unary(UnOp::Neg), elem, [ops[1]], span);
                AtomicOp::Add
            }
            _ => op,
        };
        let v = self.emit(Op::Atomic(op, a), Some(elem), ops, span);
        Ex::Val(Operand::Value(v), elem)
    }

    /// Why atomic `op` (called `name`) cannot work on array `a`, if it cannot: every
    /// operation works on `i32`/`u32`/`i64`/`u64` elements (the 64-bit ones need the device's
    /// 64-bit atomics); `atomic_add`, `atomic_sub`, `atomic_min` and `atomic_max` also on
    /// `f32`s and `f64`s (an `f64` one on 64-bit words), and on vectors of
    /// `i32`/`u32`/`f32`/`f64`, one atomic per component; `atomic_exchange` and
    /// `atomic_compare_exchange` on `f32`s and `f64`s.
    fn atomic_refusal(&self, op: AtomicOp, name: &str, a: ArrayId, at: Span) -> Option<Diagnostic> {
        let g = &self.cx.arrays[a.index()];
        let (elem, arr) = (g.elem, &g.name);
        let s = elem.scalar();
        let arith = matches!(
            op,
            AtomicOp::Add | AtomicOp::Sub | AtomicOp::Min | AtomicOp::Max
        );
        let matrix = matches!(elem, Ty::Matrix(..) | Ty::Quat);
        let swap = matches!(op, AtomicOp::Exchange | AtomicOp::CompareExchange);
        if elem
            .as_scalar()
            .is_some_and(|s| matches!(s, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64))
            || (arith
                && matches!(s, Scalar::I32 | Scalar::U32 | Scalar::F32 | Scalar::F64)
                && !matrix)
            || (swap && matches!(elem, Ty::F32 | Ty::F64))
        {
            return None;
        }
        let kinds = match arith || swap {
            true => "`i32`, `u32`, `i64`, `u64`, `f32` or `f64`",
            false => "`i32`, `u32`, `i64` or `u64`",
        };
        let mut d = Diagnostic::error(
            at,
            format!("`{name}` needs an array of {kinds}, but `{arr}` holds {elem}"),
        );
        if s.is_narrow() {
            d = d.with_note(
                "atomics work on 32-bit words: keep the counts in an `Array[i32]` or `Array[u32]`",
            );
        } else if matrix {
            d = d.with_note("matrices and quats have no atomics: update the entries of an `Array[f32]` with `atomic_add`");
        } else if elem.components() > 1 {
            d = d.with_note(
                "on vectors `atomic_add`, `atomic_sub`, `atomic_min` and `atomic_max` work, one atomic per component",
            );
        } else if s.is_float() {
            d = d.with_note(
                "on `f32` and `f64` `atomic_add`, `atomic_sub`, `atomic_min`, `atomic_max`, `atomic_exchange` and `atomic_compare_exchange` exist",
            );
        }
        Some(d)
    }

    /// Whether a kernel body looks guarded: some comparison involves a thread id or the launch
    /// size (directly, or through a variable assigned from one), or an array's `len()`.
    pub(super) fn has_own_guard(&self, def: &FuncDef) -> bool {
        let no_local = |_: &str| false;
        let is_id = |e: ExprId| -> bool {
            let ExprKind::Call { func, .. } = &self.ast.expr(e).kind else {
                return false;
            };
            match self.m.lib_item(self.ast, *func, &no_local) {
                Some((Lib::Spirthon, item)) => matches!(
                    item,
                    "global_id" | "local_id" | "workgroup_id" | "local_index" | "num_threads"
                ),
                None => matches!(&self.ast.expr(*func).kind, ExprKind::Name(n) if n == "len"),
                _ => false,
            }
        };
        let mentions = |root: ExprId, names: &FastSet<String>| -> bool {
            let mut work = vec![root];
            while let Some(e) = work.pop() {
                if is_id(e) {
                    return true;
                }
                if let ExprKind::Name(n) = &self.ast.expr(e).kind {
                    if names.contains(n) {
                        return true;
                    }
                }
                self.ast.expr(e).kind.children(|c| work.push(c));
            }
            false
        };
        // Names assigned from a thread id, to a fixed point (`i = global_id().x; j = i + 1`).
        let mut names: FastSet<String> = FastSet::default();
        loop {
            let before = names.len();
            for s in def.stmts.clone() {
                if let StmtKind::Assign(targets, value) = &self.ast.stmts[s as usize].kind {
                    if mentions(*value, &names) {
                        let mut ts: Vec<ExprId> = targets.clone();
                        while let Some(t) = ts.pop() {
                            match &self.ast.expr(t).kind {
                                ExprKind::Name(n) => {
                                    names.insert(n.clone());
                                }
                                ExprKind::Tuple(items) => ts.extend(items.iter().copied()),
                                _ => {}
                            }
                        }
                    }
                }
            }
            for e in def.exprs.clone() {
                if let ExprKind::Walrus(t, v) = self.ast.exprs[e as usize].kind {
                    if let (ExprKind::Name(n), true) = (&self.ast.expr(t).kind, mentions(v, &names))
                    {
                        names.insert(n.clone());
                    }
                }
            }
            if names.len() == before {
                break;
            }
        }
        def.exprs.clone().any(|e| {
            matches!(&self.ast.exprs[e as usize].kind, ExprKind::Compare(..))
                && mentions(ExprId(e), &names)
        })
    }
}

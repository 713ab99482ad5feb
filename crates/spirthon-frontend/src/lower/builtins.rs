//! The built-in library: Python's built-ins (`int`, `float`, `abs`, `min`, `max`, `round`,
//! `len`, …), `math`, and spirthon's own names (`global_id`, `u32`, …).

use super::*;
use spirthon_ir::library::{self, Host, Typing};

impl Lower<'_, '_> {
    pub(super) fn builtin_call(
        &mut self,
        name: &str,
        args: &[ExprId],
        span: Span,
        name_span: Span,
    ) -> Ex {
        if let Some(row) = library::lookup(library::Module::Builtins, name) {
            // Fixed arities come from the table; `min`/`max` and `round` check their own.
            let (fewest, most) = row.arity;
            if fewest == most && !self.arity(name, args, fewest as usize, span) {
                return Ex::Err;
            }
        }
        match name {
            "abs" => self.abs_call(args, span),
            "min" | "max" => self.min_max(name, args, span),
            "int" | "float" | "bool" => {
                let to = match name {
                    "int" => Ty::I32,
                    "float" => Ty::F32,
                    _ => Ty::BOOL,
                };
                let (x, sp) = self.args(args)[0];
                self.convert(x, to, sp, span)
            }
            "round" => self.round_call(args, span),
            "len" => self.len_call(args, span),
            "range" => {
                self.error(
                    span,
                    "`range` can only be looped over: `for i in range(...)`",
                );
                Ex::Err
            }
            "print" => {
                self.cx.diags.push(
                    Diagnostic::error(span, "`print(...)` gives no value in kernels")
                        .with_help("call it as a statement of its own"),
                );
                Ex::Err
            }
            _ => {
                self.unknown_function(name, name_span);
                Ex::Err
            }
        }
    }

    /// Python's `abs`: ints stay ints (`u32` as it is), floats stay floats.
    fn abs_call(&mut self, args: &[ExprId], span: Span) -> Ex {
        let (x, sp) = self.args(args)[0];
        match x {
            Ex::Lit(Lit::Int(i)) => Ex::Lit(Lit::Int(i.abs())),
            Ex::Lit(Lit::Float(f)) => Ex::Lit(Lit::Float(f.abs())),
            Ex::Val(_, Ty::Matrix(..)) => {
                self.error(sp, "`abs` needs a number or a vector, not a matrix");
                Ex::Err
            }
            Ex::Val(_, t) if t.scalar().is_int() && !t.scalar().is_signed() => x,
            Ex::Val(o, t) if t.scalar() != Scalar::Bool => {
                Ex::Val(self.val(Op::Math(MathFn::Abs), t, [o], span), t)
            }
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, "`abs` needs a number");
                Ex::Err
            }
        }
    }

    /// Python's `round(x)`: half to even, an int.
    fn round_call(&mut self, args: &[ExprId], span: Span) -> Ex {
        if args.len() == 2 {
            self.error(
                span,
                "`round(x, ndigits)` is not supported; `round(x)` rounds to an int",
            );
            return Ex::Err;
        }
        if !self.arity("round", args, 1, span) {
            return Ex::Err;
        }
        let (x, sp) = self.args(args)[0];
        match x {
            Ex::Lit(Lit::Float(f)) => match whole_float(f.round_ties_even()) {
                Ok(l) => Ex::Lit(l),
                Err(e) => {
                    self.error(span, e);
                    Ex::Err
                }
            },
            Ex::Lit(l) => Ex::Lit(l),
            Ex::Val(o, t) if t.as_scalar().is_some_and(Scalar::is_float) => {
                let r = self.val(Op::Math(MathFn::RoundEven), t, [o], span);
                Ex::Val(self.val(Op::Convert, Ty::I32, [r], span), Ty::I32)
            }
            Ex::Val(_, t) if t.as_scalar().is_some_and(Scalar::is_int) => x,
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, "`round` needs a number");
                Ex::Err
            }
        }
    }

    /// `len(array)`.
    fn len_call(&mut self, args: &[ExprId], span: Span) -> Ex {
        // A tuple of tuples: its number of rows.
        if let ExprKind::Name(n) = &self.ast.expr(args[0]).kind {
            if let (false, Some(Global::Rows { columns, .. })) =
                (self.is_local(n), self.m.globals.get(n))
            {
                return Ex::Lit(Lit::Int(columns[0].0.len() as i128));
            }
            // An array of structs: the length of its leaves' arrays.
            if let Some(Local::StructArray(k)) = self.locals.get(n).copied() {
                let a = self.sarrays[k as usize].1[0];
                return self.len_of(a, span);
            }
        }
        let (x, sp) = self.args(args)[0];
        match x {
            Ex::Array(a) => self.len_of(a, span),
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, "`len` needs an array");
                Ex::Err
            }
        }
    }

    /// A call of a name that is no function here, with the import that would make it one.
    fn unknown_function(&mut self, name: &str, name_span: Span) {
        let d = match (self.m.globals.get(name), python_builtin(name)) {
            (None, _) if crate::module::is_spirthon_name(name) => {
                Diagnostic::error(name_span, format!("unknown function `{name}`"))
                    .with_help(format!("import it: `from spirthon import {name}`"))
            }
            (None, Some(help)) => Diagnostic::error(
                name_span,
                format!("Python's built-in `{name}` is not available in kernels"),
            )
            .with_help(help),
            (None, None) if crate::module::is_math_name(name) => {
                Diagnostic::error(name_span, format!("unknown function `{name}`")).with_help(
                    format!("import it: `from math import {name}`, or call `math.{name}`"),
                )
            }
            _ => Diagnostic::error(name_span, format!("unknown function `{name}`")),
        };
        self.cx.diags.push(d);
    }

    /// Python's `int()`, `float()`, `bool()`, `i32()`, `u32()`, `f32()`.
    pub(super) fn convert(&mut self, x: Ex, to: Ty, sp: Span, span: Span) -> Ex {
        match x {
            Ex::Lit(l) => match (l, to.scalar()) {
                (_, Scalar::Bool) => Ex::Lit(Lit::Bool(l.truthy())),
                (Lit::Float(f), s) if s.is_int() => {
                    if f.is_finite() {
                        // Truncated, then wrapped to the type's width as a run-time value is.
                        // Exact: below 2**64 the truncated float is an `i128`; past it,
                        // `%` of a whole float by 2**64 is exact and keeps the low bits.
                        let t = f.trunc();
                        let two64 = 18_446_744_073_709_551_616.0;
                        let v = if t.abs() < two64 { t } else { t % two64 } as i128;
                        self.lit_typed(Lit::Int(s.wrap(v)), to, sp)
                    } else {
                        if let Err(e) = whole_float(f) {
                            self.error(span, e);
                        }
                        Ex::Err
                    }
                }
                (Lit::Bool(b), _) => self.lit_typed(Lit::Int(b as i128), to, sp),
                // An explicit conversion wraps (`u32(-1)`, `u8(300)`, `i8(200)`).
                (Lit::Int(i), s) if s.is_int() => self.lit_typed(Lit::Int(s.wrap(i)), to, sp),
                _ => self.lit_typed(l, to, sp),
            },
            Ex::Val(o, t) if t == to => Ex::Val(o, t),
            Ex::Val(_, Ty::Scalar(Scalar::F64)) if to.scalar() == Scalar::F16 => {
                self.cx.diags.push(
                    Diagnostic::error(sp, "an f64 does not convert to f16 directly")
                        .with_note("the device rounds an f64 to f32 first, and rounding twice can miss the nearest half")
                        .with_help("write `f16(f32(x))`, which rounds twice on every device alike"),
                );
                Ex::Err
            }
            Ex::Val(o, t) if t.as_scalar().is_some() => {
                if to == Ty::BOOL {
                    return match self.truthy(x, sp) {
                        Some(b) => Ex::Val(b, Ty::BOOL),
                        None => Ex::Err,
                    };
                }
                Ex::Val(self.val(Op::Convert, to, [o], span), to)
            }
            Ex::Err => Ex::Err,
            _ => {
                self.error(sp, format!("cannot convert this to {to}"));
                Ex::Err
            }
        }
    }

    /// A literal given an explicit type by a conversion (`f32(1)` is a typed f32 value).
    pub(super) fn lit_typed(&mut self, l: Lit, to: Ty, sp: Span) -> Ex {
        match l.to_const(to.scalar()) {
            Ok(c) => Ex::Val(self.konst(c), to),
            Err(e) => {
                self.error(sp, e);
                Ex::Err
            }
        }
    }

    pub(super) fn min_max(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        if self.has_rejected_arg(args) {
            return Ex::Err;
        }
        if args.len() < 2 {
            self.error(
                span,
                format!("`{name}` needs two or more arguments in kernels"),
            );
            return Ex::Err;
        }
        let f = if name == "min" {
            MathFn::Min
        } else {
            MathFn::Max
        };
        let exs = self.args(args);
        let (mut acc, mut acc_span) = exs[0];
        for &(x, sp) in &exs[1..] {
            acc = match (acc, x) {
                (Ex::Lit(a), Ex::Lit(b)) => {
                    let less = lit::compare(CmpOp::Lt, b, a);
                    Ex::Lit(if less == (f == MathFn::Min) { b } else { a })
                }
                _ => {
                    let Some((a, b, t)) = self.unify(acc, x, acc_span, sp, name) else {
                        return Ex::Err;
                    };
                    if t == Ty::BOOL {
                        self.error(span, format!("`{name}` needs numbers"));
                        return Ex::Err;
                    }
                    Ex::Val(self.val(Op::Math(f), t, [a, b], span), t)
                }
            };
            acc_span = acc_span.to(sp);
        }
        acc
    }

    /// `math.name(args)`, as spirthon-ir's built-in table describes it.
    pub(super) fn math_call(&mut self, name: &str, args: &[ExprId], span: Span) -> Ex {
        let Some(row) = library::lookup(library::Module::Math, name) else {
            self.error(span, format!("`math.{name}` is not supported in kernels"));
            return Ex::Err;
        };
        if let Typing::Constant(_) = row.typing {
            self.error(span, format!("`math.{name}` is a constant, not a function"));
            return Ex::Err;
        }
        let (fewest, most) = row.arity;
        let arity = if args.len() > fewest as usize && args.len() <= most as usize {
            args.len()
        } else {
            fewest as usize
        };
        if !self.arity(&format!("math.{name}"), args, arity, span) {
            return Ex::Err;
        }
        let exs = self.args(args);
        match fold_literals(row, &exs) {
            Some(Ok(l)) => return Ex::Lit(l),
            Some(Err(e)) => {
                self.error(span, e);
                return Ex::Err;
            }
            None => {}
        }
        // In `f64` when an operand is one, where the function has an `f64` form; an `f16`
        // is computed in `f32` and the result rounded to half.
        let half = Ty::Scalar(Scalar::F16);
        if exs.iter().any(|(x, _)| x.is(half)) {
            return self.half_math(row, &exs, span);
        }
        let ft = if exs.iter().any(|(x, _)| x.is(Ty::F64)) {
            Ty::F64
        } else {
            Ty::F32
        };
        if ft == Ty::F64 && !row.takes_f64() {
            self.cx.diags.push(
                Diagnostic::error(span, format!("`math.{name}` does not take an f64 yet"))
                    .with_note(format!("on f64, the library has {}", f64_functions()))
                    .with_help(format!("compute it in f32: `math.{name}(f32(x))`")),
            );
            return Ex::Err;
        }
        let mut ops = Vec::new();
        for &(x, sp) in &exs {
            match self.coerce_float(x, ft, sp, &format!("math.{name}")) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        self.math_value(row, ops, ft, span)
    }

    /// A `math` call on `f16` operands: each widened to `f32` (exactly), the `f32` function,
    /// and a float result rounded to half (a bool or an int result as it is).
    fn half_math(&mut self, row: &library::Row, exs: &[(Ex, Span)], span: Span) -> Ex {
        let half = Ty::Scalar(Scalar::F16);
        let mut ops = Vec::new();
        for &(x, sp) in exs {
            let x = match x {
                Ex::Val(o, t) if t == half => {
                    Ex::Val(self.val(Op::Convert, Ty::F32, [o], sp), Ty::F32)
                }
                other => other,
            };
            match self.coerce_float(x, Ty::F32, sp, &format!("math.{}", row.name)) {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        match self.math_value(row, ops, Ty::F32, span) {
            Ex::Val(o, Ty::Scalar(Scalar::F32)) => {
                Ex::Val(self.val(Op::Convert, half, [o], span), half)
            }
            other => other,
        }
    }

    /// The typed value of a `math` call on float operands of type `ft`.
    fn math_value(&mut self, row: &library::Row, ops: Vec<Operand>, ft: Ty, span: Span) -> Ex {
        let f = row.func;
        let one = |l: &mut Self, f: MathFn, t: Ty, ops: Vec<Operand>| {
            Ex::Val(l.val(Op::Math(f), t, ops, span), t)
        };
        match (row.typing, f) {
            (Typing::Log, _) if ops.len() == 2 => {
                let a = self.val(Op::Math(MathFn::Log), Ty::F32, [ops[0]], span);
                let b = self.val(Op::Math(MathFn::Log), Ty::F32, [ops[1]], span);
                let q = self.val(Op::Binary(BinOp::Div), Ty::F32, [a, b], span);
                Ex::Val(q, Ty::F32)
            }
            (Typing::IsFinite, _) => {
                let n = self.val(Op::Math(MathFn::IsNan), Ty::BOOL, ops.clone(), span);
                let i = self.val(Op::Math(MathFn::IsInf), Ty::BOOL, ops, span);
                let either = self.val(Op::Binary(BinOp::Or), Ty::BOOL, [n, i], span);
                let not = self.val(Op::Unary(UnOp::Not), Ty::BOOL, [either], span);
                Ex::Val(not, Ty::BOOL)
            }
            (Typing::Predicate, Some(f)) => one(self, f, Ty::BOOL, ops),
            (Typing::FloatToInt, Some(f)) => {
                // Python's math.floor/ceil/trunc return int.
                let r = self.val(Op::Math(f), ft, ops, span);
                Ex::Val(self.val(Op::Convert, Ty::I32, [r], span), Ty::I32)
            }
            (Typing::Float | Typing::Log, Some(f)) => one(self, f, ft, ops),
            _ => {
                self.error(
                    span,
                    format!("`math.{}` is not supported in kernels", row.name),
                );
                Ex::Err
            }
        }
    }

    pub(super) fn spirthon_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        let builtin = match item {
            "global_id" => Some(Builtin::GlobalId),
            "local_id" => Some(Builtin::LocalId),
            "workgroup_id" => Some(Builtin::WorkgroupId),
            "num_workgroups" => Some(Builtin::NumWorkgroups),
            "local_index" => Some(Builtin::LocalIndex),
            _ => None,
        };
        if let Some(row) = library::lookup(library::Module::Spirthon, item) {
            let own_arity = row.func.is_some()
                || row.typing == Typing::Name
                || matches!(
                    item,
                    "clamp" | "barrier" | "num_threads" | "shared_array" | "local_array"
                )
                || item.starts_with("atomic_")
                || is_random(item);
            if !own_arity && !self.arity(item, args, row.arity.0 as usize, span) {
                return Ex::Err;
            }
        }
        match item {
            "barrier" => return self.barrier_call(args, span),
            "num_threads" => return self.num_threads_call(args, span),
            "shared_array" => {
                self.cx.diags.push(
                    Diagnostic::error(span, "`shared_array(...)` must be assigned to a name: `tile = shared_array(f32, 256)`")
                        .with_note("a shared array is created once per workgroup, at the top level of a kernel body"),
                );
                return Ex::Err;
            }
            "local_array" => {
                self.cx.diags.push(
                    Diagnostic::error(span, "`local_array(...)` must be assigned to a name: `stack = local_array(i32, 64)`")
                        .with_note("a local array is an invocation's own array, created by an assignment statement"),
                );
                return Ex::Err;
            }
            _ => {}
        }
        if let Some(op) = spirthon_ir::AtomicOp::named(item) {
            return self.atomic_call(op, item, args, span);
        }
        if is_random(item) {
            return self.rand_call(item, args, span);
        }
        if subgroups::is_subgroup(item) {
            return self.subgroup_call(item, args, span);
        }
        if item == "Rand" {
            return self.construct_struct(ModuleInfo::RAND, args, &[], span);
        }
        if item == "quat" {
            return self.quat_ctor(args, span);
        }
        if item.starts_with("quat_") {
            return self.quat_call(item, args, span);
        }
        if let Some(t) = Ty::matrix_named(item) {
            return self.matrix_ctor(t, args, span);
        }
        if matches!(
            item,
            "transpose" | "determinant" | "inverse" | "outer" | "diag" | "identity"
        ) {
            return self.matrix_call(item, args, span);
        }
        if let Some(t) = Ty::vector_named(item) {
            if args.is_empty() {
                self.error(
                    span,
                    format!("`{item}` needs its components, or one number for all of them"),
                );
                return Ex::Err;
            }
            return self.vector_ctor(t, args, span);
        }
        if let Some(row) = library::lookup(library::Module::Spirthon, item) {
            if row.func.is_some() || item == "clamp" {
                return self.geometry_call(row, args, span);
            }
        }
        if let Some(b) = builtin {
            let ty = if b == Builtin::LocalIndex {
                Ty::I32
            } else {
                Ty::Vector(Scalar::I32, 3)
            };
            return Ex::Val(self.val(Op::Builtin(b), ty, [], span), ty);
        }
        let to = match (Scalar::named(item), item) {
            (Some(s), _) => Ty::Scalar(s),
            (_, "kernel" | "func" | "struct") => {
                self.error(span, format!("`{item}` is a decorator"));
                return Ex::Err;
            }
            (_, "Array") => {
                self.error(
                    span,
                    "`Array` is a type for parameters; kernels cannot create arrays",
                );
                return Ex::Err;
            }
            (_, _) => {
                self.cx.diags.push(Diagnostic::error(
                    span,
                    format!("`{item}` is not supported by this version of the compiler"),
                ));
                return Ex::Err;
            }
        };
        let (x, sp) = self.args(args)[0];
        self.convert(x, to, sp, span)
    }
}

/// A `math` call on literals, folded in `f64` as CPython computes it; an error where CPython
/// raises (`math.floor(math.inf)`).
fn fold_literals(row: &library::Row, exs: &[(Ex, Span)]) -> Option<Result<Lit, String>> {
    let mut vals = [0.0f64; 2];
    for (slot, (x, _)) in vals.iter_mut().zip(exs) {
        match x {
            Ex::Lit(l) => *slot = lit_f64(*l),
            _ => return None,
        }
    }
    let [a, b] = vals;
    if row.typing == Typing::Log && exs.len() == 2 {
        return Some(Ok(Lit::Float(a.ln() / b.ln())));
    }
    Some(Ok(match (row.host, row.typing) {
        (Host::Unary(f), Typing::FloatToInt) => return Some(whole_float(f(a))),
        (Host::Unary(f), _) => Lit::Float(f(a)),
        (Host::Binary(f), _) => Lit::Float(f(a, b)),
        (Host::Predicate(f), _) => Lit::Bool(f(a)),
        (Host::None, _) => return None,
    }))
}

/// A whole float constant as the int Python makes of it (`math.floor`, `round`, `int` of a
/// literal); CPython's words where it raises, and a located error for a result that no
/// 32-bit integer holds (Python's int would be that large).
pub(super) fn whole_float(f: f64) -> Result<Lit, String> {
    if f.is_nan() {
        return Err("cannot convert float NaN to integer (Python raises ValueError)".into());
    }
    if f.is_infinite() {
        return Err(
            "cannot convert float infinity to integer (Python raises OverflowError)".into(),
        );
    }
    if f.abs() >= 9_223_372_036_854_775_808.0 {
        return Err(format!(
            "the result is {f:.0}, an integer too large for 64 bits"
        ));
    }
    Ok(Lit::Int(f as i128))
}

pub(super) fn lit_f64(l: Lit) -> f64 {
    match l {
        Lit::Int(i) => i as f64,
        Lit::Float(f) => f,
        Lit::Bool(b) => b as u8 as f64,
    }
}

/// What to write instead of a Python built-in function that kernels lack.
fn python_builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "pow" => "write `x ** y` (`math.pow(x, y)` is the float version)",
        "divmod" => "write `q = a // b` and `r = a % b` (each floors as Python's divmod does)",
        "sum" => "add in a loop: `for k in range(len(a)): total += a[k]`",
        "any" | "all" => "combine the conditions with `or` / `and`, or test them in a loop",
        "sorted" | "reversed" | "zip" | "map" | "filter" | "list" | "tuple" | "dict" | "set"
        | "iter" | "next" => {
            "kernels have no sequences but arrays: loop over `range(...)` and index"
        }
        "str" | "repr" | "format" | "chr" | "ord" | "hex" | "oct" | "bin" | "ascii" => {
            "kernels have no strings: compute numbers, and format them on the CPU"
        }
        "isinstance" | "type" | "callable" | "id" | "hash" | "getattr" | "setattr" | "hasattr"
        | "vars" | "dir" => "every value's type is known when the kernel compiles",
        "input" | "open" | "exec" | "eval" | "compile" | "__import__" | "globals" | "locals"
        | "breakpoint" | "help" => "this runs on the CPU only",
        _ => return None,
    })
}

/// The `math` functions that take an `f64`, as a message lists them.
fn f64_functions() -> String {
    let names: Vec<&str> = spirthon_ir::library::LIBRARY
        .iter()
        .filter(|r| r.module == spirthon_ir::library::Module::Math && r.takes_f64())
        .map(|r| r.name)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The functions of a random stream (see `random`): `rand_init` and the draws.
fn is_random(item: &str) -> bool {
    item == "rand_init" || random::is_draw(item)
}

//! Struct values (see `module::structs`): a struct is lowered as its leaves, so a local
//! struct is one variable per leaf (`p.vel`), a struct argument one parameter per leaf, and
//! a func's returned struct the carrier of its leaves (as a returned tuple's). An element of
//! an `Array[S]` is read and written leaf by leaf ([`spirthon_ir::Record`]): without narrow
//! ints the buffer is an array of a struct of its scalars, each read with `Op::LoadField`
//! (a bool a `u32` 0 or 1); with them it is 32-bit words, a 32-bit leaf a word (bits cast),
//! a narrow int its bytes of a word, stored with one atomic `xor` as a packed array's
//! elements are, so that neighbouring fields stored at once lose nothing. A local or shared
//! array of structs is one array per leaf.
//!
//! Value semantics as vectors have them: `q = p` copies, `p.vel.y = 0.0` changes `p` alone,
//! `a[i].mass = m` changes the element in the buffer.

use super::*;
use crate::module::{FieldTy, ModuleInfo, StructId};
use vectors::COMPONENTS;
use workgroup::Fixed;

/// A struct value: an index into `Lower::svals`.
#[derive(Copy, Clone, Debug)]
pub(super) struct StructVal(u32);

/// The root of a struct place: a local struct's leaf variables, or an element of an array
/// of structs (its first word's index).
#[derive(Clone)]
enum Root {
    Local(Vec<Var>),
    Record(ArrayId, Operand),
    /// An element (its flat index) of a local or shared array of structs: one array per
    /// leaf.
    Soa(Vec<ArrayId>, Operand),
}

/// A place that holds a `Rand` (see `random`).
pub(super) struct StatePlace(Place);

/// A place in a struct: leaves `first..first + count` of the root's struct, of type `ty`,
/// or component `comp` of that leaf.
struct Place {
    root: Root,
    sid: StructId,
    first: u32,
    count: u32,
    ty: FieldTy,
    comp: Option<u32>,
}

impl Lower<'_, '_> {
    pub(super) fn struct_value(&mut self, id: StructId, leaves: Vec<Operand>) -> Ex {
        self.svals.push((id, leaves));
        Ex::Struct(StructVal(self.svals.len() as u32 - 1))
    }

    /// A struct value's struct and leaves.
    pub(super) fn struct_parts(&self, v: StructVal) -> (StructId, Vec<Operand>) {
        self.svals[v.0 as usize].clone()
    }

    /// The struct an array's elements are, for an array of structs.
    pub(super) fn record_of(&self, a: ArrayId) -> Option<StructId> {
        self.cx.records.get(&a).copied()
    }

    /// The struct's name, for messages.
    pub(super) fn struct_name(&self, id: StructId) -> &str {
        &self.m.strukt(id).name
    }

    /// A local struct's current value.
    pub(super) fn read_struct_local(&mut self, k: u32, span: Span) -> Ex {
        let (id, vars) = self.slocals[k as usize].clone();
        let leaves = vars.iter().map(|&v| self.read(v, span)).collect();
        self.struct_value(id, leaves)
    }

    /// `p = value` where `value` is a struct: a new local struct, or a new value of one.
    pub(super) fn assign_struct_name(&mut self, name: &str, v: StructVal, span: Span) {
        let (id, leaves) = self.struct_parts(v);
        match self.locals.get(name).copied() {
            Some(Local::Struct(k)) if self.slocals[k as usize].0 == id => {
                let vars = self.slocals[k as usize].1.clone();
                self.def_leaves(&vars, leaves);
            }
            Some(Local::Struct(k)) => {
                let had = self.struct_name(self.slocals[k as usize].0).to_string();
                let msg = format!(
                    "`{name}` holds a {had}, but this value is a {}",
                    self.struct_name(id)
                );
                self.error(span, msg);
            }
            Some(Local::Var(var)) => {
                let ty = self.var_ty(var);
                let first = self.var_spans[var.index()];
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{name}` has type {ty}, but this value is a {}",
                            self.struct_name(id)
                        ),
                    )
                    .with_secondary(
                        first,
                        format!("`{name}` got type {ty} here, at its first assignment"),
                    ),
                );
            }
            Some(Local::Array(_) | Local::StructArray(_)) => {
                self.error(span, format!("cannot assign to `{name}`: it is an array"));
            }
            None => {
                let vars = self.leaf_vars(id, Some(name), span);
                self.def_leaves(&vars, leaves);
                self.slocals.push((id, vars));
                let k = self.slocals.len() as u32 - 1;
                self.locals.insert(name.to_string(), Local::Struct(k));
            }
        }
    }

    /// A new variable for each leaf of struct `id`: `name.vel` for a local struct `name`,
    /// hidden (unnamed) without one.
    fn leaf_vars(&mut self, id: StructId, name: Option<&str>, span: Span) -> Vec<Var> {
        let leaves: Vec<(String, Ty)> = self
            .m
            .strukt(id)
            .leaves
            .iter()
            .map(|l| {
                (
                    name.map_or(String::new(), |n| format!("{n}.{}", l.path)),
                    l.ty,
                )
            })
            .collect();
        leaves
            .into_iter()
            .map(|(n, t)| self.new_var(&n, t, span))
            .collect()
    }

    /// Each leaf variable gets its new value.
    fn def_leaves(&mut self, vars: &[Var], leaves: Vec<Operand>) {
        for (&var, o) in vars.iter().zip(leaves) {
            self.def(var, o);
        }
    }

    /// `p: S = value` (or `p: S` alone, which binds nothing, as in Python).
    pub(super) fn ann_assign_struct(
        &mut self,
        target: ExprId,
        id: StructId,
        value: Option<ExprId>,
    ) {
        let t = self.ast.expr(target);
        let (ExprKind::Name(name), span) = (&t.kind, t.span) else {
            return;
        };
        let name = name.clone();
        if let Some(Local::Struct(k)) = self.locals.get(&name).copied() {
            if self.slocals[k as usize].0 != id {
                let had = self.struct_name(self.slocals[k as usize].0).to_string();
                self.error(
                    span,
                    format!("`{name}` already holds a {had}; an annotation cannot change it"),
                );
                return;
            }
        }
        let Some(v) = value else { return };
        let ex = self.expr(v);
        let vspan = self.ast.expr(v).span;
        let what = format!("assigned to `{name}: {}`", self.struct_name(id));
        if let Some(leaves) = self.field_operands(FieldTy::Struct(id), ex, vspan, &what) {
            if let Ex::Struct(sv) = self.struct_value(id, leaves) {
                self.assign_struct_name(&name, sv, span);
            }
        }
    }

    /// `s.attr` of a struct value: the field's value.
    pub(super) fn struct_field(&mut self, v: StructVal, attr: &str, span: Span) -> Ex {
        let (id, leaves) = self.struct_parts(v);
        let st = self.m.strukt(id);
        let Some(f) = st.field(attr) else {
            let d = Diagnostic::error(span, format!("struct `{}` has no field `{attr}`", st.name))
                .with_help(format!("its fields are {}", st.field_list()));
            self.cx.diags.push(d);
            return Ex::Err;
        };
        let (first, count, ty) = (f.first as usize, f.count as usize, f.ty);
        match ty {
            FieldTy::Value(t) => Ex::Val(leaves[first], t),
            FieldTy::Struct(s) => self.struct_value(s, leaves[first..first + count].to_vec()),
        }
    }

    /// `S(a, b, name=c)`: a struct from its fields, positional in declaration order or by
    /// keyword; a field not given is zero.
    pub(super) fn construct_struct(
        &mut self,
        id: StructId,
        args: &[ExprId],
        keywords: &[Keyword],
        span: Span,
    ) -> Ex {
        let st = self.m.strukt(id);
        let name = st.name.clone();
        let mut given: Vec<Option<(ExprId, Span)>> = vec![None; st.fields.len()];
        let mut ok = true;
        if args.len() > st.fields.len() {
            let msg = format!(
                "struct `{name}` has {} fields, but {} values are given",
                st.fields.len(),
                args.len()
            );
            self.cx.diags.push(
                Diagnostic::error(span, msg)
                    .with_help(format!("its fields are {}", st.field_list())),
            );
            ok = false;
        }
        for (k, &a) in args.iter().enumerate().take(given.len()) {
            given[k] = Some((a, self.ast.expr(a).span));
        }
        for kw in keywords {
            match st.fields.iter().position(|f| f.name == kw.name) {
                Some(k) if given[k].is_some() => {
                    self.error(
                        kw.span,
                        format!("field `{}` of `{name}` is given twice", kw.name),
                    );
                    ok = false;
                }
                Some(k) => given[k] = Some((kw.value, self.ast.expr(kw.value).span)),
                None => {
                    let d = Diagnostic::error(
                        kw.span,
                        format!("struct `{name}` has no field `{}`", kw.name),
                    )
                    .with_help(format!("its fields are {}", st.field_list()));
                    self.cx.diags.push(d);
                    ok = false;
                }
            }
        }
        let fields: Vec<(String, FieldTy)> =
            st.fields.iter().map(|f| (f.name.clone(), f.ty)).collect();
        let mut leaves = Vec::new();
        for ((fname, ft), g) in fields.into_iter().zip(given) {
            match g {
                Some((e, sp)) => {
                    let ex = self.expr(e);
                    let what = format!("given for field `{fname}` of `{name}`");
                    match self.field_operands(ft, ex, sp, &what) {
                        Some(ops) => leaves.extend(ops),
                        None => ok = false,
                    }
                }
                None => leaves.extend(self.zero_field(ft, span)),
            }
        }
        if !ok {
            return Ex::Err;
        }
        self.struct_value(id, leaves)
    }

    /// The leaves of a value given for a place of type `ft`: a value converted as an
    /// assignment converts it, or a struct of that type.
    fn field_operands(
        &mut self,
        ft: FieldTy,
        ex: Ex,
        sp: Span,
        what: &str,
    ) -> Option<Vec<Operand>> {
        match (ft, ex) {
            (_, Ex::Err) => None,
            (FieldTy::Value(t), Ex::Struct(v)) => {
                let found = self.struct_name(self.struct_parts(v).0).to_string();
                let d = Diagnostic::error(sp, format!("expected {t}, found a {found}"))
                    .with_label(format!("this {found} is {what}"));
                self.cx.diags.push(d);
                None
            }
            (FieldTy::Value(t), ex) => self.coerce(ex, t, sp, what).map(|o| vec![o]),
            (FieldTy::Struct(s), Ex::Struct(v)) if self.struct_parts(v).0 == s => {
                Some(self.struct_parts(v).1)
            }
            (FieldTy::Struct(s), Ex::Struct(v)) => {
                let (want, found) = (
                    self.struct_name(s).to_string(),
                    self.struct_name(self.struct_parts(v).0).to_string(),
                );
                self.error(sp, format!("expected a {want}, found a {found}"));
                None
            }
            (FieldTy::Struct(s), _) => {
                let want = self.struct_name(s).to_string();
                let d = Diagnostic::error(sp, format!("expected a {want} here"))
                    .with_label(format!("this is {what}"))
                    .with_help(format!("build one: `{want}(...)`"));
                self.cx.diags.push(d);
                None
            }
        }
    }

    /// The leaves of a struct argument of struct type `id`.
    pub(super) fn struct_arg(
        &mut self,
        id: StructId,
        ex: Ex,
        sp: Span,
        what: &str,
    ) -> Option<Vec<Operand>> {
        self.field_operands(FieldTy::Struct(id), ex, sp, what)
    }

    /// The zero leaves of a field of type `ft` (`False` for a bool).
    fn zero_field(&mut self, ft: FieldTy, span: Span) -> Vec<Operand> {
        let tys: Vec<Ty> = match ft {
            FieldTy::Value(t) => vec![t],
            FieldTy::Struct(s) => self.m.strukt(s).leaves.iter().map(|l| l.ty).collect(),
        };
        tys.into_iter()
            .map(|t| {
                let z = self.konst(Const::zero(t.scalar()));
                self.splat(z, t, span)
            })
            .collect()
    }

    /// `a if c else b` of structs without side effects: each leaf selected (a matrix entry
    /// by entry: SPIR-V selects no arrays).
    pub(super) fn struct_select(
        &mut self,
        c: Operand,
        a: Ex,
        b: Ex,
        b_span: Span,
        span: Span,
    ) -> Ex {
        let Ex::Struct(v) = a else { return Ex::Err };
        let (id, xs) = self.struct_parts(v);
        let what = "the other side of an if-else whose first is a struct";
        let Some(ys) = self.field_operands(FieldTy::Struct(id), b, b_span, what) else {
            return Ex::Err;
        };
        let tys: Vec<Ty> = self.m.strukt(id).leaves.iter().map(|l| l.ty).collect();
        let mut out = Vec::with_capacity(xs.len());
        for ((x, y), t) in xs.into_iter().zip(ys).zip(tys) {
            out.push(match t {
                Ty::Matrix(..) => {
                    let (ex, ey) = (self.components(x, t, span), self.components(y, t, span));
                    let entries: Vec<Operand> = ex
                        .into_iter()
                        .zip(ey)
                        .map(|(p, q)| self.val(Op::Select, Ty::Scalar(t.scalar()), [c, p, q], span))
                        .collect();
                    self.val(Op::Construct, t, entries, span)
                }
                _ => self.val(Op::Select, t, [c, x, y], span),
            });
        }
        self.struct_value(id, out)
    }

    /// A side of `a if c else b` when the first is a struct: its leaves into the hidden
    /// variables `leaves` (which the first side makes).
    pub(super) fn struct_side(
        &mut self,
        x: Ex,
        sp: Span,
        leaves: &mut Option<(StructId, Vec<Var>)>,
    ) {
        match leaves {
            None => {
                let Ex::Struct(v) = x else { return };
                let (id, ops) = self.struct_parts(v);
                let vars = self.leaf_vars(id, None, sp);
                self.def_leaves(&vars, ops);
                *leaves = Some((id, vars));
            }
            Some((id, vars)) => {
                let what = "the other side of an if-else whose first is a struct";
                if let Some(ops) = self.field_operands(FieldTy::Struct(*id), x, sp, what) {
                    let vars = vars.clone();
                    self.def_leaves(&vars, ops);
                }
            }
        }
    }

    // ----- arrays of structs -------------------------------------------------------------

    /// Whether an array of structs is declared as a struct of words (no narrow ints), each
    /// read with [`Op::LoadField`], rather than as `u32` words.
    fn typed_record(&self, a: ArrayId) -> bool {
        self.cx.arrays[a.index()]
            .record
            .as_ref()
            .is_some_and(|r| !r.members.is_empty())
    }

    /// The member of a struct-of-scalars element at byte `byte`.
    fn record_member(&self, a: ArrayId, byte: u32) -> Option<u32> {
        self.cx.arrays[a.index()].record.as_ref()?.member_at(byte)
    }

    /// Where element `flat` of array of structs `a` is: its index for a struct of words,
    /// else the index of its first word (a `u32`).
    fn record_base(&mut self, a: ArrayId, i: &Index, span: Span) -> Operand {
        if self.typed_record(a) {
            return i.flat;
        }
        let words = self.cx.arrays[a.index()]
            .record
            .as_ref()
            .map_or(1, |r| r.words());
        let flat = match i.axes.as_slice() {
            [(_, Ty::Scalar(Scalar::U32), _)] => i.flat,
            _ => self.val(Op::Convert, Ty::U32, [i.flat], span),
        };
        let w = self.konst(Const::U32(words));
        self.val(Op::Binary(BinOp::Mul), Ty::U32, [flat, w], span)
    }

    /// The index of word `k` of an element whose first word is `base`.
    fn word_at(&mut self, base: Operand, k: u32, span: Span) -> Operand {
        if k == 0 {
            return base;
        }
        let k = self.konst(Const::U32(k));
        self.val(Op::Binary(BinOp::Add), Ty::U32, [base, k], span)
    }

    /// Element `flat` of array of structs `a` (its index already checked).
    pub(super) fn load_record(&mut self, a: ArrayId, i: &Index, span: Span) -> Ex {
        let id = self.record_of(a).expect("an array of structs");
        let base = self.record_base(a, i, span);
        let n = self.m.strukt(id).leaves.len() as u32;
        let leaves = self.load_leaves(a, id, base, 0, n, span);
        self.struct_value(id, leaves)
    }

    /// Leaves `first..first + count` of struct `id` from the element at word `base`.
    fn load_leaves(
        &mut self,
        a: ArrayId,
        id: StructId,
        base: Operand,
        first: u32,
        count: u32,
        span: Span,
    ) -> Vec<Operand> {
        let leaves: Vec<(Ty, u32)> = self.m.strukt(id).leaves
            [first as usize..(first + count) as usize]
            .iter()
            .map(|l| (l.ty, l.offset))
            .collect();
        leaves
            .into_iter()
            .map(|(t, offset)| {
                let s = t.scalar();
                let comps: Vec<Operand> = (0..t.components())
                    .map(|k| self.load_scalar(a, base, s, offset + k * s.size(), span))
                    .collect();
                match t {
                    Ty::Scalar(_) => comps[0],
                    _ => self.val(Op::Construct, t, comps, span),
                }
            })
            .collect()
    }

    /// The bool a stored `u32` word holds (0 or 1, as stores write it; any other non-zero
    /// word is true).
    fn bool_of_word(&mut self, w: Operand, span: Span) -> Operand {
        let zero = self.konst(Const::U32(0));
        self.val(Op::Cmp(CmpOp::Ne), Ty::BOOL, [w, zero], span)
    }

    /// The scalar of type `s` at byte `byte` of the element at word `base`.
    fn load_scalar(
        &mut self,
        a: ArrayId,
        base: Operand,
        s: Scalar,
        byte: u32,
        span: Span,
    ) -> Operand {
        if let Some(k) = self.record_member(a, byte) {
            let word = if s == Scalar::Bool { Scalar::U32 } else { s };
            let raw = self.val(Op::LoadField(a, k), Ty::Scalar(word), [base], span);
            if s != Scalar::Bool {
                return raw;
            }
            return self.bool_of_word(raw, span);
        }
        let w = self.word_at(base, byte / 4, span);
        let raw = self.val(Op::Load(a), Ty::U32, [w], span);
        match s {
            Scalar::U32 => raw,
            Scalar::Bool => self.bool_of_word(raw, span),
            s if s.is_narrow() => {
                let shift = 8 * (byte % 4);
                let down = if shift == 0 {
                    raw
                } else {
                    let sh = self.konst(Const::U32(shift));
                    self.val(Op::Binary(BinOp::Shr), Ty::U32, [raw, sh], span)
                };
                // An explicit conversion wraps to a narrow int: the low bits; an `f16` is
                // the half of its low 16 bits.
                let op = if s == Scalar::F16 {
                    Op::Bitcast
                } else {
                    Op::Convert
                };
                self.val(op, Ty::Scalar(s), [down], span)
            }
            s => self.val(Op::Bitcast, Ty::Scalar(s), [raw], span),
        }
    }

    /// Stores `leaves` as leaves `first..` of struct `id` into the element at word `base`.
    fn store_leaves(
        &mut self,
        a: ArrayId,
        id: StructId,
        base: Operand,
        first: u32,
        leaves: &[Operand],
        span: Span,
    ) {
        let layout: Vec<(Ty, u32)> = self.m.strukt(id).leaves
            [first as usize..first as usize + leaves.len()]
            .iter()
            .map(|l| (l.ty, l.offset))
            .collect();
        for ((t, offset), &o) in layout.into_iter().zip(leaves) {
            let s = t.scalar();
            for k in 0..t.components() {
                let c = match t {
                    Ty::Scalar(_) => o,
                    _ => self.val(Op::Extract(k), Ty::Scalar(s), [o], span),
                };
                self.store_scalar(a, base, s, offset + k * s.size(), c, span);
            }
        }
    }

    /// Stores scalar `c` of type `s` at byte `byte` of the element at word `base`.
    fn store_scalar(
        &mut self,
        a: ArrayId,
        base: Operand,
        s: Scalar,
        byte: u32,
        c: Operand,
        span: Span,
    ) {
        if let Some(k) = self.record_member(a, byte) {
            let v = match s {
                Scalar::Bool => self.val(Op::Convert, Ty::U32, [c], span),
                _ => c,
            };
            self.emit(Op::StoreField(a, k), None, [base, v], span);
            return;
        }
        let w = self.word_at(base, byte / 4, span);
        let bits = match s {
            Scalar::U32 => c,
            // An `f16`'s bits are its half's 16.
            Scalar::F32 | Scalar::I32 | Scalar::F16 => self.val(Op::Bitcast, Ty::U32, [c], span),
            _ => self.val(Op::Convert, Ty::U32, [c], span),
        };
        if !s.is_narrow() {
            self.emit(Op::Store(a), None, [w, bits], span);
            return;
        }
        // One atomic `xor` flips the bits of the field that differ from the word's (see
        // the emitter's packed stores).
        let shift = self.konst(Const::U32(8 * (byte % 4)));
        let old = self.val(Op::Load(a), Ty::U32, [w], span);
        let down = self.val(Op::Binary(BinOp::Shr), Ty::U32, [old, shift], span);
        let flips = self.val(Op::Binary(BinOp::BitXor), Ty::U32, [down, bits], span);
        let mask = self.konst(Const::U32((1 << s.bits()) - 1));
        let flips = self.val(Op::Binary(BinOp::BitAnd), Ty::U32, [flips, mask], span);
        let placed = self.val(Op::Binary(BinOp::Shl), Ty::U32, [flips, shift], span);
        self.emit(
            Op::Atomic(AtomicOp::Xor, a),
            Some(Ty::U32),
            [w, placed],
            span,
        );
    }

    /// `a[i] = value` into an array of structs.
    pub(super) fn store_record(
        &mut self,
        a: ArrayId,
        i: &Index,
        ex: Ex,
        value_span: Span,
        span: Span,
    ) {
        let id = self.record_of(a).expect("an array of structs");
        let what = format!(
            "stored into `{}`, an Array[{}]",
            self.cx.arrays[a.index()].name,
            self.struct_name(id)
        );
        let Some(leaves) = self.field_operands(FieldTy::Struct(id), ex, value_span, &what) else {
            return;
        };
        let base = self.record_base(a, i, span);
        self.store_leaves(a, id, base, 0, &leaves, span);
    }

    // ----- local and shared arrays of structs ---------------------------------------------

    /// `name = local_array(S, n)` (or `shared_array`) of a struct: one array per leaf
    /// (`name.vel`; a bool's of `u32`s), each element read and written leaf by leaf.
    pub(super) fn struct_fixed_array(
        &mut self,
        kind: Fixed,
        name: String,
        id: StructId,
        shape_arg: ExprId,
        target_span: Span,
        span: Span,
    ) {
        let Some(shape) = self.fixed_array_shape(kind, shape_arg) else {
            return;
        };
        let len = shape.iter().fold(1u64, |a, &n| a.saturating_mul(n));
        // Its bytes: the element's size, in words.
        let words = len.saturating_mul(u64::from(self.m.strukt(id).size / 4));
        let fits = match kind {
            Fixed::Shared => self.fits_workgroup_memory(words, Ty::U32, span),
            Fixed::Local => self.fits_private_memory(words, Ty::U32, span),
        };
        if !fits {
            return;
        }
        let leaves: Vec<(String, Ty)> = self
            .m
            .strukt(id)
            .leaves
            .iter()
            .map(|l| {
                (
                    format!("{name}.{}", l.path),
                    if l.ty == Ty::BOOL { Ty::U32 } else { l.ty },
                )
            })
            .collect();
        let mark = self.local_arrays.len();
        let arrays = leaves
            .into_iter()
            .map(|(n, t)| self.fixed_array(kind, &n, t, &shape, target_span, span))
            .collect();
        // The struct array's name is what goes out of scope with its block.
        if kind == Fixed::Local {
            self.local_arrays.truncate(mark);
            self.local_arrays.push((name.clone(), target_span));
        }
        self.sarrays.push((id, arrays));
        self.locals
            .insert(name, Local::StructArray(self.sarrays.len() as u32 - 1));
    }

    /// The local or shared array of structs `e` names, if it names one.
    fn struct_array(&self, e: ExprId) -> Option<u32> {
        match &self.ast.expr(e).kind {
            ExprKind::Name(n) => match self.locals.get(n) {
                Some(Local::StructArray(k)) => Some(*k),
                _ => None,
            },
            _ => None,
        }
    }

    /// `a[i]` of a local or shared array of structs (`None` when `base` is no such array).
    pub(super) fn struct_array_item(
        &mut self,
        base: ExprId,
        index: ExprId,
        span: Span,
    ) -> Option<Ex> {
        let k = self.struct_array(base)?;
        let Some((id, arrays, flat)) = self.soa_element(k, index, span) else {
            return Some(Ex::Err);
        };
        let leaves = self.load_soa(id, &arrays, 0, flat, span);
        Some(self.struct_value(id, leaves))
    }

    /// Struct array `k`'s struct, leaf arrays and the flat index of element `index`, its
    /// bounds checked once for all of them; `None` after an error.
    fn soa_element(
        &mut self,
        k: u32,
        index: ExprId,
        span: Span,
    ) -> Option<(StructId, Vec<ArrayId>, Operand)> {
        let (id, arrays) = self.sarrays[k as usize].clone();
        let i = self.index(arrays[0], index)?;
        self.check_index(arrays[0], &i, span);
        Some((id, arrays, i.flat))
    }

    /// Leaves `first..` (as many as `arrays`) of element `flat` of a struct array of one array
    /// per leaf.
    fn load_soa(
        &mut self,
        id: StructId,
        arrays: &[ArrayId],
        first: u32,
        flat: Operand,
        span: Span,
    ) -> Vec<Operand> {
        let tys: Vec<Ty> = self.m.strukt(id).leaves[first as usize..first as usize + arrays.len()]
            .iter()
            .map(|l| l.ty)
            .collect();
        arrays
            .iter()
            .zip(tys)
            .map(|(&a, t)| match t {
                Ty::Scalar(Scalar::Bool) => {
                    let w = self.val(Op::Load(a), Ty::U32, [flat], span);
                    self.bool_of_word(w, span)
                }
                t => self.val(Op::Load(a), t, [flat], span),
            })
            .collect()
    }

    /// Stores `leaves` as leaves `first..` of struct `id` into their arrays (of a struct
    /// array of one array per leaf), at element `flat`.
    #[allow(clippy::too_many_arguments)]
    fn store_soa(
        &mut self,
        id: StructId,
        arrays: &[ArrayId],
        first: u32,
        leaves: &[Operand],
        flat: Operand,
        span: Span,
    ) {
        let tys: Vec<Ty> = self.m.strukt(id).leaves[first as usize..first as usize + arrays.len()]
            .iter()
            .map(|l| l.ty)
            .collect();
        for ((&a, &o), t) in arrays.iter().zip(leaves).zip(tys) {
            // A bool leaf's array holds `u32`s.
            let v = match t {
                Ty::Scalar(Scalar::Bool) => self.val(Op::Convert, Ty::U32, [o], span),
                _ => o,
            };
            self.emit(Op::Store(a), None, [flat, v], span);
        }
    }

    /// `a[i] = value` into a local or shared array of structs; false when `base` is no such
    /// array.
    pub(super) fn struct_array_store(
        &mut self,
        base: ExprId,
        index: ExprId,
        ex: Ex,
        value_span: Span,
        span: Span,
    ) -> bool {
        let Some(k) = self.struct_array(base) else {
            return false;
        };
        let Some((id, arrays, flat)) = self.soa_element(k, index, span) else {
            return true;
        };
        let what = format!("stored into an array of {}", self.struct_name(id));
        if let Some(leaves) = self.field_operands(FieldTy::Struct(id), ex, value_span, &what) {
            self.store_soa(id, &arrays, 0, &leaves, flat, span);
        }
        true
    }

    // ----- places ------------------------------------------------------------------------

    /// The place an attribute target (`p.vel`, `p.vel.x`, `a[i].mass`) names in a local
    /// struct or an element of an array of structs: `None` when its root is neither, `Some(None)`
    /// after an error.
    fn struct_place(&mut self, target: ExprId) -> Option<Option<Place>> {
        let mut attrs = Vec::new();
        let mut e = target;
        while let ExprKind::Attr(base, attr) = &self.ast.expr(e).kind {
            attrs.push((attr.clone(), self.ast.expr(e).span));
            e = *base;
        }
        attrs.reverse();
        let (root, sid) = match &self.ast.expr(e).kind {
            ExprKind::Name(n) => match self.locals.get(n).copied() {
                Some(Local::Struct(k)) => {
                    let (id, vars) = self.slocals[k as usize].clone();
                    (Root::Local(vars), id)
                }
                _ => return None,
            },
            ExprKind::Subscript(b, index) if self.struct_array(*b).is_some() => {
                let k = self.struct_array(*b)?;
                let span = self.ast.expr(e).span;
                let Some((id, arrays, flat)) = self.soa_element(k, *index, span) else {
                    return Some(None);
                };
                (Root::Soa(arrays, flat), id)
            }
            ExprKind::Subscript(b, index) => {
                let a = match &self.ast.expr(*b).kind {
                    ExprKind::Name(n) => match self.locals.get(n).copied() {
                        Some(Local::Array(a)) => a,
                        _ => return None,
                    },
                    _ => return None,
                };
                let id = self.record_of(a)?;
                let span = self.ast.expr(e).span;
                let Some(i) = self.index(a, *index) else {
                    return Some(None);
                };
                self.check_index(a, &i, span);
                let base = self.record_base(a, &i, span);
                (Root::Record(a, base), id)
            }
            _ => return None,
        };
        let mut place = Place {
            root,
            sid,
            first: 0,
            count: self.m.strukt(sid).leaves.len() as u32,
            ty: FieldTy::Struct(sid),
            comp: None,
        };
        let last = attrs.len().saturating_sub(1);
        for (k, (attr, span)) in attrs.into_iter().enumerate() {
            match place.ty {
                FieldTy::Struct(s) => {
                    let st = self.m.strukt(s);
                    let Some(f) = st.field(&attr) else {
                        let d = Diagnostic::error(
                            span,
                            format!("struct `{}` has no field `{attr}`", st.name),
                        )
                        .with_help(format!("its fields are {}", st.field_list()));
                        self.cx.diags.push(d);
                        return Some(None);
                    };
                    place.first += f.first;
                    place.count = f.count;
                    place.ty = f.ty;
                }
                FieldTy::Value(t) => {
                    let i = match attr.as_bytes() {
                        [c] if t.as_vector().is_some() => COMPONENTS
                            .iter()
                            .position(|&x| x == *c as char)
                            .filter(|&i| (i as u32) < t.components()),
                        _ => None,
                    };
                    match i {
                        Some(i) if k == last => place.comp = Some(i as u32),
                        _ => {
                            self.error(
                                span,
                                format!(
                                    "{} has no component `{attr}` that can be assigned",
                                    t.with_article()
                                ),
                            );
                            return Some(None);
                        }
                    }
                }
            }
        }
        Some(Some(place))
    }

    /// The value at a place.
    fn read_place(&mut self, p: &Place, span: Span) -> Ex {
        let leaves: Vec<Operand> = match &p.root {
            Root::Local(vars) => vars[p.first as usize..(p.first + p.count) as usize]
                .iter()
                .map(|&v| self.read(v, span))
                .collect(),
            Root::Record(a, base) => self.load_leaves(*a, p.sid, *base, p.first, p.count, span),
            Root::Soa(arrays, flat) => {
                let range = &arrays[p.first as usize..(p.first + p.count) as usize];
                self.load_soa(p.sid, range, p.first, *flat, span)
            }
        };
        match (p.ty, p.comp) {
            (FieldTy::Value(t), Some(i)) => Ex::Val(
                self.component(leaves[0], t, i, span),
                Ty::Scalar(t.scalar()),
            ),
            (FieldTy::Value(t), None) => Ex::Val(leaves[0], t),
            (FieldTy::Struct(s), _) => self.struct_value(s, leaves),
        }
    }

    /// Writes `ex` at a place.
    fn write_place(&mut self, p: &Place, ex: Ex, value_span: Span, span: Span) {
        if let (FieldTy::Value(t), Some(i)) = (p.ty, p.comp) {
            let what = format!("assigned to a component of {}", t.with_article());
            let Some(c) = self.coerce(ex, Ty::Scalar(t.scalar()), value_span, &what) else {
                return;
            };
            match &p.root {
                Root::Local(vars) => {
                    let var = vars[p.first as usize];
                    let cur = self.read(var, span);
                    let new = self.val(Op::Insert(i), t, [cur, c], span);
                    self.def(var, new);
                }
                Root::Record(a, base) => {
                    let offset = self.m.strukt(p.sid).leaves[p.first as usize].offset;
                    let s = t.scalar();
                    self.store_scalar(*a, *base, s, offset + i * s.size(), c, span);
                }
                Root::Soa(arrays, flat) => {
                    let a = arrays[p.first as usize];
                    let cur = self.val(Op::Load(a), t, [*flat], span);
                    let new = self.val(Op::Insert(i), t, [cur, c], span);
                    self.emit(Op::Store(a), None, [*flat, new], span);
                }
            }
            return;
        }
        let what = match p.ty {
            FieldTy::Value(t) => format!("assigned to a field of type {t}"),
            FieldTy::Struct(s) => format!("assigned to a field of type {}", self.struct_name(s)),
        };
        let Some(leaves) = self.field_operands(p.ty, ex, value_span, &what) else {
            return;
        };
        match &p.root {
            Root::Local(vars) => {
                for (&v, o) in vars[p.first as usize..].iter().zip(leaves) {
                    self.def(v, o);
                }
            }
            Root::Record(a, base) => self.store_leaves(*a, p.sid, *base, p.first, &leaves, span),
            Root::Soa(arrays, flat) => {
                let range = arrays[p.first as usize..].to_vec();
                self.store_soa(p.sid, &range, p.first, &leaves, *flat, span);
            }
        }
    }

    /// `p.f = value` (`p.vel.x = value`, `a[i].mass = value`) into a struct; false when the
    /// target is not in one.
    pub(super) fn assign_struct_field(&mut self, target: ExprId, ex: Ex, value_span: Span) -> bool {
        let span = self.ast.expr(target).span;
        match self.struct_place(target) {
            None => false,
            Some(None) => true,
            Some(Some(p)) => {
                self.write_place(&p, ex, value_span, span);
                true
            }
        }
    }

    /// `p.f op= value` in a struct; false when the target is not in one.
    pub(super) fn aug_assign_struct_field(
        &mut self,
        target: ExprId,
        op: BinaryOp,
        value: ExprId,
        span: Span,
    ) -> bool {
        let tspan = self.ast.expr(target).span;
        let Some(place) = self.struct_place(target) else {
            return false;
        };
        let Some(p) = place else { return true };
        let cur = self.read_place(&p, tspan);
        let rhs = self.expr(value);
        let r = self.binary(op, cur, rhs, tspan, self.ast.expr(value).span, span);
        if !matches!(r, Ex::Err) {
            self.write_place(&p, r, span, tspan);
        }
        true
    }

    // ----- the state of a random stream -----------------------------------------------------

    /// The place `e` names when it holds a `Rand` (a local, a field, an element of an array
    /// of structs); otherwise `Err(Some(what it is))`, or `Err(None)` after an error.
    pub(super) fn state_place(&mut self, e: ExprId) -> Result<StatePlace, Option<String>> {
        let place = match &self.ast.expr(e).kind {
            ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Subscript(..) => {
                self.struct_place(e)
            }
            _ => None,
        };
        match place {
            Some(Some(p)) if p.ty == FieldTy::Struct(ModuleInfo::RAND) && p.comp.is_none() => {
                Ok(StatePlace(p))
            }
            Some(None) => Err(None),
            _ => match self.expr(e) {
                Ex::Err => Err(None),
                Ex::Struct(v) => {
                    let id = self.struct_parts(v).0;
                    if id == ModuleInfo::RAND {
                        Err(Some("a `Rand` that no variable holds".into()))
                    } else {
                        Err(Some(format!("a `{}`", self.struct_name(id))))
                    }
                }
                Ex::Val(_, t) => Err(Some(t.with_article())),
                _ => Err(Some("this value".into())),
            },
        }
    }

    /// The state word at a `Rand` place.
    pub(super) fn read_rand(&mut self, p: &StatePlace, span: Span) -> Operand {
        match self.read_place(&p.0, span) {
            Ex::Struct(v) => self.struct_parts(v).1[0],
            _ => unreachable!("a state place holds a Rand"),
        }
    }

    /// Stores the state word `w` at a `Rand` place.
    pub(super) fn write_rand(&mut self, p: &StatePlace, w: Operand, span: Span) {
        let v = self.struct_value(ModuleInfo::RAND, vec![w]);
        self.write_place(&p.0, v, span, span);
    }

    // ----- calls -------------------------------------------------------------------------

    /// `return value` from a func returning a struct: its leaves in the carrier.
    pub(super) fn pack_struct(&mut self, v: ExprId, id: StructId, tt: TupleTy) -> Option<Operand> {
        let ex = self.expr(v);
        let span = self.ast.expr(v).span;
        let what = format!("returned from `{}`", self.sig.source_name());
        let leaves = self.field_operands(FieldTy::Struct(id), ex, span, &what)?;
        Some(self.pack_items(tt, &leaves, span))
    }

    /// The struct a call of a func returning one gives: its leaves from the carrier.
    pub(super) fn unpack_struct(
        &mut self,
        o: Operand,
        id: StructId,
        tt: TupleTy,
        span: Span,
    ) -> Ex {
        let leaves = (0..tt.items().len())
            .map(|k| self.tuple_item(o, tt, k, span).0)
            .collect();
        self.struct_value(id, leaves)
    }
}

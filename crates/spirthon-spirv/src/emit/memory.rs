//! Memory: a kernel's parameters from its uniform block (and the launch size and array
//! shapes stored there), pointers to array elements (through a storage buffer's Block struct,
//! or straight into a workgroup or private array), and atomics.

use spirthon_ir::hash::{FastMap, FastSet};

use rspirv::spirv::{self, Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::{Const, Scalar, Ty, UniformLayout};

use super::{EmitError, Emitter, FnState, R};

impl FnState<'_> {
    /// A kernel's scalar parameter from its uniform block, or a func's parameter.
    pub(super) fn param(&mut self, e: &mut Emitter, n: u32, t: Ty, id: Word) -> R<()> {
        let Some((var, _)) = self.g.uniform_of.get(&self.id) else {
            // A func's parameter is its OpFunctionParameter (see `FnState::new`).
            let _ = (n, t, id);
            return Ok(());
        };
        let st = e.storage_ty(t);
        let member = n;
        if let Ty::Matrix(s, n) = t {
            // Its rows, `row_stride` bytes apart (std140), entry by entry into the row-major
            // value.
            let rows = uniform_load(e, *var, member, st, None)?;
            let ft = e.ty(Ty::Scalar(s));
            let mut entries = Vec::with_capacity(t.components() as usize);
            for r in 0..n as u32 {
                for c in 0..n as u32 {
                    entries.push(e.b.op(SOp::CompositeExtract, ft, None, &[rows, r, c])?);
                }
            }
            let rt = e.ty(t);
            e.b.op(SOp::CompositeConstruct, rt, Some(id), &entries)?;
            return Ok(());
        }
        if t == Ty::BOOL {
            let raw = uniform_load(e, *var, n, st, None)?;
            let zero = e.konst(Const::U32(0));
            let bt = e.ty(Ty::BOOL);
            e.b.op(SOp::INotEqual, bt, Some(id), &[raw, zero])?;
        } else {
            uniform_load(e, *var, n, st, Some(id))?;
        }
        Ok(())
    }

    /// Whether the elements of array `a` are stored as their components (see
    /// [`scalarized_arrays`]), so each access to one is one per component.
    pub(super) fn scalarized(&self, a: ArrayId) -> bool {
        self.g.scalarized.contains(&a)
    }

    /// Pointers to the components of element `index` (of type `it`) of the scalarized array
    /// `a` of vectors of type `t`: scalars `n * index + k`.
    pub(super) fn component_pointers(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
    ) -> R<Vec<Word>> {
        let s = Ty::Scalar(t.scalar());
        component_indices(e, index, it, t)?
            .into_iter()
            .map(|at| self.element(e, a, at, it, s))
            .collect()
    }

    /// `a[index]` of type `t` into `out`: one load per component for a scalarized array.
    pub(super) fn load(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
        out: Word,
    ) -> R<()> {
        let rt = e.ty(t);
        if let Some(s) = self.packed(a) {
            if t.as_vector().is_none() {
                return self.packed_load(e, a, index, it, s, out);
            }
            if t.size().is_multiple_of(4) {
                return self.whole_words_load(e, a, index, it, t, out);
            }
            // A vector of narrow scalars: each component is its own packed element.
            let mut comps = Vec::new();
            for at in component_indices(e, index, it, t)? {
                let c = e.b.id();
                self.packed_load(e, a, at, it, s, c)?;
                comps.push(c);
            }
            e.b.op(SOp::CompositeConstruct, rt, Some(out), &comps)?;
            return Ok(());
        }
        if self.scalarized(a) {
            let st = Ty::Scalar(t.scalar());
            let comps = self
                .component_pointers(e, a, index, it, t)?
                .into_iter()
                .map(|p| self.load_at(e, a, p, st, None))
                .collect::<R<Vec<Word>>>()?;
            e.b.op(SOp::CompositeConstruct, rt, Some(out), &comps)?;
            return Ok(());
        }
        let p = self.element(e, a, index, it, t)?;
        self.load_at(e, a, p, t, Some(out))?;
        Ok(())
    }

    /// Element `index` (of type `it`) of the packed array `a` of narrow scalars `s`, in its
    /// carrier, into `out`.
    fn packed_load(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        s: Scalar,
        out: Word,
    ) -> R<()> {
        let (_, _, v) = self.packed_word(e, a, index, it, s)?;
        from_bits(e, s, v, out)
    }

    /// The words of element `index` (of type `it`) of packed array `a`, whose elements of
    /// type `t` are whole words (`u8vec4`, `f16vec2`, `u16vec4`, ...): pointers to them, in
    /// order.
    fn element_words(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
    ) -> R<Vec<Word>> {
        let u = e.ty(Ty::U32);
        let index = as_u32(e, index, it)?;
        let per = t.size() / 4;
        let first = match per {
            1 => index,
            _ => {
                let k = e.konst(Const::U32(per));
                e.b.op(SOp::IMul, u, None, &[index, k])?
            }
        };
        (0..per)
            .map(|w| {
                let at = match w {
                    0 => first,
                    _ => {
                        let k = e.konst(Const::U32(w));
                        e.b.op(SOp::IAdd, u, None, &[first, k])?
                    }
                };
                self.element(e, a, at, Ty::U32, Ty::U32)
            })
            .collect()
    }

    /// Element `index` of a packed array whose elements are whole words, into `out`: each
    /// word loaded once and its components taken from its bits (the first in the low ones).
    fn whole_words_load(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
        out: Word,
    ) -> R<()> {
        let s = t.scalar();
        let u = e.ty(Ty::U32);
        let per_word = 32 / s.bits();
        let mut comps = Vec::new();
        for p in self.element_words(e, a, index, it, t)? {
            let word = e.b.op(SOp::Load, u, None, &[p])?;
            for k in 0..per_word {
                let bits = match k {
                    0 => word,
                    _ => {
                        let shift = e.konst(Const::U32(k * s.bits()));
                        e.b.op(SOp::ShiftRightLogical, u, None, &[word, shift])?
                    }
                };
                let c = e.b.id();
                from_bits(e, s, bits, c)?;
                comps.push(c);
            }
        }
        let rt = e.ty(t);
        e.b.op(SOp::CompositeConstruct, rt, Some(out), &comps)?;
        Ok(())
    }

    /// `a[index] = value` into a packed array whose elements are whole words: each word
    /// built from its components and stored (no other element shares it, so no atomic).
    fn whole_words_store(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
        value: Word,
    ) -> R<()> {
        let s = t.scalar();
        let (u, ct) = (e.ty(Ty::U32), e.ty(Ty::Scalar(s)));
        let per_word = 32 / s.bits();
        let mask = e.konst(Const::U32(((1u64 << s.bits()) - 1) as u32));
        let words = self.element_words(e, a, index, it, t)?;
        for (w, p) in words.into_iter().enumerate() {
            let mut word = None;
            for k in 0..per_word {
                let c = e.b.op(
                    SOp::CompositeExtract,
                    ct,
                    None,
                    &[value, w as u32 * per_word + k],
                )?;
                let bits = to_bits(e, s, c)?;
                let bits = e.b.op(SOp::BitwiseAnd, u, None, &[bits, mask])?;
                let placed = match k {
                    0 => bits,
                    _ => {
                        let shift = e.konst(Const::U32(k * s.bits()));
                        e.b.op(SOp::ShiftLeftLogical, u, None, &[bits, shift])?
                    }
                };
                word = Some(match word {
                    None => placed,
                    Some(acc) => e.b.op(SOp::BitwiseOr, u, None, &[acc, placed])?,
                });
            }
            let word = word.ok_or_else(|| EmitError("an element word of no components".into()))?;
            e.b.void(SOp::Store, &[p, word])?;
        }
        Ok(())
    }

    /// The value of type `t` at pointer `p` into array `a` (into `out` when given): a load,
    /// and for a word array the float its bits are.
    fn load_at(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        p: Word,
        t: Ty,
        out: Option<Word>,
    ) -> R<Word> {
        let rt = e.ty(t);
        if !self.words(a) {
            return e.b.op(SOp::Load, rt, out, &[p]);
        }
        let ut = e.ty(word_type(t.scalar()));
        let bits = e.b.op(SOp::Load, ut, None, &[p])?;
        e.b.op(SOp::Bitcast, rt, out, &[bits])
    }

    /// `value` (of scalar type `s`, or a vector of them) stored at pointer `p` into array
    /// `a` (its bits, in a word array).
    fn store_at(&mut self, e: &mut Emitter, a: ArrayId, p: Word, value: Word, s: Scalar) -> R<()> {
        let value = match self.words(a) {
            true => {
                let ut = e.ty(word_type(s));
                e.b.op(SOp::Bitcast, ut, None, &[value])?
            }
            false => value,
        };
        e.b.void(SOp::Store, &[p, value])
    }

    /// Whether array `a` holds floats as their bits in words (`u32`s for `f32`s, `u64`s for
    /// `f64`s: see [`Module::word_arrays`] and [`word_type`]).
    fn words(&self, a: ArrayId) -> bool {
        self.g.words.contains(&a)
    }

    /// `a[index] = value` of type `t`: one store per component for a scalarized array.
    pub(super) fn store(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
        value: Word,
    ) -> R<()> {
        if let Some(s) = self.packed(a) {
            if t.as_vector().is_none() {
                return self.packed_store(e, a, index, it, s, value);
            }
            if t.size().is_multiple_of(4) {
                return self.whole_words_store(e, a, index, it, t, value);
            }
            // A vector of narrow scalars: each component is its own packed element, stored
            // as a packed scalar is (its word's neighbours may be stored at the same time).
            let ct = e.ty(Ty::Scalar(s));
            for (k, at) in component_indices(e, index, it, t)?.into_iter().enumerate() {
                let c =
                    e.b.op(SOp::CompositeExtract, ct, None, &[value, k as u32])?;
                self.packed_store(e, a, at, it, s, c)?;
            }
            return Ok(());
        }
        if self.scalarized(a) {
            let st = e.ty(Ty::Scalar(t.scalar()));
            let ps = self.component_pointers(e, a, index, it, t)?;
            for (n, p) in ps.into_iter().enumerate() {
                let c =
                    e.b.op(SOp::CompositeExtract, st, None, &[value, n as u32])?;
                self.store_at(e, a, p, c, t.scalar())?;
            }
            return Ok(());
        }
        let p = self.element(e, a, index, it, t)?;
        self.store_at(e, a, p, value, t.scalar())
    }

    /// The narrow int type of a packed buffer (see [`GlobalArray::packed`]).
    fn packed(&self, a: ArrayId) -> Option<Scalar> {
        self.g.packed.get(&a).copied()
    }

    /// The word of packed array `a` (of narrow ints `s`) that holds element `index` (of
    /// type `it`): a pointer to it, the element's bit offset in it, and the word loaded and
    /// shifted down by that offset (the element in its low bits, above them the rest). Four
    /// `u8`s or two `u16`s to a word, the first in the low bits, as NumPy's little-endian
    /// bytes lie.
    fn packed_word(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        s: Scalar,
    ) -> R<(Word, Word, Word)> {
        let u = e.ty(Ty::U32);
        let index = as_u32(e, index, it)?;
        let per_word = 32 / s.bits();
        let log = e.konst(Const::U32(per_word.trailing_zeros()));
        let word = e.b.op(SOp::ShiftRightLogical, u, None, &[index, log])?;
        let low = e.konst(Const::U32(per_word - 1));
        let slot = e.b.op(SOp::BitwiseAnd, u, None, &[index, low])?;
        let bits = e.konst(Const::U32(s.bits()));
        let shift = e.b.op(SOp::IMul, u, None, &[slot, bits])?;
        let p = self.element(e, a, word, Ty::U32, Ty::U32)?;
        let loaded = e.b.op(SOp::Load, u, None, &[p])?;
        let down = e.b.op(SOp::ShiftRightLogical, u, None, &[loaded, shift])?;
        Ok((p, shift, down))
    }

    /// `a[index] = value` into a packed array: one atomic `xor` on its word flips exactly the
    /// element's bits that differ from its old value (read just before), so that invocations
    /// storing the other elements of the same word at the same time (neighbouring pixels of
    /// a `u8` image) lose nothing. (Two invocations storing the same element at once race,
    /// as they would on a `u32`.)
    fn packed_store(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        s: Scalar,
        value: Word,
    ) -> R<()> {
        let (p, shift, old) = self.packed_word(e, a, index, it, s)?;
        let u = e.ty(Ty::U32);
        let bits = to_bits(e, s, value)?;
        let flips = e.b.op(SOp::BitwiseXor, u, None, &[old, bits])?;
        let mask = e.konst(Const::U32((1u32 << s.bits()) - 1));
        let flips = e.b.op(SOp::BitwiseAnd, u, None, &[flips, mask])?;
        let placed = e.b.op(SOp::ShiftLeftLogical, u, None, &[flips, shift])?;
        let device = e.konst(Const::U32(1));
        let relaxed = e.konst(Const::U32(0));
        e.b.op(SOp::AtomicXor, u, None, &[p, device, relaxed, placed])?;
        Ok(())
    }

    /// A pointer to member `k` (of type `t`) of element `index` of an array of structs
    /// declared as a struct of words.
    pub(super) fn field_pointer(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        k: u32,
        index: Word,
        t: Ty,
    ) -> R<Word> {
        let et = e.ty(t);
        let var = self.g.arrays[a.index()];
        let p = e.b.type_pointer(StorageClass::StorageBuffer, et);
        let zero = e.konst(Const::I32(0));
        let member = e.konst(Const::I32(k as i32));
        e.b.op(SOp::AccessChain, p, None, &[var, zero, index, member])
    }

    /// A pointer to element `index` of array `a`: through the Block struct's member 0 for a
    /// storage buffer, straight into a workgroup array.
    pub(super) fn element(
        &mut self,
        e: &mut Emitter,
        a: ArrayId,
        index: Word,
        it: Ty,
        t: Ty,
    ) -> R<Word> {
        // A word array's element is a word (the bits of its float).
        let et = match self.words(a) {
            true => e.ty(word_type(t.scalar())),
            false => e.ty(t),
        };
        let var = self.g.arrays[a.index()];
        if let Some(&(class, _)) = self.g.direct.get(&a) {
            let index = self.in_bounds(e, a, index, it)?;
            let p = e.b.type_pointer(class, et);
            return e.b.op(SOp::AccessChain, p, None, &[var, index]);
        }
        let p = e.b.type_pointer(StorageClass::StorageBuffer, et);
        let zero = e.konst(Const::I32(0));
        e.b.op(SOp::AccessChain, p, None, &[var, zero, index])
    }

    /// `index` (of type `it`) into the private or workgroup array `a`, clamped to its last
    /// element outside checked mode (where a check stops an invocation before it uses an
    /// index past the end). A storage buffer is bounded by the device's robust buffer access;
    /// these arrays are not, and the driver runs this module as it is (no translation adds
    /// bounds checks), so an index past the end would reach other memory: it reads and writes
    /// the last element instead (docs/language.md, "The module the driver runs").
    fn in_bounds(&mut self, e: &mut Emitter, a: ArrayId, index: Word, it: Ty) -> R<Word> {
        let Some(&(_, len)) = self.g.direct.get(&a) else {
            return Ok(index);
        };
        if self.g.checked || len == 0 {
            return Ok(index);
        }
        let u = e.ty(Ty::U32);
        let ui = as_u32(e, index, it)?;
        let last = e.konst(Const::U32(len - 1));
        let glsl = e.glsl;
        let clamped =
            e.b.ext_inst(u, None, glsl, spirv::GlslStd450Op::UMin as u32, &[ui, last])?;
        if it.scalar() == Scalar::U32 {
            return Ok(clamped);
        }
        let itw = e.ty(it);
        e.b.op(SOp::Bitcast, itw, None, &[clamped])
    }

    /// The launch size, a `uvec3`, from the kernel's uniform block (`what` names the use,
    /// for the error outside a kernel).
    fn threads(&mut self, e: &mut Emitter, what: &str) -> R<Word> {
        let (var, layout) = self
            .g
            .uniform_of
            .get(&self.id)
            .ok_or_else(|| EmitError(format!("{what} outside a kernel")))?;
        let u3 = e.ty(Ty::Vector(Scalar::U32, 3));
        uniform_load(e, *var, layout.threads_member(), u3, None)
    }

    /// The launch size, an `ivec3`, from the kernel's uniform block.
    pub(super) fn launch_size(&mut self, e: &mut Emitter, rt: Word, id: Word) -> R<()> {
        let threads = self.threads(e, "`num_threads()`")?;
        e.b.op(SOp::Bitcast, rt, Some(id), &[threads])?;
        Ok(())
    }

    /// An atomic on element `args[0]` (of type `it`) of array `a`, whose elements are `t`:
    /// one instruction, or one per component of a vector (whose old values make the result).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &mut self,
        e: &mut Emitter,
        op: AtomicOp,
        a: ArrayId,
        it: Ty,
        t: Ty,
        id: Word,
        args: &[Word],
    ) -> R<()> {
        if self.words(a) && matches!(t.scalar(), Scalar::F32 | Scalar::F64) {
            return self.word_atomic(e, op, a, it, t, id, args);
        }
        let Ty::Vector(s, n) = t else {
            let p = self.element(e, a, args[0], it, t)?;
            return self.atomic_at(e, op, a, p, t, id, args);
        };
        let st = Ty::Scalar(s);
        let stw = e.ty(st);
        // Every array with atomics on vector elements is scalarized: naga (and WGSL) have
        // atomic scalars only, not atomic components of a vector.
        if !self.scalarized(a) {
            return Err(EmitError(format!(
                "an atomic on the vectors of array {}, which is not scalarized",
                a.0
            )));
        }
        let pointers = self.component_pointers(e, a, args[0], it, t)?;
        let mut olds = Vec::with_capacity(n as usize);
        for (k, p) in pointers.into_iter().enumerate() {
            let parts: Vec<Word> = args[1..]
                .iter()
                .map(|&v| e.b.op(SOp::CompositeExtract, stw, None, &[v, k as u32]))
                .collect::<R<_>>()?;
            let mut operands = vec![args[0]];
            operands.extend(parts);
            let old = e.b.id();
            self.atomic_at(e, op, a, p, st, old, &operands)?;
            olds.push(old);
        }
        let rt = e.ty(t);
        e.b.op(SOp::CompositeConstruct, rt, Some(id), &olds)?;
        Ok(())
    }

    /// A float atomic on element `args[0]` (of type `it`) of word array `a`, whose elements
    /// are `t` (`f32` or `f64`, or a vector of them, one atomic per component): a call of the
    /// compare-exchange loop of `op` ([`atomic_helpers`]).
    #[allow(clippy::too_many_arguments)]
    fn word_atomic(
        &mut self,
        e: &mut Emitter,
        op: AtomicOp,
        a: ArrayId,
        it: Ty,
        t: Ty,
        id: Word,
        args: &[Word],
    ) -> R<()> {
        let indices = match t {
            Ty::Vector(..) => component_indices(e, args[0], it, t)?,
            _ => vec![args[0]],
        };
        let float = t.scalar();
        let ft = e.ty(Ty::Scalar(float));
        let var = self.g.arrays[a.index()];
        let class = self.g.direct.get(&a).map(|d| d.0);
        let mut olds = Vec::with_capacity(indices.len());
        for (k, at) in indices.into_iter().enumerate() {
            let at = self.in_bounds(e, a, at, it)?;
            let value = match t {
                Ty::Vector(..) => {
                    e.b.op(SOp::CompositeExtract, ft, None, &[args[1], k as u32])?
                }
                _ => args[1],
            };
            let helper = atomic_helper(e, var, class, it, op, float);
            // As for `atomic_at`: a use that naga's front end scopes properly.
            let value = e.b.op(SOp::CopyObject, ft, None, &[value])?;
            let call = match op {
                // `(index, expected, value)`.
                AtomicOp::CompareExchange => {
                    let new = e.b.op(SOp::CopyObject, ft, None, &[args[2]])?;
                    vec![helper, at, value, new]
                }
                _ => vec![helper, at, value],
            };
            olds.push(e.b.op(SOp::FunctionCall, ft, None, &call)?);
        }
        let rt = e.ty(t);
        match t {
            Ty::Vector(..) => e.b.op(SOp::CompositeConstruct, rt, Some(id), &olds)?,
            _ => e.b.op(SOp::CopyObject, rt, Some(id), &olds)?,
        };
        Ok(())
    }

    /// An atomic on the scalar of type `t` at pointer `p` into array `a`: `args[1..]` the
    /// value (and, before it, the expected value of a compare-exchange).
    #[allow(clippy::too_many_arguments)]
    fn atomic_at(
        &mut self,
        e: &mut Emitter,
        op: AtomicOp,
        a: ArrayId,
        p: Word,
        t: Ty,
        id: Word,
        args: &[Word],
    ) -> R<()> {
        let rt = e.ty(t);
        // Device scope for a buffer, workgroup scope for a shared array; relaxed ordering
        // (`barrier()` orders memory).
        let scope = if self.g.direct.contains_key(&a) { 2 } else { 1 };
        let scope = e.konst(Const::U32(scope));
        let relaxed = e.konst(Const::U32(0));
        let signed = t.scalar().is_signed();
        // naga's SPIR-V front end takes an atomic's value operands as they were defined,
        // without the load it gives any other use of a value from another block (a loop's
        // accumulator after the loop is one), and then rejects its own module (`NotInScope`).
        // An `OpCopyObject` here is a use it scopes properly.
        let mut copy = |v: Word| e.b.op(SOp::CopyObject, rt, None, &[v]);
        let value = copy(args[1])?;
        let sop = match op {
            AtomicOp::Add if t == Ty::F32 => SOp::AtomicFAddEXT,
            AtomicOp::Add => SOp::AtomicIAdd,
            AtomicOp::Sub => SOp::AtomicISub,
            AtomicOp::Min if signed => SOp::AtomicSMin,
            AtomicOp::Min => SOp::AtomicUMin,
            AtomicOp::Max if signed => SOp::AtomicSMax,
            AtomicOp::Max => SOp::AtomicUMax,
            AtomicOp::And => SOp::AtomicAnd,
            AtomicOp::Or => SOp::AtomicOr,
            AtomicOp::Xor => SOp::AtomicXor,
            AtomicOp::Exchange => SOp::AtomicExchange,
            AtomicOp::CompareExchange => {
                // Operands: pointer, scope, semantics if equal, if unequal, value, comparator.
                let desired = copy(args[2])?;
                let ops = [p, scope, relaxed, relaxed, desired, value];
                e.b.op(SOp::AtomicCompareExchange, rt, Some(id), &ops)?;
                return Ok(());
            }
        };
        e.b.op(sop, rt, Some(id), &[p, scope, relaxed, value])?;
        Ok(())
    }

    pub(super) fn outside_launch(&mut self, e: &mut Emitter, id: Word) -> R<()> {
        let gid = e.launch_id(self.g, Builtin::GlobalId)?;
        let threads = self.threads(e, "a launch guard")?;
        let b3 = e.ty(Ty::Vector(Scalar::Bool, 3));
        let ge = e.b.op(SOp::UGreaterThanEqual, b3, None, &[gid, threads])?;
        let bt = e.ty(Ty::BOOL);
        e.b.op(SOp::Any, bt, Some(id), &[ge])?;
        Ok(())
    }
}

/// Loads struct member `member` of uniform block `var` as type `ty` (into `out`).
pub(super) fn uniform_load(
    e: &mut Emitter,
    var: Word,
    member: u32,
    ty: Word,
    out: Option<Word>,
) -> R<Word> {
    let p = e.b.type_pointer(StorageClass::Uniform, ty);
    let idx = e.konst(Const::I32(member as i32));
    let ptr = e.b.op(SOp::AccessChain, p, None, &[var, idx])?;
    e.b.op(SOp::Load, ty, out, &[ptr])
}

impl Emitter {
    /// The variable of a module array: a storage buffer at its binding (its Block struct
    /// `NonWritable` unless written), a `shared_array` in workgroup memory, or a constant
    /// tuple in private memory, initialized with its items.
    pub(super) fn array_variable(
        &mut self,
        a: &GlobalArray,
        scalarized: bool,
        words: bool,
    ) -> Word {
        // A scalarized array stores `n` scalars per element of `n` components; a packed one
        // is words, as is a word array of floats (their bits, `u32`s or `u64`s).
        let (elem, per) = match a.elem {
            _ if a.packed() => (Ty::U32, 1),
            t @ (Ty::Vector(..) | Ty::Matrix(..)) if scalarized => {
                (Ty::Scalar(t.scalar()), t.components())
            }
            t => (t, 1),
        };
        let elem = if words {
            word_type(elem.scalar())
        } else {
            elem
        };
        if let Memory::Local(len) = a.memory {
            // A `local_array`: a fixed-size array in private memory, zeroed by `Op::Clear`.
            let at = self.fixed_array(a.elem, len);
            let p = self.b.type_pointer(StorageClass::Private, at);
            let var = self.b.variable(p, StorageClass::Private);
            self.name(var, &a.name);
            return var;
        }
        if let Some(values) = a.constant() {
            // A constant tuple: a private array initialized with its elements.
            let et = self.ty(a.elem);
            let n = self.konst(Const::U32(values.len() as u32));
            let at = self.b.type_array(et, n);
            let parts: Vec<Word> = values.iter().map(|&c| self.konst(c)).collect();
            let init = self.b.constant_composite(at, &parts);
            let p = self.b.type_pointer(StorageClass::Private, at);
            let var = self.b.variable_init(p, StorageClass::Private, init);
            self.name(var, &a.name);
            return var;
        }
        if let Memory::Workgroup(len) = a.memory {
            // A `shared_array`: a fixed-size array in workgroup memory.
            let at = self.fixed_array(elem, len * per);
            let p = self.b.type_pointer(StorageClass::Workgroup, at);
            let var = self.b.variable(p, StorageClass::Workgroup);
            self.name(var, &a.name);
            return var;
        }
        let st = match &a.record {
            Some(r) if !r.members.is_empty() => self.record_struct(r, a.written),
            _ => self.array_struct(elem, a.written),
        };
        let p = self.b.type_pointer(StorageClass::StorageBuffer, st);
        let var = self.b.variable(p, StorageClass::StorageBuffer);
        self.b.decorate(var, spirv::Decoration::DescriptorSet, &[0]);
        self.b
            .decorate(var, spirv::Decoration::Binding, &[a.binding]);
        if !a.written {
            self.b.decorate(var, spirv::Decoration::NonWritable, &[]);
        }
        self.name(var, &a.name);
        var
    }

    /// The type of an array of `len` elements of `elem`.
    pub(super) fn fixed_array(&mut self, elem: Ty, len: u32) -> Word {
        let et = self.ty(elem);
        let n = self.konst(Const::U32(len));
        self.b.type_array(et, n)
    }

    /// The Input variable of every thread-id builtin the module reads.
    pub(super) fn builtin_variables(&mut self, m: &Module) -> FastMap<Builtin, Word> {
        let mut used: Vec<Builtin> = m
            .functions
            .iter()
            .flat_map(|f| f.insts.iter())
            .filter_map(|i| match i.op {
                Op::Builtin(b) => Some(b),
                Op::OutsideLaunch | Op::Print(_) => Some(Builtin::GlobalId),
                _ => None,
            })
            .collect();
        if m.checked {
            used.extend(super::checked::RECORD_BUILTINS);
        }
        used.sort();
        used.dedup();
        let mut builtins = FastMap::default();
        for bi in used {
            let (ty, spv) = match bi {
                Builtin::GlobalId => (
                    Ty::Vector(Scalar::U32, 3),
                    spirv::BuiltIn::GlobalInvocationId,
                ),
                Builtin::LocalId => (
                    Ty::Vector(Scalar::U32, 3),
                    spirv::BuiltIn::LocalInvocationId,
                ),
                Builtin::WorkgroupId => (Ty::Vector(Scalar::U32, 3), spirv::BuiltIn::WorkgroupId),
                Builtin::NumWorkgroups => {
                    (Ty::Vector(Scalar::U32, 3), spirv::BuiltIn::NumWorkgroups)
                }
                Builtin::LocalIndex => (Ty::U32, spirv::BuiltIn::LocalInvocationIndex),
                Builtin::SubgroupSize => (Ty::U32, spirv::BuiltIn::SubgroupSize),
                Builtin::SubgroupInvocationId => {
                    (Ty::U32, spirv::BuiltIn::SubgroupLocalInvocationId)
                }
            };
            let t = self.ty(ty);
            let p = self.b.type_pointer(StorageClass::Input, t);
            let var = self.b.variable(p, StorageClass::Input);
            self.b
                .decorate(var, spirv::Decoration::BuiltIn, &[spv as u32]);
            self.name(var, bi.python_name());
            builtins.insert(bi, var);
        }
        builtins
    }
}

/// The arrays whose elements are stored as their components, `n` scalars per element of
/// `n` components: buffers of 3-vectors (packed, 12 bytes an element, as NumPy's `(N, 3)`;
/// std430 would give them 16) and of matrices (NumPy's `(N, n, n)`), and arrays of vectors with atomics (naga and WGSL have no
/// atomic vector components; 2- and 4-vectors keep their std430 layout, which has no
/// padding). Local arrays and constant tables are never scalarized.
pub(super) fn scalarized_arrays(m: &Module) -> FastSet<ArrayId> {
    let mut out: FastSet<ArrayId> = m
        .arrays
        .iter_enumerated()
        .filter(|(_, a)| {
            // A packed array of narrow scalars is accessed component by component already.
            a.is_buffer()
                && !a.packed()
                && (a.elem.components() == 3 || matches!(a.elem, Ty::Matrix(..)))
        })
        .map(|(i, _)| i)
        .collect();
    for inst in m.functions.iter().flat_map(|f| f.insts.iter()) {
        if let (Op::Atomic(_, a), Some(Ty::Vector(..))) = (inst.op, inst.ty) {
            out.insert(a);
        }
    }
    out
}

/// Per axis of each multi-dimensional array: its kernel's uniform block and struct member.
pub(super) fn shape_members(
    m: &Module,
    uniform_of: &FastMap<FuncId, (Word, UniformLayout)>,
) -> FastMap<(ArrayId, u32), (Word, u32)> {
    let mut shapes = FastMap::default();
    for ep in &m.entry_points {
        let var = uniform_of[&ep.function].0;
        for s in &ep.uniform.shapes {
            if let Some(member) = ep.uniform.shape_member(s.array, s.axis) {
                shapes.insert((s.array, s.axis), (var, member));
            }
        }
    }
    shapes
}

/// A narrow scalar `s` from its bits in the low bits of `bits` (a `u32`; the bits above may
/// be anything), in its carrier, into `out`: an `f16`'s `f32`, an int extended.
fn from_bits(e: &mut Emitter, s: Scalar, bits: Word, out: Word) -> R<()> {
    if s == Scalar::F16 {
        super::half::from_bits(e, bits, Some(out))?;
        return Ok(());
    }
    let bits = match s.is_signed() {
        true => {
            let ct = e.ty(Ty::Scalar(s));
            e.b.op(SOp::Bitcast, ct, None, &[bits])?
        }
        false => bits,
    };
    super::arith::wrap_narrow(e, Ty::Scalar(s), bits, out)?;
    Ok(())
}

/// The bits of narrow scalar `value` (of type `s`, in its carrier) in a `u32`: in its low
/// bits, the bits above a signed int's sign.
fn to_bits(e: &mut Emitter, s: Scalar, value: Word) -> R<Word> {
    if s == Scalar::F16 {
        return super::half::to_bits(e, value, None);
    }
    match s.is_signed() {
        true => {
            let u = e.ty(Ty::U32);
            e.b.op(SOp::Bitcast, u, None, &[value])
        }
        false => Ok(value),
    }
}

/// `index` (of type `it`) as a `u32`.
fn as_u32(e: &mut Emitter, index: Word, it: Ty) -> R<Word> {
    if it.scalar() == Scalar::U32 {
        return Ok(index);
    }
    let u = e.ty(Ty::U32);
    e.b.op(SOp::Bitcast, u, None, &[index])
}

/// The scalar indices of the components of element `index` (of type `it`) of a scalarized
/// array of `t`s: `n * index + k`.
fn component_indices(e: &mut Emitter, index: Word, it: Ty, t: Ty) -> R<Vec<Word>> {
    let n = t.components();
    let itw = e.ty(it);
    let k = |n: u32| match it.scalar() {
        Scalar::U32 => Const::U32(n),
        _ => Const::I32(n as i32),
    };
    let width = e.konst(k(n));
    let base = e.b.op(SOp::IMul, itw, None, &[index, width])?;
    let mut out = Vec::with_capacity(n as usize);
    for c in 0..n {
        out.push(match c {
            0 => base,
            _ => {
                let c = e.konst(k(c));
                e.b.op(SOp::IAdd, itw, None, &[base, c])?
            }
        });
    }
    Ok(out)
}

/// A compare-exchange loop that applies a float atomic to a word array: `f32 helper(index,
/// value)` (`helper(index, expected, value)` for a compare-exchange) returning the element's
/// old value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct AtomicHelper {
    pub id: Word,
    /// The array's variable, and its storage class when it is not a Block-wrapped buffer.
    var: Word,
    class: Option<StorageClass>,
    /// The index type.
    it: Ty,
    op: AtomicOp,
    /// `f32` or `f64`: the float the words hold.
    float: Scalar,
}

/// The helper that applies `op` to the word array `var` (of `float`s) at an index of type
/// `it`, made once.
fn atomic_helper(
    e: &mut Emitter,
    var: Word,
    class: Option<StorageClass>,
    it: Ty,
    op: AtomicOp,
    float: Scalar,
) -> Word {
    let found = e
        .atomic_helpers
        .iter()
        .find(|h| h.var == var && h.it == it && h.op == op && h.float == float);
    if let Some(h) = found {
        return h.id;
    }
    let id = e.b.id();
    e.atomic_helpers.push(AtomicHelper {
        id,
        var,
        class,
        it,
        op,
        float,
    });
    id
}

/// The functions of the float atomics on word arrays: each reads the element's bits, and
/// while they stay what it read, computes the new value (`old + v`; `v` where `v < old` for
/// `atomic_min` and `v > old` for `atomic_max`, as Python's `min(old, v)` and `max(old, v)`
/// pick, so a NaN `v` changes nothing) and swaps it in with `OpAtomicCompareExchange` unless
/// its bits are the old ones; another invocation's write in between makes it try again from
/// what that wrote. Relaxed, device scope for a buffer and workgroup scope for a shared
/// array, as the other atomics.
pub(super) fn atomic_helpers(e: &mut Emitter) -> R<()> {
    for h in e.atomic_helpers.clone() {
        let (ft, ut) = (e.ty(Ty::Scalar(h.float)), e.ty(word_type(h.float)));
        let (bt, itw) = (e.ty(Ty::BOOL), e.ty(h.it));
        let cas = h.op == AtomicOp::CompareExchange;
        let params: &[Word] = if cas { &[itw, ft, ft] } else { &[itw, ft] };
        let fty = e.b.type_function(ft, params);
        e.b.begin_function(ft, h.id, fty)?;
        let name = format!("spirthon_atomic_{:?}_{}", h.op, Ty::Scalar(h.float)).to_lowercase();
        e.name(h.id, &name);
        let index = e.b.function_parameter(itw)?;
        let expected = match cas {
            true => Some(e.b.function_parameter(ft)?),
            false => None,
        };
        let value = e.b.function_parameter(ft)?;
        let entry = e.b.id();
        e.b.begin_block(entry)?;
        let p = match h.class {
            Some(class) => {
                let pt = e.b.type_pointer(class, ut);
                e.b.op(SOp::AccessChain, pt, None, &[h.var, index])?
            }
            None => {
                let pt = e.b.type_pointer(StorageClass::StorageBuffer, ut);
                let zero = e.konst(Const::I32(0));
                e.b.op(SOp::AccessChain, pt, None, &[h.var, zero, index])?
            }
        };
        let scope = e.konst(Const::U32(if h.class.is_some() { 2 } else { 1 }));
        let relaxed = e.konst(Const::U32(0));
        let first = e.b.op(SOp::AtomicLoad, ut, None, &[p, scope, relaxed])?;
        let (header, body, swap, join, cont, merge) =
            (e.b.id(), e.b.id(), e.b.id(), e.b.id(), e.b.id(), e.b.id());
        let (cur, seen, tried) = (e.b.id(), e.b.id(), e.b.id());
        e.b.terminate(SOp::Branch, &[header])?;
        e.b.begin_block(header)?;
        e.b.phi(ut, cur, &[(first, entry), (seen, cont)])?;
        e.b.void(SOp::LoopMerge, &[merge, cont, 0])?;
        e.b.terminate(SOp::Branch, &[body])?;
        e.b.begin_block(body)?;
        let old = e.b.op(SOp::Bitcast, ft, None, &[cur])?;
        let new = match h.op {
            AtomicOp::Add => {
                let id = e.b.id();
                e.b.decorate(id, rspirv::spirv::Decoration::NoContraction, &[]);
                e.b.op(SOp::FAdd, ft, Some(id), &[old, value])?
            }
            AtomicOp::Min | AtomicOp::Max => {
                let cmp = match h.op {
                    AtomicOp::Min => SOp::FOrdLessThan,
                    _ => SOp::FOrdGreaterThan,
                };
                let better = e.b.op(cmp, bt, None, &[value, old])?;
                e.b.op(SOp::Select, ft, None, &[better, value, old])?
            }
            AtomicOp::Exchange => value,
            // Python's `old == expected`: `-0.0` equals `0.0`, a NaN equals nothing.
            AtomicOp::CompareExchange => {
                let expected = expected.ok_or_else(|| EmitError("no expected value".into()))?;
                let equal = e.b.op(SOp::FOrdEqual, bt, None, &[old, expected])?;
                e.b.op(SOp::Select, ft, None, &[equal, value, old])?
            }
            other => return Err(EmitError(format!("no float atomic loop for {other:?}"))),
        };
        let new_bits = e.b.op(SOp::Bitcast, ut, None, &[new])?;
        let same = e.b.op(SOp::IEqual, bt, None, &[new_bits, cur])?;
        e.b.void(SOp::SelectionMerge, &[join, 0])?;
        e.b.terminate(SOp::BranchConditional, &[same, join, swap])?;
        e.b.begin_block(swap)?;
        let ops = [p, scope, relaxed, relaxed, new_bits, cur];
        e.b.op(SOp::AtomicCompareExchange, ut, Some(tried), &ops)?;
        e.b.terminate(SOp::Branch, &[join])?;
        e.b.begin_block(join)?;
        e.b.phi(ut, seen, &[(cur, body), (tried, swap)])?;
        let done = e.b.op(SOp::IEqual, bt, None, &[seen, cur])?;
        e.b.terminate(SOp::BranchConditional, &[done, merge, cont])?;
        e.b.begin_block(cont)?;
        e.b.terminate(SOp::Branch, &[header])?;
        e.b.begin_block(merge)?;
        let r = e.b.op(SOp::Bitcast, ft, None, &[cur])?;
        e.b.terminate(SOp::ReturnValue, &[r])?;
        e.b.end_function()?;
    }
    Ok(())
}

/// The word a word array holds a float of scalar type `s` in (see
/// [`Module::word_arrays`]): a `u64` for an `f64`, a `u32` for an `f32`.
pub(super) fn word_type(s: Scalar) -> Ty {
    match s {
        Scalar::F64 => Ty::Scalar(Scalar::U64),
        _ => Ty::U32,
    }
}

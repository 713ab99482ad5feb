//! Print from the GPU (`spirthon_ir::prints`): the print buffer at descriptor set 1, binding
//! 1, and one function per print site, `print_N(values...)`, that every `Op::Print` of the
//! site calls.
//!
//! The function reads `used`; when the record would not fit it counts the print in
//! `dropped` and returns, so `used` grows only while there is room (by at most one record
//! per invocation racing past the end). Otherwise it reserves the record with
//! `OpAtomicIAdd` on `used`, and writes `(site, GlobalInvocationId, barriers, subgroup
//! operations)` and each value's words
//! if the reserved words fit (else it counts the print as dropped). A value's words: a
//! 32-bit scalar's bits (a bool as 0 or 1, a narrow int or a half as its 32-bit carrier's),
//! a 64-bit one's low then high word, a vector's, matrix's or quaternion's components in
//! order.
//!
//! The invocation's phase, which orders its records as the reference executor runs
//! invocations (phase by phase), is two private counters: the barriers it passed, and the
//! subgroup operations since the last of them.
//!
//! Invariant: nothing here is emitted for a module with no `Op::Print`.

use std::collections::BTreeMap;

use rspirv::spirv::{Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::{Const, PrintBuffer, Scalar, Ty};

use super::{Emitter, FnState, Globals, R};

/// The globals of a module that prints.
pub(super) struct Prints {
    buffer: Word,
    /// The private counters of barriers passed and subgroup operations since the last.
    barriers: Word,
    subgroup_ops: Word,
    /// Per print site that an instruction uses: its function and its values' types.
    sites: BTreeMap<u32, (Word, Vec<Ty>)>,
}

impl Emitter {
    /// The print buffer and the print functions' ids, for a module that prints.
    pub(super) fn print_globals(&mut self, m: &Module) -> Option<Prints> {
        let mut sites = BTreeMap::new();
        for f in m.functions.iter() {
            for inst in f.insts.iter() {
                if let Op::Print(s) = inst.op {
                    if let std::collections::btree_map::Entry::Vacant(e) = sites.entry(s) {
                        let tys = inst.args.iter().map(|&a| f.ty_of(a)).collect();
                        e.insert((self.b.id(), tys));
                    }
                }
            }
        }
        if sites.is_empty() {
            return None;
        }
        let u = self.ty(Ty::U32);
        let buffer = self.hidden_buffer(
            (PrintBuffer::SET, PrintBuffer::BINDING),
            ["used", "dropped", "capacity", "dropped_high", "data"],
            "spirthon_prints",
        );
        let pu = self.b.type_pointer(StorageClass::Private, u);
        let zero = self.konst(Const::U32(0));
        let barriers = self.b.variable_init(pu, StorageClass::Private, zero);
        self.name(barriers, "barriers_passed");
        let subgroup_ops = self.b.variable_init(pu, StorageClass::Private, zero);
        self.name(subgroup_ops, "subgroup_ops_passed");
        Some(Prints {
            buffer,
            barriers,
            subgroup_ops,
            sites,
        })
    }

    /// Every print site's function (see the module docs).
    pub(super) fn print_functions(&mut self, g: &Globals, m: &Module) -> R<()> {
        let Some(p) = &g.prints else { return Ok(()) };
        for (&site, (fid, tys)) in &p.sites {
            let words = m
                .prints
                .get(site as usize)
                .map(|s| s.record_words() as u32)
                .ok_or_else(|| {
                    super::EmitError(format!("print site {site} is not in the module"))
                })?;
            self.print_function(g, p, site, *fid, tys, words)?;
        }
        Ok(())
    }

    fn print_function(
        &mut self,
        g: &Globals,
        p: &Prints,
        site: u32,
        fid: Word,
        tys: &[Ty],
        words: u32,
    ) -> R<()> {
        let u = self.ty(Ty::U32);
        let bt = self.ty(Ty::BOOL);
        let void = self.b.type_void();
        let params: Vec<Word> = tys.iter().map(|&t| self.ty(t)).collect();
        let fty = self.b.type_function(void, &params);
        self.b.begin_function(void, fid, fty)?;
        self.name(fid, &format!("print_{site}"));
        let values: Vec<Word> = params
            .iter()
            .map(|&t| self.b.function_parameter(t))
            .collect::<Result<_, _>>()?;
        let entry = self.b.id();
        self.b.begin_block(entry)?;
        // Device scope, relaxed: the host reads the buffer after the launch.
        let scope = self.konst(Const::U32(1));
        let relaxed = self.konst(Const::U32(0));
        let n = self.konst(Const::U32(words));
        let one = self.konst(Const::U32(1));
        let cap_at = self.hidden_word(p.buffer, 2, None)?;
        let cap = self.b.op(SOp::Load, u, None, &[cap_at])?;
        let used_at = self.hidden_word(p.buffer, 0, None)?;
        let used = self
            .b
            .op(SOp::AtomicLoad, u, None, &[used_at, scope, relaxed])?;
        let end = self.b.op(SOp::IAdd, u, None, &[used, n])?;
        let room = self.b.op(SOp::ULessThanEqual, bt, None, &[end, cap])?;
        let (reserve, full, done) = (self.b.id(), self.b.id(), self.b.id());
        self.b.void(SOp::SelectionMerge, &[done, 0])?;
        self.b
            .terminate(SOp::BranchConditional, &[room, reserve, full])?;

        self.b.begin_block(reserve)?;
        let used_at = self.hidden_word(p.buffer, 0, None)?;
        let off = self
            .b
            .op(SOp::AtomicIAdd, u, None, &[used_at, scope, relaxed, n])?;
        let end = self.b.op(SOp::IAdd, u, None, &[off, n])?;
        let fits = self.b.op(SOp::ULessThanEqual, bt, None, &[end, cap])?;
        let (write, late, written) = (self.b.id(), self.b.id(), self.b.id());
        self.b.void(SOp::SelectionMerge, &[written, 0])?;
        self.b
            .terminate(SOp::BranchConditional, &[fits, write, late])?;

        self.b.begin_block(write)?;
        let gid = self.launch_id(g, Builtin::GlobalId)?;
        let mut out = vec![self.konst(Const::U32(site))];
        for k in 0..3 {
            out.push(self.b.op(SOp::CompositeExtract, u, None, &[gid, k])?);
        }
        out.push(self.b.op(SOp::Load, u, None, &[p.barriers])?);
        out.push(self.b.op(SOp::Load, u, None, &[p.subgroup_ops])?);
        for (&v, &t) in values.iter().zip(tys) {
            self.value_words(v, t, &mut out)?;
        }
        for (k, w) in out.into_iter().enumerate() {
            let kc = self.konst(Const::U32(k as u32));
            let at = self.b.op(SOp::IAdd, u, None, &[off, kc])?;
            let ptr = self.hidden_word(p.buffer, 4, Some(at))?;
            self.b.void(SOp::Store, &[ptr, w])?;
        }
        self.b.terminate(SOp::Branch, &[written])?;

        self.b.begin_block(late)?;
        self.count_dropped(p, scope, relaxed, one)?;
        self.b.terminate(SOp::Branch, &[written])?;

        self.b.begin_block(written)?;
        self.b.terminate(SOp::Branch, &[done])?;

        self.b.begin_block(full)?;
        self.count_dropped(p, scope, relaxed, one)?;
        self.b.terminate(SOp::Branch, &[done])?;

        self.b.begin_block(done)?;
        self.b.terminate(SOp::Return, &[])?;
        self.b.end_function()
    }

    /// Counts a dropped print: `dropped`, and `dropped_high` when that wraps, so the
    /// count is exact however many there are.
    fn count_dropped(&mut self, p: &Prints, scope: Word, relaxed: Word, one: Word) -> R<()> {
        let (u, bt) = (self.ty(Ty::U32), self.ty(Ty::BOOL));
        let at = self.hidden_word(p.buffer, 1, None)?;
        let old = self
            .b
            .op(SOp::AtomicIAdd, u, None, &[at, scope, relaxed, one])?;
        let max = self.konst(Const::U32(u32::MAX));
        let wrapped = self.b.op(SOp::IEqual, bt, None, &[old, max])?;
        let zero = self.konst(Const::U32(0));
        let carry = self.b.op(SOp::Select, u, None, &[wrapped, one, zero])?;
        let high = self.hidden_word(p.buffer, 3, None)?;
        self.b
            .op(SOp::AtomicIAdd, u, None, &[high, scope, relaxed, carry])?;
        Ok(())
    }

    /// The words of value `v` of type `t`, appended to `out`.
    fn value_words(&mut self, v: Word, t: Ty, out: &mut Vec<Word>) -> R<()> {
        let s = t.scalar();
        if t.as_scalar().is_some() {
            return self.scalar_words(v, s, out);
        }
        let c = self.ty(Ty::Scalar(s));
        for k in 0..t.components() {
            let x = self.b.op(SOp::CompositeExtract, c, None, &[v, k])?;
            self.scalar_words(x, s, out)?;
        }
        Ok(())
    }

    fn scalar_words(&mut self, v: Word, s: Scalar, out: &mut Vec<Word>) -> R<()> {
        let u = self.ty(Ty::U32);
        match s {
            Scalar::Bool => {
                let (one, zero) = (self.konst(Const::U32(1)), self.konst(Const::U32(0)));
                out.push(self.b.op(SOp::Select, u, None, &[v, one, zero])?);
            }
            Scalar::U32 | Scalar::U8 | Scalar::U16 => out.push(v),
            Scalar::I32 | Scalar::I8 | Scalar::I16 | Scalar::F32 | Scalar::F16 => {
                out.push(self.b.op(SOp::Bitcast, u, None, &[v])?)
            }
            Scalar::F64 | Scalar::I64 | Scalar::U64 => {
                let u64t = self.ty(Ty::Scalar(Scalar::U64));
                let bits = match s {
                    Scalar::U64 => v,
                    _ => self.b.op(SOp::Bitcast, u64t, None, &[v])?,
                };
                let k32 = self.konst(Const::U32(32));
                let hi = self
                    .b
                    .op(SOp::ShiftRightLogical, u64t, None, &[bits, k32])?;
                out.push(self.b.op(SOp::UConvert, u, None, &[bits])?);
                out.push(self.b.op(SOp::UConvert, u, None, &[hi])?);
            }
        }
        Ok(())
    }
}

impl FnState<'_> {
    /// After a barrier (`barrier`) or a subgroup operation, in a module that prints: counts
    /// it in the invocation's phase.
    pub(super) fn count_sync(&mut self, e: &mut Emitter, barrier: bool) -> R<()> {
        let Some(p) = &self.g.prints else {
            return Ok(());
        };
        let u = e.ty(Ty::U32);
        let (zero, one) = (e.konst(Const::U32(0)), e.konst(Const::U32(1)));
        let (counter, reset) = match barrier {
            true => (p.barriers, Some(p.subgroup_ops)),
            false => (p.subgroup_ops, None),
        };
        let n = e.b.op(SOp::Load, u, None, &[counter])?;
        let n = e.b.op(SOp::IAdd, u, None, &[n, one])?;
        e.b.void(SOp::Store, &[counter, n])?;
        if let Some(r) = reset {
            e.b.void(SOp::Store, &[r, zero])?;
        }
        Ok(())
    }

    /// `Op::Print(site)`: calls the site's function with the values.
    pub(super) fn print(&mut self, e: &mut Emitter, site: u32, args: &[Word]) -> R<()> {
        let Some((fid, _)) = self.g.prints.as_ref().and_then(|p| p.sites.get(&site)) else {
            return Err(super::EmitError(format!(
                "print site {site} has no function"
            )));
        };
        let void = e.b.type_void();
        let mut call = vec![*fid];
        call.extend_from_slice(args);
        e.b.op(SOp::FunctionCall, void, None, &call)?;
        Ok(())
    }
}

//! Checked mode (`spirthon_ir::checks`): the error buffer at descriptor set 1, binding 0, a
//! private `failed` flag and a private per-invocation workgroup size, and one `record`
//! function that every failing check calls.
//!
//! `record(site, index, len)` computes the invocation's key (linear workgroup id times the
//! workgroup's invocation count, plus the local index), counts the failure, lowers `first`
//! with `OpAtomicUMin`, and writes its record into the ring only when its key lowered it;
//! then sets `failed`. A kernel stores its workgroup size into the private variable first
//! thing, so a func shared by kernels of different workgroup sizes computes each one's key.
//!
//! Invariant: nothing here is emitted for a module compiled without `--checked`.

use rspirv::spirv::{self, Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::{Const, ErrorBuffer, Ty};

use super::{Emitter, FnState, Globals, R};

/// The globals of a checked module.
pub(super) struct Checks {
    buffer: Word,
    failed: Word,
    group_size: Word,
    record: Word,
}

/// The builtins `record` reads.
pub(super) const RECORD_BUILTINS: [Builtin; 3] = [
    Builtin::WorkgroupId,
    Builtin::NumWorkgroups,
    Builtin::LocalIndex,
];

impl Emitter {
    /// The error buffer, the private variables and `record`'s id, for a checked module.
    pub(super) fn check_globals(&mut self, m: &Module) -> Option<Checks> {
        if !m.checked {
            return None;
        }
        let u = self.ty(Ty::U32);
        let buffer = self.hidden_buffer(
            (ErrorBuffer::SET, ErrorBuffer::BINDING),
            ["count", "first", "next", "pad", "records"],
            "spirthon_errors",
        );
        let bt = self.ty(Ty::BOOL);
        let pb = self.b.type_pointer(StorageClass::Private, bt);
        let no = self.konst(Const::Bool(false));
        let failed = self.b.variable_init(pb, StorageClass::Private, no);
        self.name(failed, "failed");
        let pu = self.b.type_pointer(StorageClass::Private, u);
        let one = self.konst(Const::U32(1));
        let group_size = self.b.variable_init(pu, StorageClass::Private, one);
        self.name(group_size, "group_size");
        let record = self.b.id();
        Some(Checks {
            buffer,
            failed,
            group_size,
            record,
        })
    }

    /// A hidden buffer of set 1 (the error or print buffer): four header words, then a
    /// runtime array of words, with the members' names; its variable.
    pub(super) fn hidden_buffer(
        &mut self,
        (set, binding): (u32, u32),
        names: [&str; 5],
        name: &str,
    ) -> Word {
        let u = self.ty(Ty::U32);
        let rt = self.b.type_runtime_array(u);
        if self.decorated_arrays.insert(rt) {
            self.b.decorate(rt, spirv::Decoration::ArrayStride, &[4]);
        }
        let st = self.b.type_struct(&[u, u, u, u, rt]);
        self.b.decorate(st, spirv::Decoration::Block, &[]);
        for (k, member) in names.iter().enumerate() {
            let k = k as u32;
            self.b
                .member_decorate(st, k, spirv::Decoration::Offset, &[4 * k]);
            if self.names {
                self.b.member_name(st, k, member);
            }
        }
        let p = self.b.type_pointer(StorageClass::StorageBuffer, st);
        let buffer = self.b.variable(p, StorageClass::StorageBuffer);
        self.b
            .decorate(buffer, spirv::Decoration::DescriptorSet, &[set]);
        self.b
            .decorate(buffer, spirv::Decoration::Binding, &[binding]);
        self.name(buffer, name);
        buffer
    }

    /// A pointer to header word `member` of hidden buffer `buffer`, or to word `k` of its
    /// array (`member` 4).
    pub(super) fn hidden_word(&mut self, buffer: Word, member: u32, k: Option<Word>) -> R<Word> {
        let u = self.ty(Ty::U32);
        let p = self.b.type_pointer(StorageClass::StorageBuffer, u);
        let m = self.konst(Const::I32(member as i32));
        let mut ops = vec![buffer, m];
        ops.extend(k);
        self.b.op(SOp::AccessChain, p, None, &ops)
    }

    /// `record(site: u32, index: i32, len: i32)` (see the module docs).
    pub(super) fn record_function(&mut self, g: &Globals) -> R<()> {
        let Some(c) = &g.checks else { return Ok(()) };
        let (u, i) = (self.ty(Ty::U32), self.ty(Ty::I32));
        let void = self.b.type_void();
        let fty = self.b.type_function(void, &[u, i, i]);
        self.b.begin_function(void, c.record, fty)?;
        self.name(c.record, "record_failure");
        let site = self.b.function_parameter(u)?;
        let index = self.b.function_parameter(i)?;
        let len = self.b.function_parameter(i)?;
        let entry = self.b.id();
        self.b.begin_block(entry)?;
        // The launch's workgroup id and count (module `launch`), not one dispatch's.
        let wid = self.launch_id(g, Builtin::WorkgroupId)?;
        let nwg = self.launch_id(g, Builtin::NumWorkgroups)?;
        let li = self.launch_id(g, Builtin::LocalIndex)?;
        let part =
            |e: &mut Emitter, v: Word, k: u32| e.b.op(SOp::CompositeExtract, u, None, &[v, k]);
        let (wx, wy, wz) = (
            part(self, wid, 0)?,
            part(self, wid, 1)?,
            part(self, wid, 2)?,
        );
        let (nx, ny) = (part(self, nwg, 0)?, part(self, nwg, 1)?);
        let t = self.b.op(SOp::IMul, u, None, &[ny, wz])?;
        let t = self.b.op(SOp::IAdd, u, None, &[wy, t])?;
        let t = self.b.op(SOp::IMul, u, None, &[nx, t])?;
        let linear = self.b.op(SOp::IAdd, u, None, &[wx, t])?;
        let size = self.b.op(SOp::Load, u, None, &[c.group_size])?;
        let t = self.b.op(SOp::IMul, u, None, &[linear, size])?;
        let key = self.b.op(SOp::IAdd, u, None, &[t, li])?;
        // Device scope, relaxed: the runtime reads the buffer after the dispatch.
        let scope = self.konst(Const::U32(1));
        let relaxed = self.konst(Const::U32(0));
        let one = self.konst(Const::U32(1));
        let count = self.hidden_word(c.buffer, 0, None)?;
        self.b
            .op(SOp::AtomicIAdd, u, None, &[count, scope, relaxed, one])?;
        let first = self.hidden_word(c.buffer, 1, None)?;
        let old = self
            .b
            .op(SOp::AtomicUMin, u, None, &[first, scope, relaxed, key])?;
        let bt = self.ty(Ty::BOOL);
        let lower = self.b.op(SOp::ULessThan, bt, None, &[key, old])?;
        let (write, done) = (self.b.id(), self.b.id());
        self.b.void(SOp::SelectionMerge, &[done, 0])?;
        self.b
            .terminate(SOp::BranchConditional, &[lower, write, done])?;
        self.b.begin_block(write)?;
        let next = self.hidden_word(c.buffer, 2, None)?;
        let slot = self
            .b
            .op(SOp::AtomicIAdd, u, None, &[next, scope, relaxed, one])?;
        let mask = self.konst(Const::U32(ErrorBuffer::RECORDS - 1));
        let slot = self.b.op(SOp::BitwiseAnd, u, None, &[slot, mask])?;
        let two = self.konst(Const::U32(2));
        let base = self.b.op(SOp::ShiftLeftLogical, u, None, &[slot, two])?;
        let index = self.b.op(SOp::Bitcast, u, None, &[index])?;
        let len = self.b.op(SOp::Bitcast, u, None, &[len])?;
        for (k, v) in [key, site, index, len].into_iter().enumerate() {
            let off = self.konst(Const::U32(k as u32));
            let at = self.b.op(SOp::IAdd, u, None, &[base, off])?;
            let p = self.hidden_word(c.buffer, 4, Some(at))?;
            self.b.void(SOp::Store, &[p, v])?;
        }
        self.b.terminate(SOp::Branch, &[done])?;
        self.b.begin_block(done)?;
        let yes = self.konst(Const::Bool(true));
        self.b.void(SOp::Store, &[c.failed, yes])?;
        self.b.terminate(SOp::Return, &[])?;
        self.b.end_function()
    }
}

impl FnState<'_> {
    /// A kernel's first instruction in checked mode: its workgroup size, for the key.
    pub(super) fn store_group_size(&mut self, e: &mut Emitter, m: &Module) -> R<()> {
        let Some(c) = &self.g.checks else {
            return Ok(());
        };
        let Some(ep) = m.entry_points.iter().find(|ep| ep.function == self.id) else {
            return Ok(());
        };
        let [x, y, z] = ep.workgroup_size;
        let n = e.konst(Const::U32(x * y * z));
        e.b.void(SOp::Store, &[c.group_size, n])
    }

    /// `Op::Fail`: calls `record(site, index, len)`.
    pub(super) fn fail(&mut self, e: &mut Emitter, args: &[Word]) -> R<()> {
        let c = self.checks()?;
        let void = e.b.type_void();
        let call = [c.record, args[0], args[1], args[2]];
        e.b.op(SOp::FunctionCall, void, None, &call)?;
        Ok(())
    }

    /// `Op::Failed`: the private flag.
    pub(super) fn failed(&mut self, e: &mut Emitter, rt: Word, id: Word) -> R<()> {
        let c = self.checks()?;
        e.b.op(SOp::Load, rt, Some(id), &[c.failed])?;
        Ok(())
    }

    fn checks(&self) -> R<&Checks> {
        self.g.checks.as_ref().ok_or_else(|| {
            super::EmitError("a check in a module compiled without --checked".into())
        })
    }
}

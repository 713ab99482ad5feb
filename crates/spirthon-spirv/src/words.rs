//! A SPIR-V module written straight into words, section by section, with the opcodes and
//! operand enums of rspirv's grammar (`rspirv::spirv`).
//!
//! Why not rspirv's `dr::Builder`: it builds every instruction as a heap-allocated operand
//! list, finds a type by scanning every type already declared, and then assembles and frees
//! the whole tree. That was a quarter of a compile. Here an instruction is appended to its
//! section's word vector as it is made, and types are deduplicated through a hash map.
//!
//! Invariants:
//! - Sections are kept apart and concatenated in the order the specification's logical layout
//!   requires (capabilities, ext-inst imports, memory model, entry points, execution modes,
//!   names, annotations, types/constants/globals, functions) by [`Words::finish`].
//! - Ids are handed out in call order from 1; the header's bound is one past the last.
//! - Every type instruction except `OpTypeStruct` (whose Block structs must stay distinct) is
//!   declared once: asking again returns the first id.
//! - Inside a function, a block is opened by [`Words::begin_block`] and closed by exactly one
//!   terminator; an instruction outside an open block, a block opened inside another, or a
//!   function ended with a block open is an [`EmitError`].
//! - `OpUndef` is module-level (it must never sit between a block's label and its phis).
//!
//! What it does not do: check operand types or dominance (naga and spirv-val do).

use spirthon_ir::hash::FastMap;

use rspirv::spirv::{
    AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, MemoryModel, Op,
    StorageClass, Word,
};

use crate::emit::EmitError;

type R<T> = Result<T, EmitError>;

/// The generator word: rspirv's tool id, as the earlier rspirv-built modules carried.
const GENERATOR: u32 = 0x000f_0000;

/// Where the writer is inside the function section.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum At {
    Module,
    Function,
    Block,
}

/// A module under construction.
pub(crate) struct Words {
    next_id: Word,
    version: (u8, u8),
    capabilities: Vec<u32>,
    extensions: Vec<u32>,
    ext_imports: Vec<u32>,
    memory_model: Vec<u32>,
    entry_points: Vec<u32>,
    execution_modes: Vec<u32>,
    names: Vec<u32>,
    annotations: Vec<u32>,
    globals: Vec<u32>,
    functions: Vec<u32>,
    /// `[opcode, operands…]` of each declared type (result id left out) -> its id.
    types: FastMap<Box<[u32]>, Word>,
    at: At,
}

/// Appends one instruction: its word count and opcode, then `head` and `tail`.
fn push(sec: &mut Vec<u32>, op: Op, head: &[u32], tail: &[u32]) {
    let n = 1 + head.len() + tail.len();
    sec.push(((n as u32) << 16) | op as u32);
    sec.extend_from_slice(head);
    sec.extend_from_slice(tail);
}

/// Appends a literal string: UTF-8 bytes, NUL-terminated, zero-padded to a whole word.
fn push_str(sec: &mut Vec<u32>, s: &str) {
    let chunks = s.as_bytes().chunks_exact(4);
    let rest = chunks.remainder();
    sec.extend(chunks.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    let mut last = [0u8; 4];
    last[..rest.len()].copy_from_slice(rest);
    sec.push(u32::from_le_bytes(last));
}

/// Appends an instruction whose operands are `head`, then a string, then `tail`.
fn push_with_str(sec: &mut Vec<u32>, op: Op, head: &[u32], s: &str, tail: &[u32]) {
    let start = sec.len();
    sec.push(0);
    sec.extend_from_slice(head);
    push_str(sec, s);
    sec.extend_from_slice(tail);
    sec[start] = (((sec.len() - start) as u32) << 16) | op as u32;
}

impl Words {
    pub(crate) fn new(major: u8, minor: u8) -> Self {
        Words {
            next_id: 1,
            version: (major, minor),
            capabilities: Vec::new(),
            extensions: Vec::new(),
            ext_imports: Vec::new(),
            memory_model: Vec::new(),
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            names: Vec::new(),
            annotations: Vec::new(),
            globals: Vec::with_capacity(256),
            functions: Vec::with_capacity(1024),
            types: FastMap::default(),
            at: At::Module,
        }
    }

    /// A fresh id.
    pub(crate) fn id(&mut self) -> Word {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The module: header, then the sections in layout order.
    pub(crate) fn finish(self) -> R<Vec<u32>> {
        if self.at != At::Module {
            return Err(EmitError("the module ends inside a function".into()));
        }
        let sections = [
            &self.capabilities,
            &self.extensions,
            &self.ext_imports,
            &self.memory_model,
            &self.entry_points,
            &self.execution_modes,
            &self.names,
            &self.annotations,
            &self.globals,
            &self.functions,
        ];
        let len = 5 + sections.iter().map(|s| s.len()).sum::<usize>();
        let mut out = Vec::with_capacity(len);
        let version = (u32::from(self.version.0) << 16) | (u32::from(self.version.1) << 8);
        out.extend_from_slice(&[
            rspirv::spirv::MAGIC_NUMBER,
            version,
            GENERATOR,
            self.next_id,
            0,
        ]);
        for s in sections {
            out.extend_from_slice(s);
        }
        Ok(out)
    }

    pub(crate) fn capability(&mut self, c: Capability) {
        push(&mut self.capabilities, Op::Capability, &[c as u32], &[]);
    }

    /// `OpExtension`: in a section of their own, after every capability.
    pub(crate) fn extension(&mut self, name: &str) {
        push_with_str(&mut self.extensions, Op::Extension, &[], name, &[]);
    }

    pub(crate) fn ext_inst_import(&mut self, name: &str) -> Word {
        let id = self.id();
        push_with_str(&mut self.ext_imports, Op::ExtInstImport, &[id], name, &[]);
        id
    }

    pub(crate) fn memory_model(&mut self, a: AddressingModel, m: MemoryModel) {
        push(
            &mut self.memory_model,
            Op::MemoryModel,
            &[a as u32, m as u32],
            &[],
        );
    }

    pub(crate) fn entry_point(
        &mut self,
        model: ExecutionModel,
        f: Word,
        name: &str,
        interface: &[Word],
    ) {
        let head = [model as u32, f];
        push_with_str(
            &mut self.entry_points,
            Op::EntryPoint,
            &head,
            name,
            interface,
        );
    }

    pub(crate) fn execution_mode(&mut self, f: Word, mode: ExecutionMode, params: &[u32]) {
        let head = [f, mode as u32];
        push(&mut self.execution_modes, Op::ExecutionMode, &head, params);
    }

    pub(crate) fn name(&mut self, id: Word, name: &str) {
        push_with_str(&mut self.names, Op::Name, &[id], name, &[]);
    }

    pub(crate) fn member_name(&mut self, st: Word, member: u32, name: &str) {
        push_with_str(&mut self.names, Op::MemberName, &[st, member], name, &[]);
    }

    pub(crate) fn decorate(&mut self, id: Word, d: Decoration, params: &[u32]) {
        push(&mut self.annotations, Op::Decorate, &[id, d as u32], params);
    }

    pub(crate) fn member_decorate(&mut self, st: Word, member: u32, d: Decoration, params: &[u32]) {
        let head = [st, member, d as u32];
        push(&mut self.annotations, Op::MemberDecorate, &head, params);
    }

    /// The id of the type `op operands`, declared on first use.
    fn ty(&mut self, op: Op, operands: &[u32]) -> Word {
        let mut small = [0u32; 8];
        let long: Vec<u32>;
        let n = 1 + operands.len();
        let probe: &[u32] = if n <= small.len() {
            small[0] = op as u32;
            small[1..n].copy_from_slice(operands);
            &small[..n]
        } else {
            long = std::iter::once(op as u32)
                .chain(operands.iter().copied())
                .collect();
            &long
        };
        if let Some(&id) = self.types.get(probe) {
            return id;
        }
        let id = self.id();
        push(&mut self.globals, op, &[id], operands);
        self.types.insert(probe.into(), id);
        id
    }

    pub(crate) fn type_void(&mut self) -> Word {
        self.ty(Op::TypeVoid, &[])
    }

    pub(crate) fn type_bool(&mut self) -> Word {
        self.ty(Op::TypeBool, &[])
    }

    /// `OpTypeInt`; the first 64-bit one declares the `Int64` capability it needs.
    pub(crate) fn type_int(&mut self, width: u32, signed: bool) -> Word {
        let declared =
            |s: &Self, signed: u32| s.types.contains_key(&[Op::TypeInt as u32, 64, signed][..]);
        if width == 64 && !declared(self, 0) && !declared(self, 1) {
            self.capability(Capability::Int64);
        }
        self.ty(Op::TypeInt, &[width, u32::from(signed)])
    }

    /// `OpTypeFloat`; the first 64-bit one declares the `Float64` capability it needs.
    pub(crate) fn type_float(&mut self, width: u32) -> Word {
        if width == 64 && !self.types.contains_key(&[Op::TypeFloat as u32, 64][..]) {
            self.capability(Capability::Float64);
        }
        self.ty(Op::TypeFloat, &[width])
    }

    pub(crate) fn type_vector(&mut self, component: Word, n: u32) -> Word {
        self.ty(Op::TypeVector, &[component, n])
    }

    pub(crate) fn type_pointer(&mut self, class: StorageClass, pointee: Word) -> Word {
        self.ty(Op::TypePointer, &[class as u32, pointee])
    }

    /// A fixed-size array; `len` is the id of an integer constant.
    pub(crate) fn type_array(&mut self, elem: Word, len: Word) -> Word {
        self.ty(Op::TypeArray, &[elem, len])
    }

    pub(crate) fn type_runtime_array(&mut self, elem: Word) -> Word {
        self.ty(Op::TypeRuntimeArray, &[elem])
    }

    pub(crate) fn type_function(&mut self, ret: Word, params: &[Word]) -> Word {
        let mut operands = Vec::with_capacity(1 + params.len());
        operands.push(ret);
        operands.extend_from_slice(params);
        self.ty(Op::TypeFunction, &operands)
    }

    /// A struct that is never merged with a structurally equal one (each Block is its own).
    pub(crate) fn type_struct(&mut self, members: &[Word]) -> Word {
        let id = self.id();
        push(&mut self.globals, Op::TypeStruct, &[id], members);
        id
    }

    pub(crate) fn constant_bool(&mut self, ty: Word, value: bool) -> Word {
        let id = self.id();
        let op = if value {
            Op::ConstantTrue
        } else {
            Op::ConstantFalse
        };
        push(&mut self.globals, op, &[ty, id], &[]);
        id
    }

    pub(crate) fn constant_bit32(&mut self, ty: Word, bits: u32) -> Word {
        let id = self.id();
        push(&mut self.globals, Op::Constant, &[ty, id, bits], &[]);
        id
    }

    /// A 64-bit constant: its low word first, as SPIR-V orders a wide literal.
    pub(crate) fn constant_bit64(&mut self, ty: Word, bits: u64) -> Word {
        let id = self.id();
        let (lo, hi) = (bits as u32, (bits >> 32) as u32);
        push(&mut self.globals, Op::Constant, &[ty, id, lo, hi], &[]);
        id
    }

    /// A module-level `OpVariable`.
    pub(crate) fn variable(&mut self, ty: Word, class: StorageClass) -> Word {
        let id = self.id();
        push(
            &mut self.globals,
            Op::Variable,
            &[ty, id, class as u32],
            &[],
        );
        id
    }

    /// A module-level `OpVariable` with an initializer.
    pub(crate) fn variable_init(&mut self, ty: Word, class: StorageClass, init: Word) -> Word {
        let id = self.id();
        push(
            &mut self.globals,
            Op::Variable,
            &[ty, id, class as u32, init],
            &[],
        );
        id
    }

    /// `OpConstantComposite` of constants.
    pub(crate) fn constant_composite(&mut self, ty: Word, parts: &[Word]) -> Word {
        let id = self.id();
        push(&mut self.globals, Op::ConstantComposite, &[ty, id], parts);
        id
    }

    /// `OpConstantNull`: the zero value of any type.
    pub(crate) fn constant_null(&mut self, ty: Word) -> Word {
        let id = self.id();
        push(&mut self.globals, Op::ConstantNull, &[ty, id], &[]);
        id
    }

    /// A module-level `OpUndef`.
    pub(crate) fn undef(&mut self, ty: Word) -> Word {
        let id = self.id();
        push(&mut self.globals, Op::Undef, &[ty, id], &[]);
        id
    }

    pub(crate) fn begin_function(&mut self, ret: Word, id: Word, fty: Word) -> R<()> {
        if self.at != At::Module {
            return Err(EmitError("a function begun inside another".into()));
        }
        self.at = At::Function;
        // FunctionControl::NONE.
        push(&mut self.functions, Op::Function, &[ret, id, 0, fty], &[]);
        Ok(())
    }

    pub(crate) fn function_parameter(&mut self, ty: Word) -> R<Word> {
        if self.at != At::Function {
            return Err(EmitError("a parameter outside a function header".into()));
        }
        let id = self.id();
        push(&mut self.functions, Op::FunctionParameter, &[ty, id], &[]);
        Ok(id)
    }

    pub(crate) fn end_function(&mut self) -> R<()> {
        if self.at != At::Function {
            return Err(EmitError(format!("a function ended at {:?}", self.at)));
        }
        self.at = At::Module;
        push(&mut self.functions, Op::FunctionEnd, &[], &[]);
        Ok(())
    }

    pub(crate) fn begin_block(&mut self, label: Word) -> R<()> {
        if self.at != At::Function {
            return Err(EmitError(format!("a block begun at {:?}", self.at)));
        }
        self.at = At::Block;
        push(&mut self.functions, Op::Label, &[label], &[]);
        Ok(())
    }

    fn in_block(&self, op: Op) -> R<()> {
        if self.at == At::Block {
            Ok(())
        } else {
            Err(EmitError(format!("{op:?} outside a block")))
        }
    }

    /// `%out = op %ty args…` in the open block; a fresh id when `out` is `None`.
    pub(crate) fn op(&mut self, op: Op, ty: Word, out: Option<Word>, args: &[u32]) -> R<Word> {
        self.in_block(op)?;
        let id = out.unwrap_or_else(|| self.id());
        push(&mut self.functions, op, &[ty, id], args);
        Ok(id)
    }

    /// `%out = OpExtInst %ty %set inst args…`.
    pub(crate) fn ext_inst(
        &mut self,
        ty: Word,
        out: Option<Word>,
        set: Word,
        inst: u32,
        args: &[Word],
    ) -> R<Word> {
        self.in_block(Op::ExtInst)?;
        let id = out.unwrap_or_else(|| self.id());
        push(&mut self.functions, Op::ExtInst, &[ty, id, set, inst], args);
        Ok(id)
    }

    /// `%id = OpPhi %ty` with one `(value, predecessor label)` pair per predecessor.
    pub(crate) fn phi(&mut self, ty: Word, id: Word, pairs: &[(Word, Word)]) -> R<()> {
        self.in_block(Op::Phi)?;
        let start = self.functions.len();
        self.functions.extend_from_slice(&[0, ty, id]);
        for &(v, l) in pairs {
            self.functions.extend_from_slice(&[v, l]);
        }
        self.functions[start] = (((self.functions.len() - start) as u32) << 16) | Op::Phi as u32;
        Ok(())
    }

    /// An instruction with no result (`OpStore`, a merge instruction) in the open block.
    pub(crate) fn void(&mut self, op: Op, args: &[u32]) -> R<()> {
        self.in_block(op)?;
        push(&mut self.functions, op, args, &[]);
        Ok(())
    }

    /// The block's terminator: it closes the block.
    pub(crate) fn terminate(&mut self, op: Op, args: &[u32]) -> R<()> {
        self.void(op, args)?;
        self.at = At::Function;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_nul_terminated_and_padded() {
        let mut v = Vec::new();
        push_str(&mut v, "");
        assert_eq!(v, [0]);
        v.clear();
        push_str(&mut v, "abcd");
        assert_eq!(v, [u32::from_le_bytes(*b"abcd"), 0]);
        v.clear();
        push_str(&mut v, "ab");
        assert_eq!(v, [u32::from_le_bytes(*b"ab\0\0")]);
    }

    #[test]
    fn types_are_declared_once_and_structs_never_merged() {
        let mut w = Words::new(1, 3);
        let i = w.type_int(32, true);
        assert_eq!(w.type_int(32, true), i);
        assert_ne!(w.type_int(32, false), i);
        let f = w.type_function(i, &[i, i, i, i, i, i, i, i]);
        assert_eq!(w.type_function(i, &[i, i, i, i, i, i, i, i]), f);
        assert_ne!(w.type_struct(&[i]), w.type_struct(&[i]));
    }

    #[test]
    fn misplaced_instructions_are_errors() {
        let mut w = Words::new(1, 3);
        let t = w.type_bool();
        assert!(w.op(Op::LogicalNot, t, None, &[1]).is_err());
        let (void, fid) = (w.type_void(), w.id());
        let fty = w.type_function(void, &[]);
        w.begin_function(void, fid, fty).unwrap();
        let label = w.id();
        w.begin_block(label).unwrap();
        assert!(w.begin_block(label).is_err());
        assert!(w.end_function().is_err());
        w.terminate(Op::Return, &[]).unwrap();
        assert!(w.void(Op::Return, &[]).is_err());
        w.end_function().unwrap();
        let words = w.finish().unwrap();
        // The module loads back: every instruction's word count is right.
        let m = rspirv::dr::load_words(&words).unwrap();
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.header.unwrap().bound, 6);
    }
}

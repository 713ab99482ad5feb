//! SSA-form functions to a structured SPIR-V 1.3 module (Vulkan 1.1), written as words by
//! [`crate::words`] with rspirv's grammar enums.
//!
//! Structure comes from lowering: a block whose [`Merge`] is a selection gets
//! `OpSelectionMerge`, a loop header gets `OpLoopMerge` with its continue block, right before
//! its terminator. Phis become `OpPhi` at the top of their block, with one operand pair per
//! emitted predecessor. Values get the Python names of the variables they were assigned to
//! (`OpName`), so the disassembly reads like the source.
//!
//! Emitted blocks: every reachable block, plus the merge and continue blocks that reachable
//! headers name even when nothing reaches them (SPIR-V needs them to exist: an unreachable
//! merge block holds `OpUnreachable`, an unreachable continue block branches back to its
//! header). Blocks appear in lowering's fill order, which puts dominators first.
//!
//! Python's semantics where SPIR-V's differ: `//` and `%` on `i32` are `OpSDiv` and
//! `a - q * b` with a sign fix-up (never `OpSRem` or `OpSMod`, whose results Vulkan leaves
//! undefined for negative operands), float `%` and `//` follow CPython's definitions, and
//! float `!=` is unordered (`nan != nan`).
//!
//! What it does not do: optimize (the frontend folded and removed dead code), or check the
//! result (module `validate` runs naga over it).

use std::collections::{HashMap, HashSet};

use rspirv::spirv::{self, GlslStd450Op as GLOp, Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::{Const, Scalar, Ty, UniformLayout};

use crate::words::Words;

/// Emission choices.
#[derive(Copy, Clone, Debug)]
pub struct EmitOptions {
    /// Emit `OpName`s for kernels, parameters and Python variables.
    pub names: bool,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions { names: true }
    }
}

/// A failure inside the emitter: a compiler bug, never a user error.
#[derive(Debug)]
pub struct EmitError(pub String);

type R<T> = Result<T, EmitError>;

struct Globals {
    /// Per builtin: its Input variable.
    builtins: HashMap<Builtin, Word>,
    /// Per array: its StorageBuffer variable.
    arrays: Vec<Word>,
    /// Per function: its uniform block variable (kernels only).
    uniform_of: HashMap<FuncId, (Word, UniformLayout)>,
    functions: Vec<Word>,
}

struct Emitter {
    b: Words,
    glsl: Word,
    consts: HashMap<Const, Word>,
    names: bool,
    decorated_arrays: HashSet<Word>,
    array_structs: HashMap<(Ty, bool), Word>,
}

/// Emits the whole module as SPIR-V words.
pub fn emit(m: &Module, opts: EmitOptions) -> R<Vec<u32>> {
    let mut b = Words::new(1, 3);
    b.capability(spirv::Capability::Shader);
    let glsl = b.ext_inst_import("GLSL.std.450");
    b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
    let mut e = Emitter {
        b,
        glsl,
        consts: HashMap::new(),
        names: opts.names,
        decorated_arrays: HashSet::new(),
        array_structs: HashMap::new(),
    };
    let globals = e.globals(m)?;
    for (i, f) in m.functions.iter().enumerate() {
        e.function(m, &globals, FuncId(i as u32), f)?;
    }
    for ep in &m.entry_points {
        let f = globals.functions[ep.function.index()];
        let mut used: Vec<Builtin> = m
            .call_closure(ep.function)
            .iter()
            .flat_map(|g| m.functions[g.index()].insts.iter())
            .filter_map(|i| match i.op {
                Op::Builtin(bi) => Some(bi),
                Op::OutsideLaunch => Some(Builtin::GlobalId),
                _ => None,
            })
            .collect();
        used.sort();
        used.dedup();
        let interface: Vec<Word> = used.iter().map(|bi| globals.builtins[bi]).collect();
        e.b.entry_point(spirv::ExecutionModel::GLCompute, f, &ep.name, &interface);
        e.b.execution_mode(f, spirv::ExecutionMode::LocalSize, &ep.workgroup_size);
    }
    e.b.finish()
}

impl Emitter {
    fn name(&mut self, id: Word, name: &str) {
        if self.names && !name.is_empty() {
            self.b.name(id, name);
        }
    }

    fn scalar_ty(&mut self, s: Scalar) -> Word {
        match s {
            Scalar::Bool => self.b.type_bool(),
            Scalar::I32 => self.b.type_int(32, true),
            Scalar::U32 => self.b.type_int(32, false),
            Scalar::F32 => self.b.type_float(32),
        }
    }

    /// The id of a value type ([`Words`] declares each type once).
    fn ty(&mut self, t: Ty) -> Word {
        match t {
            Ty::Scalar(s) => self.scalar_ty(s),
            Ty::Vector(s, n) => {
                let c = self.scalar_ty(s);
                self.b.type_vector(c, n as u32)
            }
        }
    }

    /// The type a value of `t` has in a buffer (bools are stored as u32).
    fn storage_ty(&mut self, t: Ty) -> Word {
        match t {
            Ty::Scalar(Scalar::Bool) => self.ty(Ty::U32),
            other => self.ty(other),
        }
    }

    fn konst(&mut self, c: Const) -> Word {
        if let Some(&id) = self.consts.get(&c) {
            return id;
        }
        let ty = self.ty(c.ty());
        let id = match c {
            Const::Bool(b) => self.b.constant_bool(ty, b),
            other => self.b.constant_bit32(ty, other.bits()),
        };
        self.consts.insert(c, id);
        id
    }

    fn globals(&mut self, m: &Module) -> R<Globals> {
        let mut used: Vec<Builtin> = m
            .functions
            .iter()
            .flat_map(|f| f.insts.iter())
            .filter_map(|i| match i.op {
                Op::Builtin(b) => Some(b),
                Op::OutsideLaunch => Some(Builtin::GlobalId),
                _ => None,
            })
            .collect();
        used.sort();
        used.dedup();
        let mut builtins = HashMap::new();
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
            };
            let t = self.ty(ty);
            let p = self.b.type_pointer(StorageClass::Input, t);
            let var = self.b.variable(p, StorageClass::Input);
            self.b
                .decorate(var, spirv::Decoration::BuiltIn, &[spv as u32]);
            self.name(var, bi.python_name());
            builtins.insert(bi, var);
        }
        let mut arrays = Vec::new();
        for a in &m.arrays {
            let st = self.array_struct(a.elem, a.written);
            let p = self.b.type_pointer(StorageClass::StorageBuffer, st);
            let var = self.b.variable(p, StorageClass::StorageBuffer);
            self.b.decorate(var, spirv::Decoration::DescriptorSet, &[0]);
            self.b
                .decorate(var, spirv::Decoration::Binding, &[a.binding]);
            if !a.written {
                self.b.decorate(var, spirv::Decoration::NonWritable, &[]);
            }
            self.name(var, &a.name);
            arrays.push(var);
        }
        let mut uniform_of = HashMap::new();
        for ep in &m.entry_points {
            let members: Vec<Word> = ep
                .uniform
                .members()
                .map(|(_, ty, _, _)| self.storage_ty(ty))
                .collect();
            let st = self.b.type_struct(&members);
            self.b.decorate(st, spirv::Decoration::Block, &[]);
            for (i, (name, _, offset, _)) in ep.uniform.members().enumerate() {
                self.b
                    .member_decorate(st, i as u32, spirv::Decoration::Offset, &[offset]);
                if self.names {
                    self.b.member_name(st, i as u32, name);
                }
            }
            let p = self.b.type_pointer(StorageClass::Uniform, st);
            let var = self.b.variable(p, StorageClass::Uniform);
            self.b.decorate(var, spirv::Decoration::DescriptorSet, &[0]);
            self.b.decorate(var, spirv::Decoration::Binding, &[0]);
            uniform_of.insert(ep.function, (var, ep.uniform.clone()));
        }
        let functions = m.functions.iter().map(|_| self.b.id()).collect();
        Ok(Globals {
            builtins,
            arrays,
            uniform_of,
            functions,
        })
    }

    /// The Block struct around a runtime array; one per element type and writability, so
    /// that `NonWritable` on the member is right for every variable of that type.
    fn array_struct(&mut self, elem: Ty, written: bool) -> Word {
        if let Some(&s) = self.array_structs.get(&(elem, written)) {
            return s;
        }
        let et = self.ty(elem);
        let rt = self.b.type_runtime_array(et);
        if self.decorated_arrays.insert(rt) {
            self.b.decorate(rt, spirv::Decoration::ArrayStride, &[4]);
        }
        let st = self.b.type_struct(&[rt]);
        self.b.decorate(st, spirv::Decoration::Block, &[]);
        self.b
            .member_decorate(st, 0, spirv::Decoration::Offset, &[0]);
        if !written {
            self.b
                .member_decorate(st, 0, spirv::Decoration::NonWritable, &[]);
        }
        self.array_structs.insert((elem, written), st);
        st
    }

    fn function(&mut self, m: &Module, g: &Globals, id: FuncId, f: &Function<Ref>) -> R<()> {
        let void = self.b.type_void();
        let ret = match f.ret {
            Some(t) => self.ty(t),
            None => void,
        };
        let params: Vec<Word> = f.params.iter().map(|&t| self.ty(t)).collect();
        let fty = self.b.type_function(ret, &params);
        let fid = g.functions[id.index()];
        self.b.begin_function(ret, fid, fty)?;
        self.name(fid, &f.name);
        let param_ids: Vec<Word> = params
            .iter()
            .map(|&t| self.b.function_parameter(t))
            .collect::<Result<_, _>>()?;
        let mut fx = FnState::new(self, f, g, id, param_ids)?;
        fx.body(self, m)?;
        self.b.end_function()?;
        Ok(())
    }
}

/// Ids and emitted-block facts for one function.
struct FnState<'f> {
    f: &'f Function<Ref>,
    g: &'f Globals,
    id: FuncId,
    labels: Vec<Word>,
    values: Vec<Word>,
    phis: Vec<Word>,
    emitted: Vec<bool>,
    /// Per continue block of a reachable loop, the loop's header.
    loop_of: Vec<Option<Block>>,
    /// Per block, its emitted predecessors.
    preds: Vec<Vec<Block>>,
    /// Infinities and NaNs: naga accepts no non-finite constant, so each is a bitcast of its
    /// bits at the top of the entry block, `(id, bits)`.
    non_finite: Vec<(Word, u32)>,
}

impl<'f> FnState<'f> {
    fn new(
        e: &mut Emitter,
        f: &'f Function<Ref>,
        g: &'f Globals,
        id: FuncId,
        params: Vec<Word>,
    ) -> R<Self> {
        let n = f.blocks.len();
        let mut emitted = f.reachable.clone();
        let mut loop_of = vec![None; n];
        for (b, block) in f.blocks.iter().enumerate() {
            if !f.reachable[b] {
                continue;
            }
            match block.merge {
                Merge::Selection(m) => emitted[m.index()] = true,
                Merge::Loop { merge, cont } => {
                    emitted[merge.index()] = true;
                    emitted[cont.index()] = true;
                    loop_of[cont.index()].get_or_insert(Block::new(b));
                }
                Merge::None => {}
            }
        }
        let mut preds = vec![Vec::new(); n];
        for b in 0..n {
            if !emitted[b] {
                continue;
            }
            for s in successors_emitted(f, Block::new(b), &loop_of) {
                preds[s.index()].push(Block::new(b));
            }
        }
        let labels = (0..n).map(|_| e.b.id()).collect();
        let kernel = g.uniform_of.contains_key(&id);
        let mut values = Vec::with_capacity(f.insts.len());
        let mut non_finite = Vec::new();
        for inst in &f.insts {
            values.push(match inst.op {
                Op::Const(Const::F32(bits)) if !f32::from_bits(bits).is_finite() => {
                    let id = e.b.id();
                    non_finite.push((id, bits));
                    id
                }
                Op::Const(c) => e.konst(c),
                // A func's parameters are its OpFunctionParameters.
                Op::Param(n) if !kernel => params[n as usize],
                _ => e.b.id(),
            });
        }
        let phis = f.phis.iter().map(|_| e.b.id()).collect();
        Ok(FnState {
            f,
            g,
            id,
            labels,
            values,
            phis,
            emitted,
            loop_of,
            preds,
            non_finite,
        })
    }

    fn r(&self, e: &mut Emitter, r: Ref) -> Word {
        match r {
            Ref::Inst(v) => self.values[v.index()],
            Ref::Phi(p) => self.phis[p.index()],
            Ref::Undef(t) => {
                let ty = e.ty(t);
                // OpUndef is a module-level value; one per use is valid and rare.
                e.b.undef(ty)
            }
        }
    }

    fn body(&mut self, e: &mut Emitter, m: &Module) -> R<()> {
        let f = self.f;
        let block_phis = f.phis_by_block();
        for &b in &f.order {
            if !self.emitted[b.index()] {
                continue;
            }
            e.b.begin_block(self.labels[b.index()])?;
            if b.index() == 0 && !self.non_finite.is_empty() {
                let ft = e.ty(Ty::F32);
                for &(id, bits) in &self.non_finite {
                    let u = e.konst(Const::U32(bits));
                    e.b.op(SOp::Bitcast, ft, Some(id), &[u])?;
                }
            }
            if !f.reachable[b.index()] {
                self.dead_structural_block(e, b)?;
                continue;
            }
            for &p in &block_phis[b.index()] {
                let (i, phi) = (p.index(), &f.phis[p.index()]);
                if !phi.live {
                    continue;
                }
                let ty = e.ty(phi.ty);
                // The argument for each emitted predecessor, found by binary search: a merge
                // block that many `break`s reach has as many arguments.
                let mut args = phi.args.clone();
                args.sort_by_key(|a| a.0);
                let mut pairs = Vec::new();
                for &p in &self.preds[b.index()] {
                    let v = args
                        .binary_search_by_key(&p, |a| a.0)
                        .map_or(Ref::Undef(phi.ty), |k| args[k].1);
                    pairs.push((self.r(e, v), self.labels[p.index()]));
                }
                e.b.phi(ty, self.phis[i], &pairs)?;
                e.name(self.phis[i], &f.vars[phi.var.index()].name);
            }
            for &v in &f.blocks[b.index()].insts {
                self.inst(e, m, v)?;
            }
            self.terminator(e, b)?;
        }
        Ok(())
    }

    /// A merge or continue block that nothing reaches.
    fn dead_structural_block(&mut self, e: &mut Emitter, b: Block) -> R<()> {
        let f = self.f;
        match successors_emitted(f, b, &self.loop_of).first() {
            Some(h) => e.b.terminate(SOp::Branch, &[self.labels[h.index()]])?,
            None => e.b.terminate(SOp::Unreachable, &[])?,
        }
        Ok(())
    }

    fn terminator(&mut self, e: &mut Emitter, b: Block) -> R<()> {
        let block = &self.f.blocks[b.index()];
        match block.merge {
            Merge::Selection(m) => {
                // SelectionControl::NONE.
                e.b.void(SOp::SelectionMerge, &[self.labels[m.index()], 0])?
            }
            // LoopControl::NONE.
            Merge::Loop { merge, cont } => e.b.void(
                SOp::LoopMerge,
                &[self.labels[merge.index()], self.labels[cont.index()], 0],
            )?,
            Merge::None => {}
        }
        match &block.term {
            Term::Jump(t) => e.b.terminate(SOp::Branch, &[self.labels[t.index()]])?,
            Term::Branch(c, t, f) => {
                let c = self.r(e, *c);
                if t == f {
                    e.b.terminate(SOp::Branch, &[self.labels[t.index()]])?;
                } else {
                    let (t, f) = (self.labels[t.index()], self.labels[f.index()]);
                    e.b.terminate(SOp::BranchConditional, &[c, t, f])?;
                }
            }
            Term::Return(None) => e.b.terminate(SOp::Return, &[])?,
            Term::Return(Some(r)) => {
                let v = self.r(e, *r);
                e.b.terminate(SOp::ReturnValue, &[v])?;
            }
            Term::Unreachable | Term::Open => e.b.terminate(SOp::Unreachable, &[])?,
        }
        Ok(())
    }

    fn inst(&mut self, e: &mut Emitter, _m: &Module, v: Value) -> R<()> {
        let f = self.f;
        let inst = &f.insts[v.index()];
        if let Op::Const(_) = inst.op {
            return Ok(());
        }
        let id = self.values[v.index()];
        let args: Vec<Word> = inst.args.iter().map(|&a| self.r(e, a)).collect();
        let operand = |k: usize| -> R<Ty> {
            let a = inst
                .args
                .get(k)
                .ok_or_else(|| EmitError(format!("{:?} lacks operand {k}", inst.op)))?;
            Ok(f.ty_of(*a))
        };
        let out = Some(id);
        match inst.op {
            Op::Store(a) => {
                let t = operand(1)?;
                let p = self.element(e, a, args[0], t)?;
                e.b.void(SOp::Store, &[p, args[1]])?;
                return Ok(());
            }
            Op::Call(callee) => {
                let fid = self.g.functions[callee.index()];
                let ret = match inst.ty {
                    Some(t) => e.ty(t),
                    None => e.b.type_void(),
                };
                let mut operands = Vec::with_capacity(1 + args.len());
                operands.push(fid);
                operands.extend_from_slice(&args);
                e.b.op(SOp::FunctionCall, ret, out, &operands)?;
                return Ok(());
            }
            _ => {}
        }
        let t = inst
            .ty
            .ok_or_else(|| EmitError(format!("{:?} has no result type", inst.op)))?;
        let rt = e.ty(t);
        match inst.op {
            Op::Const(_) | Op::Store(_) | Op::Call(_) => {}
            Op::Param(n) => self.param(e, n, t, id)?,
            Op::Unary(u) => {
                let s = operand(0)?.scalar();
                match (u, s) {
                    (UnOp::Neg, Scalar::F32) => e.b.op(SOp::FNegate, rt, out, &[args[0]])?,
                    // `-u` wraps modulo 2**32; naga takes no negation of an unsigned value.
                    (UnOp::Neg, Scalar::U32) => {
                        let zero = e.konst(Const::U32(0));
                        e.b.op(SOp::ISub, rt, out, &[zero, args[0]])?
                    }
                    (UnOp::Neg, _) => e.b.op(SOp::SNegate, rt, out, &[args[0]])?,
                    (UnOp::Not, _) => e.b.op(SOp::LogicalNot, rt, out, &[args[0]])?,
                    (UnOp::BitNot, _) => e.b.op(SOp::Not, rt, out, &[args[0]])?,
                };
            }
            Op::Binary(op) => {
                let divisor = inst.args.get(1).and_then(|&r| f.as_const(r));
                binary(e, op, t, rt, id, args[0], args[1], divisor)?;
            }
            Op::Cmp(op) => {
                let s = operand(0)?.scalar();
                compare(e, op, s, rt, Some(id), args[0], args[1])?;
            }
            Op::Select => {
                e.b.op(SOp::Select, rt, out, &[args[0], args[1], args[2]])?;
            }
            Op::Convert => {
                let from = operand(0)?.scalar();
                convert(e, from, t.scalar(), rt, id, args[0])?;
            }
            Op::Math(mf) => math(e, mf, t, rt, id, &args)?,
            Op::Load(a) => {
                let p = self.element(e, a, args[0], t)?;
                e.b.op(SOp::Load, rt, out, &[p])?;
            }
            Op::ArrayLen(a) => {
                let u = e.ty(Ty::U32);
                let n =
                    e.b.op(SOp::ArrayLength, u, None, &[self.g.arrays[a.index()], 0])?;
                e.b.op(SOp::Bitcast, rt, out, &[n])?;
            }
            Op::Builtin(bi) => {
                let var = self.g.builtins[&bi];
                let ut = match t {
                    Ty::Vector(_, n) => e.ty(Ty::Vector(Scalar::U32, n)),
                    _ => e.ty(Ty::U32),
                };
                let raw = e.b.op(SOp::Load, ut, None, &[var])?;
                e.b.op(SOp::Bitcast, rt, out, &[raw])?;
            }
            Op::Extract(i) => {
                e.b.op(SOp::CompositeExtract, rt, out, &[args[0], i])?;
            }
            Op::OutsideLaunch => self.outside_launch(e, id)?,
        }
        if let Some(var) = inst.var {
            let name = &f.vars[var.index()].name;
            e.name(id, name);
        }
        Ok(())
    }

    /// A kernel's scalar parameter from its uniform block, or a func's parameter.
    fn param(&mut self, e: &mut Emitter, n: u32, t: Ty, id: Word) -> R<()> {
        let Some((var, _)) = self.g.uniform_of.get(&self.id) else {
            // A func's parameter is its OpFunctionParameter (see `FnState::new`).
            let _ = (n, t, id);
            return Ok(());
        };
        let st = e.storage_ty(t);
        let p = e.b.type_pointer(StorageClass::Uniform, st);
        let idx = e.konst(Const::I32(n as i32));
        let ptr = e.b.op(SOp::AccessChain, p, None, &[*var, idx])?;
        if t == Ty::BOOL {
            let raw = e.b.op(SOp::Load, st, None, &[ptr])?;
            let zero = e.konst(Const::U32(0));
            let bt = e.ty(Ty::BOOL);
            e.b.op(SOp::INotEqual, bt, Some(id), &[raw, zero])?;
        } else {
            let ty = e.ty(t);
            e.b.op(SOp::Load, ty, Some(id), &[ptr])?;
        }
        Ok(())
    }

    fn element(&mut self, e: &mut Emitter, a: ArrayId, index: Word, t: Ty) -> R<Word> {
        let et = e.ty(t);
        let p = e.b.type_pointer(StorageClass::StorageBuffer, et);
        let zero = e.konst(Const::I32(0));
        e.b.op(
            SOp::AccessChain,
            p,
            None,
            &[self.g.arrays[a.index()], zero, index],
        )
    }

    fn outside_launch(&mut self, e: &mut Emitter, id: Word) -> R<()> {
        let (var, layout) = self
            .g
            .uniform_of
            .get(&self.id)
            .ok_or_else(|| EmitError("a launch guard outside a kernel".into()))?;
        let u3 = e.ty(Ty::Vector(Scalar::U32, 3));
        let gid =
            e.b.op(SOp::Load, u3, None, &[self.g.builtins[&Builtin::GlobalId]])?;
        let p = e.b.type_pointer(StorageClass::Uniform, u3);
        let idx = e.konst(Const::I32(layout.threads_member() as i32));
        let tp = e.b.op(SOp::AccessChain, p, None, &[*var, idx])?;
        let threads = e.b.op(SOp::Load, u3, None, &[tp])?;
        let b3 = e.ty(Ty::Vector(Scalar::Bool, 3));
        let ge = e.b.op(SOp::UGreaterThanEqual, b3, None, &[gid, threads])?;
        let bt = e.ty(Ty::BOOL);
        e.b.op(SOp::Any, bt, Some(id), &[ge])?;
        Ok(())
    }
}

/// The successors of emitted block `b`; `loop_of` maps each continue block of a reachable
/// loop to its header.
fn successors_emitted(f: &Function<Ref>, b: Block, loop_of: &[Option<Block>]) -> Vec<Block> {
    if !f.reachable[b.index()] {
        // A dead continue block branches to its loop header; a dead merge block to nothing.
        return loop_of[b.index()].into_iter().collect();
    }
    let mut out: Vec<Block> = f.blocks[b.index()].term.successors().collect();
    out.dedup();
    out
}

/// `a op b` into `id`; `b_const` is `b`'s value when it is a constant.
#[allow(clippy::too_many_arguments)]
fn binary(
    e: &mut Emitter,
    op: BinOp,
    t: Ty,
    rt: Word,
    id: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<()> {
    let out = Some(id);
    let s = t.scalar();
    match (op, s) {
        (BinOp::Add, Scalar::F32) => e.b.op(SOp::FAdd, rt, out, &[a, b])?,
        (BinOp::Add, _) => e.b.op(SOp::IAdd, rt, out, &[a, b])?,
        (BinOp::Sub, Scalar::F32) => e.b.op(SOp::FSub, rt, out, &[a, b])?,
        (BinOp::Sub, _) => e.b.op(SOp::ISub, rt, out, &[a, b])?,
        (BinOp::Mul, Scalar::F32) => e.b.op(SOp::FMul, rt, out, &[a, b])?,
        (BinOp::Mul, _) => e.b.op(SOp::IMul, rt, out, &[a, b])?,
        (BinOp::Div, _) => e.b.op(SOp::FDiv, rt, out, &[a, b])?,
        (BinOp::FloorDiv, Scalar::U32) => e.b.op(SOp::UDiv, rt, out, &[a, b])?,
        (BinOp::Mod, Scalar::U32) => e.b.op(SOp::UMod, rt, out, &[a, b])?,
        (BinOp::FloorDiv, Scalar::I32) => {
            // q = a / b (truncating), minus one when the remainder is non-zero and its sign
            // differs from the divisor's.
            let (q, r, minus_one) = int_div_rem(e, rt, a, b, b_const)?;
            // `INT_MIN // -1` wraps, as every i32 result does: the quotient is `-a`.
            let q = match minus_one {
                Some(m1) => {
                    let neg = e.b.op(SOp::SNegate, rt, None, &[a])?;
                    e.b.op(SOp::Select, rt, None, &[m1, neg, q])?
                }
                None => q,
            };
            let fix = int_fixup(e, rt, r, b)?;
            let (one, zero) = (e.konst(Const::I32(1)), e.konst(Const::I32(0)));
            let adj = e.b.op(SOp::Select, rt, None, &[fix, one, zero])?;
            e.b.op(SOp::ISub, rt, out, &[q, adj])?
        }
        (BinOp::Mod, Scalar::I32) => {
            let (_, r, _) = int_div_rem(e, rt, a, b, b_const)?;
            let fix = int_fixup(e, rt, r, b)?;
            let zero = e.konst(Const::I32(0));
            let adj = e.b.op(SOp::Select, rt, None, &[fix, b, zero])?;
            e.b.op(SOp::IAdd, rt, out, &[r, adj])?
        }
        (BinOp::Mod, Scalar::F32) => {
            let r = e.b.op(SOp::FRem, rt, None, &[a, b])?;
            let fix = float_fixup(e, r, b)?;
            let rb = e.b.op(SOp::FAdd, rt, None, &[r, b])?;
            let m = e.b.op(SOp::Select, rt, None, &[fix, rb, r])?;
            // A zero remainder takes the divisor's sign too (CPython's `float_rem`). The
            // choice is made on the bits: Vulkan drivers need not keep the sign of a float
            // zero, and one (NVIDIA's) folds a float `select(r == 0, +0.0, r)` to `r`.
            let zero = e.konst(Const::f32(0.0));
            let (bt, u) = (e.ty(Ty::BOOL), e.ty(Ty::U32));
            let is_zero = e.b.op(SOp::FOrdEqual, bt, None, &[r, zero])?;
            let sign = e.konst(Const::U32(0x8000_0000));
            let b_bits = e.b.op(SOp::Bitcast, u, None, &[b])?;
            let signed = e.b.op(SOp::BitwiseAnd, u, None, &[b_bits, sign])?;
            let m_bits = e.b.op(SOp::Bitcast, u, None, &[m])?;
            let bits = e.b.op(SOp::Select, u, None, &[is_zero, signed, m_bits])?;
            e.b.op(SOp::Bitcast, rt, out, &[bits])?
        }
        (BinOp::FloorDiv, Scalar::F32) => {
            // CPython's float_floor_div: mod = fmod(a, b); div = (a - mod) / b; if the mod's
            // sign is wrong, div -= 1; then round div to the nearest integer value.
            let m = e.b.op(SOp::FRem, rt, None, &[a, b])?;
            let am = e.b.op(SOp::FSub, rt, None, &[a, m])?;
            let div = e.b.op(SOp::FDiv, rt, None, &[am, b])?;
            let fix = float_fixup(e, m, b)?;
            let one = e.konst(Const::f32(1.0));
            let dm1 = e.b.op(SOp::FSub, rt, None, &[div, one])?;
            let div = e.b.op(SOp::Select, rt, None, &[fix, dm1, div])?;
            let glsl = e.glsl;
            let fl = e.b.ext_inst(rt, None, glsl, GLOp::Floor as u32, &[div])?;
            let frac = e.b.op(SOp::FSub, rt, None, &[div, fl])?;
            let half = e.konst(Const::f32(0.5));
            let bt = e.ty(Ty::BOOL);
            let up = e.b.op(SOp::FOrdGreaterThan, bt, None, &[frac, half])?;
            let fl1 = e.b.op(SOp::FAdd, rt, None, &[fl, one])?;
            let q = e.b.op(SOp::Select, rt, None, &[up, fl1, fl])?;
            // A zero quotient has the sign of a / b (CPython: `-0.0 // 1.5` is `-0.0`),
            // chosen on the bits as for `%`.
            let zero = e.konst(Const::f32(0.0));
            let is_zero = e.b.op(SOp::FOrdEqual, bt, None, &[div, zero])?;
            let u = e.ty(Ty::U32);
            let (ab, bb) = (
                e.b.op(SOp::Bitcast, u, None, &[a])?,
                e.b.op(SOp::Bitcast, u, None, &[b])?,
            );
            let x = e.b.op(SOp::BitwiseXor, u, None, &[ab, bb])?;
            let sign = e.konst(Const::U32(0x8000_0000));
            let signed = e.b.op(SOp::BitwiseAnd, u, None, &[x, sign])?;
            let q_bits = e.b.op(SOp::Bitcast, u, None, &[q])?;
            let bits = e.b.op(SOp::Select, u, None, &[is_zero, signed, q_bits])?;
            e.b.op(SOp::Bitcast, rt, out, &[bits])?
        }
        (BinOp::BitAnd | BinOp::And, Scalar::Bool) => e.b.op(SOp::LogicalAnd, rt, out, &[a, b])?,
        (BinOp::BitOr | BinOp::Or, Scalar::Bool) => e.b.op(SOp::LogicalOr, rt, out, &[a, b])?,
        (BinOp::BitXor, Scalar::Bool) => e.b.op(SOp::LogicalNotEqual, rt, out, &[a, b])?,
        (BinOp::BitAnd, _) => e.b.op(SOp::BitwiseAnd, rt, out, &[a, b])?,
        (BinOp::BitOr, _) => e.b.op(SOp::BitwiseOr, rt, out, &[a, b])?,
        (BinOp::BitXor, _) => e.b.op(SOp::BitwiseXor, rt, out, &[a, b])?,
        (BinOp::Shl, _) => e.b.op(SOp::ShiftLeftLogical, rt, out, &[a, b])?,
        (BinOp::Shr, Scalar::I32) => e.b.op(SOp::ShiftRightArithmetic, rt, out, &[a, b])?,
        (BinOp::Shr, _) => e.b.op(SOp::ShiftRightLogical, rt, out, &[a, b])?,
        (op, s) => return Err(EmitError(format!("no {op:?} on {s:?}"))),
    };
    Ok(())
}

/// The truncated quotient and remainder of i32s, `(q, r, minus_one)`, without `OpSRem` or
/// `OpSMod`: the Vulkan environment leaves their results undefined for negative operands
/// (some drivers do return wrong values), while `OpSDiv` is defined for them. So
/// `r = a - q * b` with `q = a / b`. `OpSDiv` is undefined for `INT_MIN / -1`, so unless `b`
/// is a constant other than -1 the division is by `b == -1 ? 1 : b`; then `r` is 0 for
/// `b == -1` (right), `q` is `a` instead of `-a`, and `minus_one` is the `b == -1` test for
/// the caller to fix `q` with. (A zero divisor is a compile error when it is a constant, and
/// gives the device's result otherwise.)
fn int_div_rem(
    e: &mut Emitter,
    rt: Word,
    a: Word,
    b: Word,
    b_const: Option<Const>,
) -> R<(Word, Word, Option<Word>)> {
    let (d, minus_one) = match b_const {
        Some(Const::I32(c)) if c != -1 => (b, None),
        _ => {
            let bt = e.ty(Ty::BOOL);
            let (m1, one) = (e.konst(Const::I32(-1)), e.konst(Const::I32(1)));
            let is_m1 = e.b.op(SOp::IEqual, bt, None, &[b, m1])?;
            (
                e.b.op(SOp::Select, rt, None, &[is_m1, one, b])?,
                Some(is_m1),
            )
        }
    };
    let q = e.b.op(SOp::SDiv, rt, None, &[a, d])?;
    let qd = e.b.op(SOp::IMul, rt, None, &[q, d])?;
    let r = e.b.op(SOp::ISub, rt, None, &[a, qd])?;
    Ok((q, r, minus_one))
}

/// `r != 0 and (r < 0) != (b < 0)` for the truncated remainder `r = a rem b` of i32s,
/// via `(r ^ b) < 0`.
fn int_fixup(e: &mut Emitter, rt: Word, r: Word, b: Word) -> R<Word> {
    let zero = e.konst(Const::I32(0));
    let bt = e.ty(Ty::BOOL);
    let nz = e.b.op(SOp::INotEqual, bt, None, &[r, zero])?;
    let x = e.b.op(SOp::BitwiseXor, rt, None, &[r, b])?;
    let neg = e.b.op(SOp::SLessThan, bt, None, &[x, zero])?;
    e.b.op(SOp::LogicalAnd, bt, None, &[nz, neg])
}

/// `r != 0 and (r < 0) != (b < 0)` for f32.
fn float_fixup(e: &mut Emitter, r: Word, b: Word) -> R<Word> {
    let zero = e.konst(Const::f32(0.0));
    let bt = e.ty(Ty::BOOL);
    let nz = e.b.op(SOp::FUnordNotEqual, bt, None, &[r, zero])?;
    let rn = e.b.op(SOp::FOrdLessThan, bt, None, &[r, zero])?;
    let bn = e.b.op(SOp::FOrdLessThan, bt, None, &[b, zero])?;
    let differ = e.b.op(SOp::LogicalNotEqual, bt, None, &[rn, bn])?;
    e.b.op(SOp::LogicalAnd, bt, None, &[nz, differ])
}

fn compare(
    e: &mut Emitter,
    op: CmpOp,
    s: Scalar,
    rt: Word,
    out: Option<Word>,
    a: Word,
    b: Word,
) -> R<Word> {
    use CmpOp::*;
    Ok(match (s, op) {
        (Scalar::Bool, Eq) => e.b.op(SOp::LogicalEqual, rt, out, &[a, b])?,
        (Scalar::Bool, _) => e.b.op(SOp::LogicalNotEqual, rt, out, &[a, b])?,
        (Scalar::F32, Eq) => e.b.op(SOp::FOrdEqual, rt, out, &[a, b])?,
        (Scalar::F32, Ne) => e.b.op(SOp::FUnordNotEqual, rt, out, &[a, b])?,
        (Scalar::F32, Lt) => e.b.op(SOp::FOrdLessThan, rt, out, &[a, b])?,
        (Scalar::F32, Le) => e.b.op(SOp::FOrdLessThanEqual, rt, out, &[a, b])?,
        (Scalar::F32, Gt) => e.b.op(SOp::FOrdGreaterThan, rt, out, &[a, b])?,
        (Scalar::F32, Ge) => e.b.op(SOp::FOrdGreaterThanEqual, rt, out, &[a, b])?,
        (_, Eq) => e.b.op(SOp::IEqual, rt, out, &[a, b])?,
        (_, Ne) => e.b.op(SOp::INotEqual, rt, out, &[a, b])?,
        (Scalar::I32, Lt) => e.b.op(SOp::SLessThan, rt, out, &[a, b])?,
        (Scalar::I32, Le) => e.b.op(SOp::SLessThanEqual, rt, out, &[a, b])?,
        (Scalar::I32, Gt) => e.b.op(SOp::SGreaterThan, rt, out, &[a, b])?,
        (Scalar::I32, Ge) => e.b.op(SOp::SGreaterThanEqual, rt, out, &[a, b])?,
        (_, Lt) => e.b.op(SOp::ULessThan, rt, out, &[a, b])?,
        (_, Le) => e.b.op(SOp::ULessThanEqual, rt, out, &[a, b])?,
        (_, Gt) => e.b.op(SOp::UGreaterThan, rt, out, &[a, b])?,
        (_, Ge) => e.b.op(SOp::UGreaterThanEqual, rt, out, &[a, b])?,
    })
}

fn convert(e: &mut Emitter, from: Scalar, to: Scalar, rt: Word, id: Word, a: Word) -> R<()> {
    let out = Some(id);
    match (from, to) {
        (Scalar::I32, Scalar::F32) => e.b.op(SOp::ConvertSToF, rt, out, &[a])?,
        (Scalar::U32, Scalar::F32) => e.b.op(SOp::ConvertUToF, rt, out, &[a])?,
        (Scalar::F32, Scalar::I32) => e.b.op(SOp::ConvertFToS, rt, out, &[a])?,
        (Scalar::F32, Scalar::U32) => e.b.op(SOp::ConvertFToU, rt, out, &[a])?,
        (Scalar::I32, Scalar::U32) | (Scalar::U32, Scalar::I32) => {
            e.b.op(SOp::Bitcast, rt, out, &[a])?
        }
        (Scalar::Bool, s) => {
            let one = e.konst(Const::one(s));
            let zero = e.konst(Const::zero(s));
            e.b.op(SOp::Select, rt, out, &[a, one, zero])?
        }
        (s, Scalar::Bool) => {
            let zero = e.konst(Const::zero(s));
            compare(e, CmpOp::Ne, s, rt, out, a, zero)?
        }
        (s, t) if s == t => e.b.op(SOp::CopyObject, rt, out, &[a])?,
        (s, t) => return Err(EmitError(format!("no conversion {s:?} -> {t:?}"))),
    };
    Ok(())
}

fn math(e: &mut Emitter, mf: MathFn, t: Ty, rt: Word, id: Word, args: &[Word]) -> R<()> {
    use MathFn::*;
    let out = Some(id);
    let glsl = e.glsl;
    // One GLSL.std.450 instruction where spirthon-ir's built-in table names one for this
    // operand type; the sequences below otherwise.
    let gl = spirthon_ir::library::of(mf).and_then(|row| row.glsl.for_scalar(t.scalar()));
    if let Some(g) = gl {
        e.b.ext_inst(rt, out, glsl, g, args)?;
        return Ok(());
    }
    match mf {
        Log10 => {
            let l2 = e.b.ext_inst(rt, None, glsl, GLOp::Log2 as u32, args)?;
            let k = e.konst(Const::f32(core::f32::consts::LOG10_2));
            e.b.op(SOp::FMul, rt, out, &[l2, k])?;
        }
        Copysign => {
            let u = e.ty(Ty::U32);
            let a = e.b.op(SOp::Bitcast, u, None, &[args[0]])?;
            let b = e.b.op(SOp::Bitcast, u, None, &[args[1]])?;
            let (mag, sign) = (
                e.konst(Const::U32(0x7fff_ffff)),
                e.konst(Const::U32(0x8000_0000)),
            );
            let a = e.b.op(SOp::BitwiseAnd, u, None, &[a, mag])?;
            let b = e.b.op(SOp::BitwiseAnd, u, None, &[b, sign])?;
            let r = e.b.op(SOp::BitwiseOr, u, None, &[a, b])?;
            e.b.op(SOp::Bitcast, rt, out, &[r])?;
        }
        Hypot => {
            let xx = e.b.op(SOp::FMul, rt, None, &[args[0], args[0]])?;
            let yy = e.b.op(SOp::FMul, rt, None, &[args[1], args[1]])?;
            let s = e.b.op(SOp::FAdd, rt, None, &[xx, yy])?;
            e.b.ext_inst(rt, out, glsl, GLOp::Sqrt as u32, &[s])?;
        }
        Fmod => {
            e.b.op(SOp::FRem, rt, out, &[args[0], args[1]])?;
        }
        IsNan => {
            e.b.op(SOp::IsNan, rt, out, &[args[0]])?;
        }
        IsInf => {
            e.b.op(SOp::IsInf, rt, out, &[args[0]])?;
        }
        other => return Err(EmitError(format!("no emission for {other:?}"))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rspirv::spirv::GlslStd450Op as G;
    use spirthon_ir::library::{Glsl, LIBRARY};
    use spirthon_ir::MathFn::*;

    /// The built-in table's GLSL.std.450 numbers are the instructions their names say.
    #[test]
    fn library_glsl_numbers_match_the_extended_instruction_set() {
        for row in LIBRARY {
            let Some(f) = row.func else { continue };
            let want = |f32: Option<G>, i32: Option<G>, u32: Option<G>| Glsl {
                f32: f32.map(|g| g as u32),
                i32: i32.map(|g| g as u32),
                u32: u32.map(|g| g as u32),
            };
            let expected = match f {
                Sqrt => want(Some(G::Sqrt), None, None),
                Sin => want(Some(G::Sin), None, None),
                Cos => want(Some(G::Cos), None, None),
                Tan => want(Some(G::Tan), None, None),
                Asin => want(Some(G::Asin), None, None),
                Acos => want(Some(G::Acos), None, None),
                Atan => want(Some(G::Atan), None, None),
                Atan2 => want(Some(G::Atan2), None, None),
                Sinh => want(Some(G::Sinh), None, None),
                Cosh => want(Some(G::Cosh), None, None),
                Tanh => want(Some(G::Tanh), None, None),
                Exp => want(Some(G::Exp), None, None),
                Exp2 => want(Some(G::Exp2), None, None),
                Log => want(Some(G::Log), None, None),
                Log2 => want(Some(G::Log2), None, None),
                Pow => want(Some(G::Pow), None, None),
                Floor => want(Some(G::Floor), None, None),
                Ceil => want(Some(G::Ceil), None, None),
                Trunc => want(Some(G::Trunc), None, None),
                RoundEven => want(Some(G::RoundEven), None, None),
                Abs if row.name == "fabs" => want(Some(G::FAbs), None, None),
                Abs => want(Some(G::FAbs), Some(G::SAbs), Some(G::SAbs)),
                Min => want(Some(G::FMin), Some(G::SMin), Some(G::UMin)),
                Max => want(Some(G::FMax), Some(G::SMax), Some(G::UMax)),
                Log10 | Copysign | Hypot | Fmod | IsNan | IsInf => want(None, None, None),
            };
            assert_eq!(row.glsl, expected, "{}", row.name);
        }
    }
}

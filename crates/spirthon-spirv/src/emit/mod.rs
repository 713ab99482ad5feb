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
//! What it does not do: optimize (the middle end folded and removed dead code), or check the
//! result (module `validate` runs naga over it).

use spirthon_ir::hash::{FastMap, FastSet};

use rspirv::spirv::{self, Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::{Const, IndexVec, Scalar, Ty, UniformLayout};

use crate::words::Words;

mod accurate;
mod arith;
mod checked;
mod glsl;
mod half;
mod launch;
mod memory;
mod prints;
mod subgroup;

use memory::{shape_members, uniform_load};

use arith::{binary, compare, convert, math};

/// Emission choices.
#[derive(Copy, Clone, Debug)]
pub struct EmitOptions {
    /// Emit `OpName`s for kernels, parameters and Python variables.
    pub names: bool,
    /// `--fast-math`: the device's GLSL.std.450 instructions for the functions the built-in
    /// table marks `Precision::Own` instead of the module's own (`accurate`, within a few
    /// ULP), `OpFRem` instead of the module's exact remainder (`Precision::OwnExact`), and
    /// float `+ - *` without `NoContraction`.
    pub fast_math: bool,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            names: true,
            fast_math: false,
        }
    }
}

/// A failure inside the emitter: a compiler bug, never a user error.
#[derive(Debug)]
pub struct EmitError(pub String);

type R<T> = Result<T, EmitError>;

struct Globals {
    /// Per builtin: its Input variable.
    builtins: FastMap<Builtin, Word>,
    /// The arrays in workgroup memory (`shared_array`s) and in private memory (constant
    /// tables), with their storage class: no Block struct around them.
    /// Per private or workgroup array: its storage class and its variable's length.
    direct: FastMap<ArrayId, (StorageClass, u32)>,
    /// A checked module: every index that could be past its array's end is checked.
    checked: bool,
    /// The arrays stored as their vectors' components (see `memory::scalarized_arrays`).
    scalarized: FastSet<ArrayId>,
    /// The buffers of narrow ints, packed in words, and their element type.
    packed: FastMap<ArrayId, Scalar>,
    /// The float arrays held as their bits in words (see `Module::word_arrays`).
    words: FastSet<ArrayId>,
    /// Per axis of a multi-dimensional array: its kernel's uniform block and member.
    shapes: FastMap<(ArrayId, u32), (Word, u32)>,
    /// Per array: its StorageBuffer variable.
    arrays: Vec<Word>,
    /// Per function: its uniform block variable (kernels only).
    uniform_of: FastMap<FuncId, (Word, UniformLayout)>,
    functions: Vec<Word>,
    /// Checked mode's error buffer, flags and `record` function.
    checks: Option<checked::Checks>,
    /// The print buffer and print functions of a module that prints.
    prints: Option<prints::Prints>,
    /// The private launch-wide id offsets of a module that reads one (module `launch`).
    launch: Option<launch::LaunchIds>,
}

struct Emitter {
    b: Words,
    glsl: Word,
    consts: FastMap<Const, Word>,
    /// The declared id of each value type, in front of the word builder's table (a lookup
    /// per instruction emitted).
    ty_ids: FastMap<Ty, Word>,
    names: bool,
    fast_math: bool,
    /// The `accurate` math functions called so far, each emitted once at the end as a
    /// function of its own: (function, arity, id).
    math_helpers: Vec<(spirthon_ir::cfg::MathFn, usize, Word)>,
    /// The module's own `f64` functions called so far (`accurate::double`), and their ids.
    math64_helpers: Vec<(spirthon_ir::cfg::MathFn, usize, Word)>,
    /// The bits of `2/π` in private memory (`accurate::double`), once made.
    two_over_pi: Option<Word>,
    /// Vector constants made by [`Emitter::splat`]: the component, the size, the id.
    splats: Vec<(Const, u8, Word)>,
    /// The private table of the module's own `pow` (`accurate::pow_table`), once made.
    pow_table: Option<Word>,
    /// The module's own exact `f64` `fmod` (`accurate::fmod64`), once called.
    fmod64: Option<Word>,
    /// The compare-exchange loops of float atomics on word arrays, each emitted once at the
    /// end as a function of its own (`memory::atomic_helpers`).
    atomic_helpers: Vec<memory::AtomicHelper>,
    decorated_arrays: FastSet<Word>,
    array_structs: FastMap<(Ty, bool), Word>,
}

/// Emits the whole module as SPIR-V words.
pub fn emit(m: &Module, opts: EmitOptions) -> R<Vec<u32>> {
    let mut b = Words::new(1, 3);
    b.capability(spirv::Capability::Shader);
    // The scalar types atomics work on, in one pass: the device's float add and 64-bit ones
    // need capabilities (a float atomic on a word array is a compare-exchange loop).
    // And the subgroup operations theirs, in the same pass.
    let words = m.word_arrays();
    let (mut float_atomics, mut int64_atomics) = (false, false);
    let mut group_caps: Vec<spirv::Capability> = Vec::new();
    for i in m.functions.iter().flat_map(|f| f.insts.iter()) {
        if let (Op::Atomic(_, a), Some(t)) = (i.op, i.ty) {
            float_atomics |= t.scalar() == Scalar::F32 && !words.contains(&a);
            // (an `f64` atomic is a compare-exchange loop on `u64` words)
            int64_atomics |= t.scalar().is_int64() || t.scalar() == Scalar::F64;
        }
        for c in subgroup::capabilities(i.op) {
            if !group_caps.contains(c) {
                group_caps.push(*c);
            }
        }
    }
    if float_atomics {
        b.capability(spirv::Capability::AtomicFloat32AddEXT);
        b.extension("SPV_EXT_shader_atomic_float_add");
    }
    if int64_atomics {
        b.capability(spirv::Capability::Int64Atomics);
    }
    group_caps.sort_by_key(|c| *c as u32);
    for c in group_caps {
        b.capability(c);
    }
    let glsl = b.ext_inst_import("GLSL.std.450");
    b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
    let mut e = Emitter {
        b,
        glsl,
        consts: FastMap::default(),
        ty_ids: FastMap::default(),
        names: opts.names,
        fast_math: opts.fast_math,
        math_helpers: Vec::new(),
        math64_helpers: Vec::new(),
        two_over_pi: None,
        splats: Vec::new(),
        pow_table: None,
        fmod64: None,
        atomic_helpers: Vec::new(),
        decorated_arrays: FastSet::default(),
        array_structs: FastMap::default(),
    };
    let globals = e.globals(m, words)?;
    for (i, f) in m.functions.iter().enumerate() {
        e.function(m, &globals, FuncId(i as u32), f)?;
    }
    e.record_function(&globals)?;
    e.print_functions(&globals, m)?;
    accurate::helper_functions(&mut e)?;
    memory::atomic_helpers(&mut e)?;
    for ep in &m.entry_points {
        let f = globals.functions[ep.function.index()];
        let mut used: Vec<Builtin> = m
            .call_closure(ep.function)
            .iter()
            .flat_map(|g| m.functions[*g].insts.iter())
            .filter_map(|i| match i.op {
                Op::Builtin(bi) => Some(bi),
                Op::OutsideLaunch | Op::Print(_) => Some(Builtin::GlobalId),
                _ => None,
            })
            .collect();
        if m.checked {
            used.extend(checked::RECORD_BUILTINS);
        }
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
            Scalar::F64 => self.b.type_float(64),
            Scalar::I64 => self.b.type_int(64, true),
            Scalar::U64 => self.b.type_int(64, false),
            // A narrow int lives in its 32-bit carrier (see `Scalar::carrier`).
            s => self.scalar_ty(s.carrier()),
        }
    }

    /// The id of a value type ([`Words`] declares each type once). A "vector" of more than
    /// four components is a tuple's carrier: an array.
    fn ty(&mut self, t: Ty) -> Word {
        if let Some(&id) = self.ty_ids.get(&t) {
            return id;
        }
        let id = self.declare_ty(t);
        self.ty_ids.insert(t, id);
        id
    }

    /// The type declaration of `t` (deduplicated by the word builder).
    fn declare_ty(&mut self, t: Ty) -> Word {
        match t {
            Ty::Scalar(s) => self.scalar_ty(s),
            Ty::Vector(s, n) if n > 4 => {
                let c = self.scalar_ty(s);
                let len = self.konst(Const::U32(n as u32));
                self.b.type_array(c, len)
            }
            // A matrix is its entries, row-major, as an array (see `Ty::Matrix`).
            Ty::Matrix(s, _) => {
                let c = self.scalar_ty(s);
                let len = self.konst(Const::U32(t.components()));
                self.b.type_array(c, len)
            }
            Ty::Vector(s, n) => {
                let c = self.scalar_ty(s);
                self.b.type_vector(c, n as u32)
            }
            // A quaternion is held as a `vec4` (the same type id).
            Ty::Quat => self.ty(Ty::Vector(Scalar::F32, 4)),
        }
    }

    /// The type a value of `t` has in a buffer (bools are stored as u32).
    fn storage_ty(&mut self, t: Ty) -> Word {
        match t {
            Ty::Scalar(Scalar::Bool) => self.ty(Ty::U32),
            // A matrix in a uniform block: its rows, `row_stride` bytes apart (std140).
            Ty::Matrix(s, n) => {
                let row = self.ty(Ty::Vector(s, n));
                let len = self.konst(Const::U32(n as u32));
                let at = self.b.type_array(row, len);
                if self.decorated_arrays.insert(at) {
                    let stride = t.row_stride();
                    self.b
                        .decorate(at, spirv::Decoration::ArrayStride, &[stride]);
                }
                at
            }
            other => self.ty(other),
        }
    }

    /// The constant `c` as a value of `t`: itself for a scalar `t`, every component of a
    /// vector `t` (of `c`'s scalar type) otherwise.
    fn splat(&mut self, c: Const, t: Ty) -> Word {
        let one = self.konst(c);
        let Some((_, n)) = t.as_vector() else {
            return one;
        };
        let vt = self.ty(Ty::Vector(c.ty().scalar(), n));
        if let Some(&(_, _, id)) = self.splats.iter().find(|s| s.0 == c && s.1 == n) {
            return id;
        }
        let id = self.b.constant_composite(vt, &vec![one; n as usize]);
        self.splats.push((c, n, id));
        id
    }

    fn konst(&mut self, c: Const) -> Word {
        if let Some(&id) = self.consts.get(&c) {
            return id;
        }
        let ty = self.ty(c.ty());
        let id = match c {
            Const::Bool(b) => self.b.constant_bool(ty, b),
            Const::F64(_) | Const::I64(_) | Const::U64(_) => self.b.constant_bit64(ty, c.bits()),
            other => self.b.constant_bit32(ty, other.bits() as u32),
        };
        self.consts.insert(c, id);
        id
    }

    fn globals(&mut self, m: &Module, words: FastSet<ArrayId>) -> R<Globals> {
        let builtins = self.builtin_variables(m);
        let scalarized = memory::scalarized_arrays(m);
        let arrays = m
            .arrays
            .iter_enumerated()
            .map(|(i, a)| self.array_variable(a, scalarized.contains(&i), words.contains(&i)))
            .collect();
        let mut uniform_of = FastMap::default();
        for ep in &m.entry_points {
            let var = self.uniform_block(&ep.uniform);
            uniform_of.insert(ep.function, (var, ep.uniform.clone()));
        }
        let functions = m.functions.iter().map(|_| self.b.id()).collect();
        // The length of each private or workgroup array's variable, as `array_variable`
        // declares it (a scalarized array holds each element's components).
        let direct = m
            .arrays
            .iter_enumerated()
            .filter_map(|(i, a)| match &a.memory {
                Memory::Buffer => None,
                Memory::Workgroup(len) => {
                    let per = match a.elem {
                        t @ (Ty::Vector(..) | Ty::Matrix(..)) if scalarized.contains(&i) => {
                            t.components()
                        }
                        _ => 1,
                    };
                    Some((i, (StorageClass::Workgroup, len * per)))
                }
                Memory::Local(len) => Some((i, (StorageClass::Private, *len))),
                Memory::Constant(values) => Some((i, (StorageClass::Private, values.len() as u32))),
            })
            .collect();
        let shapes = shape_members(m, &uniform_of);
        let checks = self.check_globals(m);
        let prints = self.print_globals(m);
        let launch = self.launch_globals(&builtins);
        let packed = m
            .arrays
            .iter_enumerated()
            .filter(|(_, a)| a.packed())
            .map(|(i, a)| (i, a.elem.scalar()))
            .collect();
        Ok(Globals {
            checked: m.checked,
            checks,
            prints,
            launch,
            builtins,
            direct,
            scalarized,
            packed,
            words,
            shapes,
            arrays,
            uniform_of,
            functions,
        })
    }

    /// A kernel's uniform block variable (binding 0), laid out as `layout` says.
    fn uniform_block(&mut self, layout: &UniformLayout) -> Word {
        let members: Vec<Word> = layout
            .members()
            .map(|(_, ty, _, _)| self.storage_ty(ty))
            .collect();
        let st = self.b.type_struct(&members);
        self.b.decorate(st, spirv::Decoration::Block, &[]);
        for (i, (name, _, offset, _)) in layout.members().enumerate() {
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
        var
    }

    /// The Block struct around a runtime array; one per element type and writability, so
    /// that `NonWritable` on the member is right for every variable of that type.
    /// The Block struct of an array of structs whose element is a struct of words
    /// ([`spirthon_ir::Record::members`]): each member at its word's offset, the stride the
    /// element's size.
    fn record_struct(&mut self, r: &spirthon_ir::Record, written: bool) -> Word {
        let members: Vec<Word> = r
            .members
            .iter()
            .map(|&(s, _)| self.ty(Ty::Scalar(s)))
            .collect();
        let es = self.b.type_struct(&members);
        for (k, &(_, offset)) in r.members.iter().enumerate() {
            self.b
                .member_decorate(es, k as u32, spirv::Decoration::Offset, &[offset]);
        }
        self.name(es, &r.name);
        let rt = self.b.type_runtime_array(es);
        self.b
            .decorate(rt, spirv::Decoration::ArrayStride, &[r.size]);
        self.block_of(rt, written)
    }

    /// The Block struct around runtime array `rt`, `NonWritable` unless `written`.
    fn block_of(&mut self, rt: Word, written: bool) -> Word {
        let st = self.b.type_struct(&[rt]);
        self.b.decorate(st, spirv::Decoration::Block, &[]);
        self.b
            .member_decorate(st, 0, spirv::Decoration::Offset, &[0]);
        if !written {
            self.b
                .member_decorate(st, 0, spirv::Decoration::NonWritable, &[]);
        }
        st
    }

    fn array_struct(&mut self, elem: Ty, written: bool) -> Word {
        if let Some(&s) = self.array_structs.get(&(elem, written)) {
            return s;
        }
        // std430: a 2-vector is 8 bytes, a 4-vector 16 (a scalarized array comes here as
        // its scalar).
        let et = self.ty(elem);
        let rt = self.b.type_runtime_array(et);
        if self.decorated_arrays.insert(rt) {
            self.b
                .decorate(rt, spirv::Decoration::ArrayStride, &[elem.size()]);
        }
        let st = self.block_of(rt, written);
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
    phis: IndexVec<Phi, Word>,
    emitted: IndexVec<Block, bool>,
    /// Per continue block of a reachable loop, the loop's header.
    loop_of: Vec<Option<Block>>,
    /// Per block, its emitted predecessors.
    preds: Vec<Vec<Block>>,
    /// Infinities and NaNs: naga accepts no non-finite constant, so each is a bitcast of its
    /// `f32` bits at the top of the entry block, `(id, bits, f64)`, converted for an `f64`
    /// (its infinities and NaN are the `f32`'s, widened).
    non_finite: Vec<(Word, u32, bool)>,
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
        for (b, block) in f.blocks.iter_enumerated() {
            if !f.reachable[b] {
                continue;
            }
            match block.merge {
                Merge::Selection(m) => emitted[m] = true,
                Merge::Loop { merge, cont } => {
                    emitted[merge] = true;
                    emitted[cont] = true;
                    loop_of[cont.index()].get_or_insert(b);
                }
                Merge::None => {}
            }
        }
        let mut preds = vec![Vec::new(); n];
        for b in f.blocks.ids() {
            if !emitted[b] {
                continue;
            }
            for s in successors_emitted(f, b, &loop_of) {
                preds[s.index()].push(b);
            }
        }
        let labels = (0..n).map(|_| e.b.id()).collect();
        let kernel = g.uniform_of.contains_key(&id);
        let mut values = Vec::with_capacity(f.insts.len());
        let mut non_finite = Vec::new();
        for inst in &f.insts {
            values.push(match inst.op {
                // An `f16` is held as the `f32` of its value.
                Op::Const(c @ Const::F16(_)) if !c.as_float().is_some_and(f64::is_finite) => {
                    let id = e.b.id();
                    non_finite.push((id, c.bits() as u32, false));
                    id
                }
                Op::Const(Const::F32(bits)) if !f32::from_bits(bits).is_finite() => {
                    let id = e.b.id();
                    non_finite.push((id, bits, false));
                    id
                }
                Op::Const(Const::F64(bits)) if !f64::from_bits(bits).is_finite() => {
                    let id = e.b.id();
                    let narrow = (f64::from_bits(bits) as f32).to_bits();
                    non_finite.push((id, narrow, true));
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
            Ref::Phi(p) => self.phis[p],
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
            if !self.emitted[b] {
                continue;
            }
            e.b.begin_block(self.labels[b.index()])?;
            if b.index() == 0 && !self.non_finite.is_empty() {
                let ft = e.ty(Ty::F32);
                for &(id, bits, wide) in &self.non_finite {
                    let u = e.konst(Const::U32(bits));
                    if wide {
                        let narrow = e.b.op(SOp::Bitcast, ft, None, &[u])?;
                        let dt = e.ty(Ty::F64);
                        e.b.op(SOp::FConvert, dt, Some(id), &[narrow])?;
                    } else {
                        e.b.op(SOp::Bitcast, ft, Some(id), &[u])?;
                    }
                }
            }
            if b.index() == 0 {
                self.store_group_size(e, m)?;
                self.store_launch_base(e, m)?;
            }
            if !f.reachable[b] {
                self.dead_structural_block(e, b)?;
                continue;
            }
            for &p in &block_phis[b.index()] {
                let phi = &f.phis[p];
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
                e.b.phi(ty, self.phis[p], &pairs)?;
                e.name(self.phis[p], &f.vars[phi.var].name);
            }
            for &v in &f.blocks[b].insts {
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
        let block = &self.f.blocks[b];
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
            Term::Switch(c, d, cases) => {
                let mut operands = vec![self.r(e, *c), self.labels[d.index()]];
                for &(value, target) in cases {
                    operands.extend([value, self.labels[target.index()]]);
                }
                e.b.terminate(SOp::Switch, &operands)?;
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

    /// A store, or a call (which may return nothing).
    fn effect(
        &mut self,
        e: &mut Emitter,
        op: Op,
        ty: Option<Ty>,
        args: &[Word],
        id: Word,
        operand: impl Fn(usize) -> R<Ty>,
    ) -> R<()> {
        match op {
            Op::Store(a) => self.store(e, a, args[0], operand(0)?, operand(1)?, args[1])?,
            Op::StoreField(a, k) => {
                let p = self.field_pointer(e, a, k, args[0], operand(1)?)?;
                e.b.void(SOp::Store, &[p, args[1]])?;
            }
            Op::Call(callee) => {
                let fid = self.g.functions[callee.index()];
                let ret = match ty {
                    Some(t) => e.ty(t),
                    None => e.b.type_void(),
                };
                let mut operands = Vec::with_capacity(1 + args.len());
                operands.push(fid);
                operands.extend_from_slice(args);
                e.b.op(SOp::FunctionCall, ret, Some(id), &operands)?;
            }
            other => return Err(EmitError(format!("{other:?} is not a store or call"))),
        }
        Ok(())
    }

    fn inst(&mut self, e: &mut Emitter, m: &Module, v: Value) -> R<()> {
        let f = self.f;
        let inst = &f.insts[v];
        if let Op::Const(_) = inst.op {
            return Ok(());
        }
        let id = self.values[v.index()];
        let args: smallvec::SmallVec<[Word; 4]> = inst.args.iter().map(|&a| self.r(e, a)).collect();
        let operand = |k: usize| operand_ty(f, inst, k);
        match inst.op {
            Op::Store(_) | Op::StoreField(..) | Op::Call(_) => {
                return self.effect(e, inst.op, inst.ty, &args, id, operand)
            }
            Op::Fail => return self.fail(e, &args),
            Op::Print(site) => return self.print(e, site, &args),
            Op::Barrier => {
                barrier(e)?;
                return self.count_sync(e, true);
            }
            Op::Clear(a) => return self.clear(e, m, a),
            _ => {}
        }
        let t = inst
            .ty
            .ok_or_else(|| EmitError(format!("{:?} has no result type", inst.op)))?;
        // A narrow int's (or a vector of them's) arithmetic runs in its 32-bit carrier, then
        // wraps to its width.
        let narrow = Some(t)
            .filter(|t| matches!(t, Ty::Scalar(_) | Ty::Vector(..)) && t.scalar().is_narrow())
            .filter(|_| {
                matches!(
                    inst.op,
                    Op::Unary(_) | Op::Binary(_) | Op::Math(_) | Op::Convert
                )
            });
        let (t, wrapped, id) = match narrow {
            Some(nt) => (nt.with_scalar(nt.scalar().carrier()), Some(id), e.b.id()),
            None => (t, None, id),
        };
        let out = Some(id);
        let rt = e.ty(t);
        match inst.op {
            Op::Const(_)
            | Op::Store(_)
            | Op::StoreField(..)
            | Op::Call(_)
            | Op::Barrier
            | Op::Fail
            | Op::Print(_)
            | Op::Clear(_) => {}
            Op::Failed => self.failed(e, rt, id)?,
            Op::Param(n) => self.param(e, n, t, id)?,
            Op::Unary(u) => arith::unary(e, u, operand(0)?.scalar(), rt, id, args[0])?,
            Op::Binary(op @ (BinOp::Shl | BinOp::Shr)) => {
                let small = count_below_width(f, inst.args[1], t.scalar().bits());
                arith::shift(e, op, t, rt, id, args[0], args[1], small)?;
            }
            // `//` and `%` of an `i32` known non-negative by one known positive: Python's
            // floor and the device's truncation agree (no sign fixups).
            Op::Binary(op @ (BinOp::FloorDiv | BinOp::Mod))
                if t == Ty::I32
                    && known_non_negative(f, inst.args[0])
                    && known_positive(f, inst.args[1]) =>
            {
                let code = if op == BinOp::FloorDiv {
                    SOp::SDiv
                } else {
                    SOp::SRem
                };
                e.b.op(code, rt, out, &[args[0], args[1]])?;
            }
            Op::Binary(op) => {
                let divisor = inst.args.get(1).and_then(|&r| f.as_const(r));
                binary(e, op, t, rt, id, args[0], args[1], divisor)?;
            }
            Op::Cmp(op) => {
                let s = operand(0)?.scalar();
                compare(e, op, s, rt, Some(id), args[0], args[1])?;
            }
            Op::Select => select(e, t, rt, id, &args)?,
            Op::Convert => {
                let from = operand(0)?.scalar();
                convert(e, from, t, rt, id, args[0])?;
            }
            // The tests take their operand's type (the result is a bool of its shape).
            Op::Math(mf @ (MathFn::IsNan | MathFn::IsInf)) => {
                math(e, mf, operand(0)?, rt, id, &args)?
            }
            Op::Math(mf) => math(e, mf, t, rt, id, &args)?,
            Op::Load(a) => self.load(e, a, args[0], operand(0)?, t, id)?,
            Op::LoadField(a, k) => {
                let p = self.field_pointer(e, a, k, args[0], t)?;
                e.b.op(SOp::Load, rt, out, &[p])?;
            }
            Op::ArrayLen(a) => self.array_len(e, m, a, rt, id)?,
            Op::Builtin(bi) => {
                let raw = e.launch_id(self.g, bi)?;
                e.b.op(SOp::Bitcast, rt, Some(id), &[raw])?;
            }
            Op::Extract(i) => {
                e.b.op(SOp::CompositeExtract, rt, out, &[args[0], i])?;
            }
            Op::Construct => {
                e.b.op(SOp::CompositeConstruct, rt, out, &args)?;
            }
            // The 16 bits of an `f16` (in a `u32`), and back.
            Op::Bitcast if t.scalar() == Scalar::F16 => {
                half::from_bits(e, args[0], out)?;
            }
            Op::Bitcast if operand(0)?.scalar() == Scalar::F16 => {
                half::to_bits(e, args[0], out)?;
            }
            Op::Bitcast => {
                e.b.op(SOp::Bitcast, rt, out, &[args[0]])?;
            }
            Op::Insert(i) => {
                e.b.op(SOp::CompositeInsert, rt, out, &[args[1], args[0], i])?;
            }
            Op::ExtractAt => {
                e.b.op(SOp::VectorExtractDynamic, rt, out, &[args[0], args[1]])?;
            }
            Op::InsertAt => {
                e.b.op(
                    SOp::VectorInsertDynamic,
                    rt,
                    out,
                    &[args[0], args[2], args[1]],
                )?;
            }
            Op::OutsideLaunch => self.outside_launch(e, id)?,
            Op::LaunchSize => self.launch_size(e, rt, id)?,
            Op::ArrayShape(a, axis) => self.array_shape(e, a, axis, rt, id)?,
            Op::Atomic(op, a) => self.atomic(e, op, a, operand(0)?, t, id, &args)?,
            Op::Subgroup(op) => {
                let tys = (0..inst.args.len()).map(&operand).collect::<R<Vec<Ty>>>()?;
                subgroup::emit(e, op, &tys, rt, id, &args)?;
                self.count_sync(e, false)?;
            }
        }
        let id = match (narrow, wrapped) {
            (Some(nt), Some(to)) => {
                arith::wrap_narrow(e, nt, id, to)?;
                to
            }
            _ => id,
        };
        if let Some(var) = inst.var {
            let name = &f.vars[var].name;
            e.name(id, name);
        }
        Ok(())
    }
}

impl FnState<'_> {
    /// `local_array(T, N)` where it runs: the array's zero value stored over it.
    fn clear(&mut self, e: &mut Emitter, m: &Module, a: ArrayId) -> R<()> {
        let g = &m.arrays[a];
        let len = g
            .known_len()
            .ok_or_else(|| EmitError(format!("clearing `{}`, which has no length", g.name)))?;
        let at = e.fixed_array(g.elem, len);
        let zero = e.b.constant_null(at);
        e.b.void(SOp::Store, &[self.g.arrays[a.index()], zero])
    }

    /// `len(a)`: a constant for an array of known length (workgroup memory), the hidden
    /// length of a packed array of narrow ints, else the storage buffer's run-time length
    /// (in elements: words over the words per element of an array of structs).
    fn array_len(&self, e: &mut Emitter, m: &Module, a: ArrayId, rt: Word, id: Word) -> R<()> {
        if m.arrays[a].packed() {
            return self.array_shape(e, a, 0, rt, id);
        }
        if self.g.direct.contains_key(&a) {
            let len = m.arrays[a].known_len().unwrap_or(0);
            let c = e.konst(Const::I32(len as i32));
            e.b.op(SOp::CopyObject, rt, Some(id), &[c])?;
            return Ok(());
        }
        let u = e.ty(Ty::U32);
        let mut n =
            e.b.op(SOp::ArrayLength, u, None, &[self.g.arrays[a.index()], 0])?;
        let per = match &m.arrays[a].record {
            Some(r) if r.members.is_empty() => r.words(),
            Some(_) => 1,
            None if self.scalarized(a) => m.arrays[a].elem.components(),
            None => 1,
        };
        if per > 1 {
            let per = e.konst(Const::U32(per));
            n = e.b.op(SOp::UDiv, u, None, &[n, per])?;
        }
        e.b.op(SOp::Bitcast, rt, Some(id), &[n])?;
        Ok(())
    }

    /// Axis `axis` of a multi-dimensional array's shape, from its hidden uniform member.
    fn array_shape(&self, e: &mut Emitter, a: ArrayId, axis: u32, rt: Word, id: Word) -> R<()> {
        let (var, member) = *self
            .g
            .shapes
            .get(&(a, axis))
            .ok_or_else(|| EmitError(format!("no shape {axis} of array {a:?}")))?;
        uniform_load(e, var, member, rt, Some(id))?;
        Ok(())
    }
}

/// The type of operand `k` of `inst`.
fn operand_ty(f: &Function<Ref>, inst: &Inst<Ref>, k: usize) -> R<Ty> {
    let a = inst
        .args
        .get(k)
        .ok_or_else(|| EmitError(format!("{:?} lacks operand {k}", inst.op)))?;
    Ok(f.ty_of(*a))
}

/// `barrier()`: workgroup execution scope and memory scope; acquire-release ordering of
/// workgroup memory and of buffers, as CUDA's `__syncthreads()` orders both.
fn barrier(e: &mut Emitter) -> R<()> {
    let wg = e.konst(Const::U32(2));
    let semantics = e.konst(Const::U32(0x8 | 0x40 | 0x100));
    e.b.void(SOp::ControlBarrier, &[wg, wg, semantics])
}

/// `c ? a : b` into `id` (`args` = `[c, a, b]`); SPIR-V before 1.4 selects vectors with a
/// vector of conditions.
fn select(e: &mut Emitter, t: Ty, rt: Word, id: Word, args: &[Word]) -> R<()> {
    let c = match t {
        // An array (a matrix, a tuple's carrier): one select per component.
        Ty::Matrix(..) | Ty::Vector(_, 5..) => {
            let st = e.ty(Ty::Scalar(t.scalar()));
            let comps = (0..t.components())
                .map(|k| {
                    let a = e.b.op(SOp::CompositeExtract, st, None, &[args[1], k])?;
                    let b = e.b.op(SOp::CompositeExtract, st, None, &[args[2], k])?;
                    e.b.op(SOp::Select, st, None, &[args[0], a, b])
                })
                .collect::<R<Vec<Word>>>()?;
            e.b.op(SOp::CompositeConstruct, rt, Some(id), &comps)?;
            return Ok(());
        }
        Ty::Vector(..) | Ty::Quat => {
            let n = t.components() as u8;
            let bv = e.ty(Ty::Vector(Scalar::Bool, n));
            let conds = vec![args[0]; n as usize];
            e.b.op(SOp::CompositeConstruct, bv, None, &conds)?
        }
        Ty::Scalar(_) => args[0],
    };
    e.b.op(SOp::Select, rt, Some(id), &[c, args[1], args[2]])?;
    Ok(())
}

/// The successors of emitted block `b`; `loop_of` maps each continue block of a reachable
/// loop to its header.
fn successors_emitted(f: &Function<Ref>, b: Block, loop_of: &[Option<Block>]) -> Vec<Block> {
    if !f.reachable[b] {
        // A dead continue block branches to its loop header; a dead merge block to nothing.
        return loop_of[b.index()].into_iter().collect();
    }
    let mut out: Vec<Block> = f.blocks[b].term.successors().collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests;

/// Whether a shift count is known to lie in `0..32`: a constant there, `n & m` with a
/// constant `m < 32`, or `n % m` with a constant `0 < m <= 32` (Python's `%` of a positive
/// divisor is never negative).
/// Whether the `i32` `r` is never negative, from its instruction alone: a constant, or an
/// id within the workgroup or the subgroup (the local id and index, below 1024; the
/// subgroup size and index). Global and workgroup ids are not among them (a launch may
/// have 2**31 threads, or workgroups of one, along an axis).
fn known_non_negative(f: &Function<Ref>, r: Ref) -> bool {
    if let Some(Const::I32(k)) = f.as_const(r) {
        return k >= 0;
    }
    let Ref::Inst(v) = r else { return false };
    let local = |b: Builtin| {
        matches!(
            b,
            Builtin::LocalId
                | Builtin::LocalIndex
                | Builtin::SubgroupSize
                | Builtin::SubgroupInvocationId
        )
    };
    match f.insts[v].op {
        Op::Builtin(b) => local(b),
        Op::Extract(_) => match f.insts[v].args[0] {
            Ref::Inst(w) => matches!(f.insts[w].op, Op::Builtin(b) if local(b)),
            _ => false,
        },
        _ => false,
    }
}

/// Whether the `i32` `r` is never zero or negative, from its instruction alone: a positive
/// constant, or the subgroup size.
fn known_positive(f: &Function<Ref>, r: Ref) -> bool {
    if let Some(Const::I32(k)) = f.as_const(r) {
        return k > 0;
    }
    matches!(r, Ref::Inst(v) if f.insts[v].op == Op::Builtin(Builtin::SubgroupSize))
}

fn count_below_width(f: &Function<Ref>, r: Ref, width: u32) -> bool {
    let max_count = i128::from(width) - 1;
    let small = |c: Option<Const>, max: i128| match c {
        Some(Const::I32(k)) => (0..=max).contains(&i128::from(k)),
        Some(Const::U32(k)) => i128::from(k) <= max,
        Some(Const::I64(k)) => (0..=max).contains(&i128::from(k)),
        Some(Const::U64(k)) => i128::from(k) <= max,
        _ => false,
    };
    if small(f.as_const(r), max_count) {
        return true;
    }
    let Ref::Inst(v) = r else {
        return false;
    };
    let inst = &f.insts[v];
    let consts = || inst.args.iter().map(|&a| f.as_const(a));
    match inst.op {
        Op::Binary(BinOp::BitAnd) => consts().any(|c| small(c, max_count)),
        Op::Binary(BinOp::Mod) => {
            let m = inst.args.get(1).and_then(|&a| f.as_const(a));
            small(m, max_count + 1) && !small(m, 0)
        }
        _ => false,
    }
}

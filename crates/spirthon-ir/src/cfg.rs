//! The control-flow graph of a lowered function.
//!
//! A [`Function`] is generic over its operand type: the frontend's lowering produces
//! `Function<Operand>`, whose instructions may read *variables* (an [`Operand::Use`]), with
//! each block's `defines` / `depends` recorded in the SSA crate's [`spirthon_ssa::Function`];
//! SSA construction turns it into `Function<Ref>`, where every operand names an instruction,
//! a phi or an undefined value, and `phis` is filled.
//!
//! Invariants:
//! - `Value(i)` is the result of `insts[i]`; each instruction sits in exactly one block's
//!   `insts`, in program order; block 0 is the entry and has no predecessors.
//! - Every filled block ends in one [`Term`]; `Merge` records the structure Python's own
//!   `if` / `while` / `for` gave it (a selection header names its merge block, a loop header
//!   its merge and continue blocks), so the backend never has to structurize.
//! - `order` lists the blocks in the order lowering filled them, which for structured code
//!   puts every block after its dominators (SPIR-V's block-order rule).
//! - Operand types agree with the operation: lowering inserts every conversion explicitly.

pub use spirthon_ssa::{Block, Operand, Phi, Value, Var};

use crate::abi::UniformLayout;
use crate::index_vec::IndexVec;
use crate::span::Span;
use crate::types::{Const, Ty};

macro_rules! id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A storage buffer of one kernel (module-wide index).
    ArrayId
);
id!(
    /// A function of the module: a kernel body or one instance of a `@func`.
    FuncId
);

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Logical not of a bool.
    Not,
    /// Bitwise complement of an int.
    BitNot,
}

/// Binary operations, with Python's semantics for the operand type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Float division only: lowering converts `int / int` to floats first.
    Div,
    /// Python `//`: floors, for ints and floats.
    FloorDiv,
    /// Python `%`: the result takes the divisor's sign.
    Mod,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    /// Arithmetic for `i32`, logical for `u32`.
    Shr,
    /// On bools (non-short-circuit: both operands are already evaluated).
    And,
    Or,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The Python spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    /// Whether the comparison holds for operands ordered `ord`; `None` (a NaN operand) makes
    /// every comparison false but `!=`, as in Python.
    pub fn holds(self, ord: Option<core::cmp::Ordering>) -> bool {
        use core::cmp::Ordering::*;
        match (self, ord) {
            (CmpOp::Ne, None) => true,
            (_, None) => false,
            (CmpOp::Eq, Some(o)) => o == Equal,
            (CmpOp::Ne, Some(o)) => o != Equal,
            (CmpOp::Lt, Some(o)) => o == Less,
            (CmpOp::Le, Some(o)) => o != Greater,
            (CmpOp::Gt, Some(o)) => o == Greater,
            (CmpOp::Ge, Some(o)) => o != Less,
        }
    }
}

/// Built-in math, on `f32` unless noted.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MathFn {
    Sqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Pow,
    /// `exp(x) - 1`, precise near 0.
    Expm1,
    /// `log(1 + x)`, precise near 0.
    Log1p,
    /// The real cube root.
    Cbrt,
    /// The error function.
    Erf,
    /// `1 - erf(x)`, precise where `erf(x)` is near 1.
    Erfc,
    /// `abs` on any numeric type.
    Abs,
    /// `min`/`max` of two operands of any numeric type.
    Min,
    Max,
    Floor,
    Ceil,
    Trunc,
    /// Round half to even.
    RoundEven,
    Copysign,
    Hypot,
    /// C `fmod`: the result takes the dividend's sign.
    Fmod,
    /// Result `bool`.
    IsNan,
    IsInf,
    /// Float vectors: the dot product (`OpDot`), a scalar.
    Dot,
    /// `vec3` only.
    Cross,
    /// Float vectors to a scalar.
    Length,
    Distance,
    Normalize,
    /// `mix(a, b, t)` is `a * (1 - t) + b * t`.
    Mix,
    /// `step(edge, x)` is `0.0` where `x < edge`, else `1.0`.
    Step,
    /// `smoothstep(e0, e1, x)`: `t * t * (3 - 2 * t)` with `t = clamp((x - e0) / (e1 - e0), 0, 1)`.
    SmoothStep,
}

impl MathFn {
    /// Whether the device computes the function's `f64` form exactly (or, `sqrt`, as it
    /// computes it): those [`MathFn::takes_f64`] has without the module's own double
    /// precision code.
    pub fn exact_on_f64(self) -> bool {
        use MathFn::*;
        matches!(
            self,
            Sqrt | Abs | Min | Max | Floor | Ceil | Trunc | RoundEven | IsNan | IsInf
        )
    }
    /// Whether the function has an `f64` form: those exact on every device (or, `sqrt`,
    /// the device's), and those the module computes itself in double precision (`exp`,
    /// `log`, `log2`, `log10`, `sin`, `cos`, `tan`).
    pub fn takes_f64(self) -> bool {
        use MathFn::*;
        self.exact_on_f64()
            || matches!(
                self,
                Exp | Log
                    | Log2
                    | Log10
                    | Sin
                    | Cos
                    | Tan
                    | Atan
                    | Atan2
                    | Asin
                    | Acos
                    | Hypot
                    | Pow
                    | Expm1
                    | Exp2
                    | Log1p
                    | Sinh
                    | Cosh
                    | Tanh
                    | Cbrt
                    | Erf
                    | Erfc
                    | Copysign
                    | Fmod
            )
    }
}

/// The thread-id builtins.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Builtin {
    GlobalId,
    LocalId,
    WorkgroupId,
    NumWorkgroups,
    LocalIndex,
    /// The invocations in a subgroup, an `i32`.
    SubgroupSize,
    /// The invocation's index in its subgroup, an `i32`.
    SubgroupInvocationId,
}

impl Builtin {
    pub fn python_name(self) -> &'static str {
        match self {
            Builtin::GlobalId => "global_id",
            Builtin::LocalId => "local_id",
            Builtin::WorkgroupId => "workgroup_id",
            Builtin::NumWorkgroups => "num_workgroups",
            Builtin::LocalIndex => "local_index",
            Builtin::SubgroupSize => "subgroup_size",
            Builtin::SubgroupInvocationId => "subgroup_invocation_id",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Const(Const),
    /// The function's parameter `n` (for a kernel: its `n`-th uniform field).
    Param(u32),
    Unary(UnOp),
    Binary(BinOp),
    Cmp(CmpOp),
    /// `args = [cond, if_true, if_false]`.
    Select,
    /// Converts `args[0]` to the instruction's type (Python's `int()`, `float()`, `u32()`,
    /// `bool()` semantics; int to int reinterprets the bits).
    Convert,
    Math(MathFn),
    /// `args = [index]`.
    Load(ArrayId),
    /// `args = [index, value]`; no result.
    Store(ArrayId),
    /// Member `n` of element `args[0]` of an array of structs laid out as a struct of words
    /// ([`Record::members`]).
    LoadField(ArrayId, u32),
    /// `args = [index, value]`: stores member `n` of an element of an array of structs; no
    /// result.
    StoreField(ArrayId, u32),
    /// The element count, as `i32`.
    ArrayLen(ArrayId),
    /// An `ivec3` (or `i32` for `LocalIndex`).
    Builtin(Builtin),
    /// Component `n` of a vector.
    Extract(u32),
    /// A vector from one scalar per component (`args`, in order).
    Construct,
    /// The bits of `args[0]` as the instruction's type (of the same size).
    Bitcast,
    /// `args = [vector, scalar]`: the vector with component `n` replaced.
    Insert(u32),
    /// `args = [vector, index]`: the component at a run-time `i32` index in `0..n` (an
    /// index outside it gives whatever the device gives; checked mode tests it first).
    ExtractAt,
    /// `args = [vector, index, scalar]`: the vector with the component at a run-time index
    /// replaced.
    InsertAt,
    Call(FuncId),
    /// Whether this invocation's global id lies outside the launch size (the kernel's hidden
    /// `threads` uniform) on some axis: a `bool`.
    OutsideLaunch,
    /// The launch size in threads (the kernel's hidden `threads` uniform), an `ivec3`; only
    /// in kernels.
    LaunchSize,
    /// Axis `n` of a multi-dimensional array's shape, an `i32` (from the uniform block of the
    /// kernel the array belongs to).
    ArrayShape(ArrayId, u32),
    /// `barrier()`: workgroup execution and workgroup memory barrier; no result.
    Barrier,
    /// Zeroes every element of a local array (`local_array(T, N)` where it runs); no
    /// result, no operands.
    Clear(ArrayId),
    /// An atomic read-modify-write of an element: `args = [index, value]`, or `[index,
    /// expected, value]` for `CompareExchange`; the result is the element's old value.
    Atomic(AtomicOp, ArrayId),
    /// Checked mode: a check failed: `args = [site, index, len]` (the site id a `u32`, the
    /// others `i32`s, zeros but for an index check). Records the failure in the error buffer
    /// and marks the invocation failed; the block then returns. No result.
    Fail,
    /// Checked mode: whether this invocation has failed (in a function it called), a `bool`.
    Failed,
    /// A subgroup operation (SPIR-V's `GroupNonUniform`), over the invocations of the
    /// subgroup that execute it (its *active* ones). It acts with the others, so it stays
    /// where it is: it is neither moved, merged with an equal one nor dropped.
    Subgroup(SubgroupOp),
    /// `print(...)` at print site `n` (see [`crate::prints`]): `args` are the values the
    /// site formats, in order (a struct's leaves in field order). Writes a record to the
    /// print buffer; no result.
    Print(u32),
}

/// The subgroup operations (see [`Op::Subgroup`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SubgroupOp {
    /// `args = [x]`: the reduction of `x` over the active invocations, or its inclusive or
    /// exclusive scan in invocation order (the instruction's type is `x`'s).
    Collective(GroupReduce, GroupScan),
    /// `args = [x]`: `x` of the lowest active invocation.
    BroadcastFirst,
    /// `args = [x, lane]` (`lane` a `u32`): `x` of invocation `lane`; undefined when that one
    /// is inactive or past the subgroup (lowering selects the invocation's own value then).
    Shuffle,
    /// `args = [pred]`: a `uvec4` with bit `k` set when invocation `k` is active and its
    /// `pred` is true.
    Ballot,
    /// `args = [pred]`: whether `pred` is true in every active invocation.
    All,
    /// `args = [pred]`: whether `pred` is true in some active invocation.
    Any,
}

/// The reductions of [`SubgroupOp::Collective`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GroupReduce {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// Whether a [`SubgroupOp::Collective`] reduces or scans.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GroupScan {
    Reduce,
    Inclusive,
    Exclusive,
}

/// The atomic operations on `i32` / `u32` array elements.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AtomicOp {
    Add,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
    Exchange,
    CompareExchange,
}

impl AtomicOp {
    /// Every operation with its Python name (`atomic_` + this).
    pub const ALL: [(AtomicOp, &'static str); 9] = [
        (AtomicOp::Add, "add"),
        (AtomicOp::Sub, "sub"),
        (AtomicOp::Min, "min"),
        (AtomicOp::Max, "max"),
        (AtomicOp::And, "and"),
        (AtomicOp::Or, "or"),
        (AtomicOp::Xor, "xor"),
        (AtomicOp::Exchange, "exchange"),
        (AtomicOp::CompareExchange, "compare_exchange"),
    ];
    /// The operation that `atomic_NAME` names.
    pub fn named(name: &str) -> Option<AtomicOp> {
        let rest = name.strip_prefix("atomic_")?;
        Self::ALL
            .iter()
            .find(|(_, n)| *n == rest)
            .map(|(op, _)| *op)
    }
}

impl Op {
    /// Whether the instruction must stay even when its result is unused.
    pub fn has_effect(self) -> bool {
        matches!(
            self,
            Op::Store(_)
                | Op::StoreField(..)
                | Op::Call(_)
                | Op::Barrier
                | Op::Atomic(..)
                | Op::Fail
                | Op::Clear(_)
                | Op::Subgroup(_)
                | Op::Print(_)
        )
    }
}

/// An instruction's operands: up to three inline (all but calls, composites and some
/// stores), so building and rewriting instructions allocates nothing per instruction.
pub type Args<O> = smallvec::SmallVec<[O; 3]>;

#[derive(Clone, PartialEq, Debug)]
pub struct Inst<O> {
    pub op: Op,
    /// `None` for instructions with no result (stores, calls of functions returning nothing).
    pub ty: Option<Ty>,
    pub args: Args<O>,
    pub span: Span,
    /// The variable whose value this is, for debug names.
    pub var: Option<Var>,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Term<O> {
    /// Not filled yet (lowering only).
    Open,
    Jump(Block),
    Branch(O, Block, Block),
    /// A `match` over an integer: to the block of the case whose value is the selector's
    /// (an `i32` or a `u32`; each value the bits of one, listed once), else to the default
    /// (the first block). Several values may share a block.
    Switch(O, Block, Vec<(u32, Block)>),
    Return(Option<O>),
    Unreachable,
}

impl<O> Term<O> {
    /// The blocks this one may go to, each once (a switch's cases may share a block).
    pub fn successors(&self) -> impl Iterator<Item = Block> + '_ {
        let (a, b, cases): (_, _, &[(u32, Block)]) = match self {
            Term::Jump(t) => (Some(*t), None, &[]),
            Term::Branch(_, t, e) => (Some(*t), Some(*e), &[]),
            Term::Switch(_, d, cases) => (Some(*d), None, cases),
            _ => (None, None, &[]),
        };
        let later = cases.iter().enumerate().filter_map(move |(k, &(_, c))| {
            let seen = Some(c) == a || cases[..k].iter().any(|&(_, p)| p == c);
            (!seen).then_some(c)
        });
        a.into_iter().chain(b).chain(later)
    }
}

/// The structured-control-flow role of a header block.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Merge {
    #[default]
    None,
    Selection(Block),
    Loop {
        merge: Block,
        cont: Block,
    },
}

#[derive(Clone, PartialEq, Debug)]
pub struct BlockData<O> {
    pub insts: Vec<Value>,
    pub term: Term<O>,
    pub merge: Merge,
}

impl<O> Default for BlockData<O> {
    fn default() -> Self {
        BlockData {
            insts: Vec::new(),
            term: Term::Open,
            merge: Merge::None,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VarInfo {
    /// The Python name; empty for variables lowering introduces.
    pub name: String,
    pub ty: Ty,
}

/// An operand after SSA construction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Ref {
    Inst(Value),
    Phi(Phi),
    /// No definition reaches (only in code that never runs, once errors are reported).
    Undef(Ty),
}

#[derive(Clone, PartialEq, Debug)]
pub struct PhiData {
    pub block: Block,
    pub var: Var,
    pub ty: Ty,
    /// One `(predecessor, value)` per reachable predecessor.
    pub args: Vec<(Block, Ref)>,
    /// Cleared by dead-code removal; the backend emits live phis only.
    pub live: bool,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Function<O> {
    pub name: String,
    pub span: Span,
    /// Parameter types of a `@func` (a kernel's scalar parameters live in its uniform block).
    pub params: Vec<Ty>,
    pub ret: Option<Ty>,
    pub insts: IndexVec<Value, Inst<O>>,
    pub blocks: IndexVec<Block, BlockData<O>>,
    pub order: Vec<Block>,
    pub vars: IndexVec<Var, VarInfo>,
    /// Filled by SSA construction.
    pub phis: IndexVec<Phi, PhiData>,
    /// Filled by SSA construction: whether each block can run.
    pub reachable: IndexVec<Block, bool>,
}

impl<O: Copy> Function<O> {
    pub fn inst(&self, v: Value) -> &Inst<O> {
        &self.insts[v]
    }
    pub fn block(&self, b: Block) -> &BlockData<O> {
        &self.blocks[b]
    }

    /// The phis of every block, each list in phi order: `result[b]` holds block `b`'s.
    /// (Walking `phis` once per block would be quadratic in long functions.)
    pub fn phis_by_block(&self) -> Vec<Vec<Phi>> {
        let mut out = vec![Vec::new(); self.blocks.len()];
        for (i, p) in self.phis.iter().enumerate() {
            out[p.block.index()].push(Phi::new(i));
        }
        out
    }
}

impl Function<Ref> {
    /// The type of an operand.
    pub fn ty_of(&self, r: Ref) -> Ty {
        match r {
            Ref::Inst(v) => self.insts[v]
                .ty
                .expect("an operand names an instruction with a result"),
            Ref::Phi(p) => self.phis[p].ty,
            Ref::Undef(t) => t,
        }
    }
    /// The constant an operand is, if it is one.
    pub fn as_const(&self, r: Ref) -> Option<Const> {
        match r {
            Ref::Inst(v) => match self.insts[v].op {
                Op::Const(c) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Where a module array lives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Memory {
    /// A kernel's `Array[T]` parameter: a storage buffer at the array's binding.
    Buffer,
    /// A `shared_array` in workgroup memory: its element count (the product of its axes for
    /// a two- or three-dimensional one). No binding.
    Workgroup(u32),
    /// A `local_array` in private memory, one per invocation: its element count. No
    /// binding; [`Op::Clear`] zeroes it where the program creates it.
    Local(u32),
    /// A module-level constant tuple or list indexed at run time: a read-only array with
    /// these elements. No binding.
    Constant(Vec<Const>),
}

/// An array of the module: a kernel's storage buffer (`Array[T]` parameter), a
/// `shared_array` in workgroup memory, a `local_array` in private memory, or a constant
/// table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GlobalArray {
    pub name: String,
    pub elem: Ty,
    /// The descriptor binding of a storage buffer (unused for the others).
    pub binding: u32,
    /// Whether the kernel or any function it calls stores into it.
    pub written: bool,
    pub memory: Memory,
    /// The length of each axis of a multi-dimensional shared or local array (`dims` of
    /// them), known at compile time; empty otherwise.
    pub fixed_shape: Vec<u32>,
    /// 1, or 2 or 3 for an `Array2D` / `Array3D` buffer (row-major; its shape travels in
    /// the kernel's uniform block) or a multi-dimensional shared or local array
    /// (`fixed_shape`).
    pub dims: u32,
    /// A buffer of structs (`Array[Particle]`): `elem` is `u32`, the buffer's 32-bit words,
    /// and lowering reads and writes an element's fields at their word offsets; its length
    /// counts elements.
    pub record: Option<Record>,
}

/// The element of an array of structs: its struct's name, size and leaves (see
/// docs/language.md, "Structs").
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub name: String,
    /// Bytes per element, a multiple of 4.
    pub size: u32,
    /// Each leaf's path (`vel`, `inner.x`), type and byte offset in the element.
    pub fields: Vec<(String, Ty, u32)>,
    /// Each scalar of an element (`f32`, `i32`, `u32` or `f64`; a bool's word is a `u32`)
    /// and its byte offset, when the buffer is declared as an array of a struct of them and
    /// read with [`Op::LoadField`] (member `k` is `members[k]`); empty when it is an array
    /// of `u32` words (an element with narrow ints, which share words and are stored with
    /// atomics).
    pub members: Vec<(crate::Scalar, u32)>,
}

impl Record {
    /// The member at byte `offset` of a struct of scalars.
    pub fn member_at(&self, offset: u32) -> Option<u32> {
        self.members
            .iter()
            .position(|&(_, o)| o == offset)
            .map(|k| k as u32)
    }
}

impl Record {
    /// 32-bit words per element.
    pub fn words(&self) -> u32 {
        self.size / 4
    }
}

impl GlobalArray {
    /// A storage buffer at `binding`.
    pub fn buffer(name: String, elem: Ty, binding: u32) -> GlobalArray {
        GlobalArray {
            name,
            elem,
            binding,
            written: false,
            memory: Memory::Buffer,
            fixed_shape: Vec::new(),
            dims: 1,
            record: None,
        }
    }
    /// The length of axis `k` when the compiler knows it: a shared or local array's or a
    /// constant table's (axis 0 of one dimension: the element count).
    pub fn known_axis(&self, k: u32) -> Option<u32> {
        match self.fixed_shape.get(k as usize) {
            Some(&n) => Some(n),
            None if self.dims == 1 && k == 0 => self.known_len(),
            None => None,
        }
    }
    /// The element count when the compiler knows it (all but buffers).
    pub fn known_len(&self) -> Option<u32> {
        match &self.memory {
            Memory::Buffer => None,
            Memory::Workgroup(n) | Memory::Local(n) => Some(*n),
            Memory::Constant(v) => Some(v.len() as u32),
        }
    }
    /// Whether the array is a descriptor binding (a kernel's `Array[T]` parameter).
    pub fn is_buffer(&self) -> bool {
        self.memory == Memory::Buffer
    }
    /// Whether a buffer of narrow ints (`u8`, …): packed four or two to a 32-bit word, as
    /// NumPy holds them, its length in the kernel's uniform block (as a multi-dimensional
    /// array's shape is).
    pub fn packed(&self) -> bool {
        self.is_buffer() && self.elem.scalar().is_narrow()
    }
    /// The items of a constant table.
    pub fn constant(&self) -> Option<&[Const]> {
        match &self.memory {
            Memory::Constant(v) => Some(v),
            _ => None,
        }
    }
    /// What the array is, in an error message: "a shared array", "a local array", "a
    /// constant tuple", "an array".
    pub fn kind(&self) -> &'static str {
        match self.memory {
            Memory::Buffer => "an array",
            Memory::Workgroup(_) => "a shared array",
            Memory::Local(_) => "a local array",
            Memory::Constant(_) => "a constant tuple",
        }
    }
}

/// A `@kernel`: a GLCompute entry point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EntryPoint {
    pub name: String,
    /// For a specialization of a generic kernel: the kernel and its types.
    pub specializes: Option<Specialization>,
    pub function: FuncId,
    pub workgroup_size: [u32; 3],
    /// The uniform block (binding 0): the scalar parameters and the launch size.
    pub uniform: UniformLayout,
    /// The kernel's array parameters, in declaration order (bindings 1, 2, …).
    pub arrays: Vec<ArrayId>,
}

/// A generic kernel's specialization: the generic kernel's name, and the type given for
/// each of its generic names, in their order (`("T", "f32")`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Specialization {
    pub kernel: String,
    pub types: Vec<(String, String)>,
}

/// A whole compiled file: every kernel and every function instance they call.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Module {
    pub arrays: IndexVec<ArrayId, GlobalArray>,
    pub functions: IndexVec<FuncId, Function<Ref>>,
    pub entry_points: Vec<EntryPoint>,
    /// Compiled with `--checked`: the module has the error buffer (see [`crate::checks`]).
    pub checked: bool,
    /// The check sites of a checked module, by id.
    pub checks: Vec<crate::checks::CheckSite>,
    /// The print sites, by id (`Op::Print`'s operand).
    pub prints: Vec<crate::prints::PrintSite>,
}

impl Module {
    /// The float arrays held as their bits in words (`u32` for `f32`, `u64` for `f64`): the
    /// `f32` arrays with an `atomic_min`, `atomic_max`, `atomic_exchange` or
    /// `atomic_compare_exchange` (on their vectors too), shared `f32` arrays with any float
    /// atomic, and every `f64` array with an atomic. A device adds `f32`s atomically only in
    /// buffers (`AtomicFloat32AddEXT`), has no portable float min or max and no portable
    /// `f64` atomic at all, so such an atomic is a compare-exchange loop on the bits, and
    /// every other load and store of the array goes through a bitcast. A buffer with `f32`
    /// adds only keeps its `f32`s and the device's add.
    pub fn word_arrays(&self) -> crate::hash::FastSet<ArrayId> {
        let mut out = crate::hash::FastSet::default();
        for inst in self.functions.iter().flat_map(|f| f.insts.iter()) {
            if let (Op::Atomic(op, a), Some(t)) = (inst.op, inst.ty) {
                let shared = !self.arrays[a].is_buffer();
                let loop_op = matches!(
                    op,
                    AtomicOp::Min | AtomicOp::Max | AtomicOp::Exchange | AtomicOp::CompareExchange
                );
                let s = t.scalar();
                if (s == crate::Scalar::F32 && (shared || loop_op)) || s == crate::Scalar::F64 {
                    out.insert(a);
                }
            }
        }
        out
    }

    /// Whether kernel (or func) `f` prints: an `Op::Print` in it or a function it calls.
    pub fn prints(&self, f: FuncId) -> bool {
        self.call_closure(f).iter().any(|&g| {
            self.functions[g]
                .insts
                .iter()
                .any(|i| matches!(i.op, Op::Print(_)))
        })
    }

    /// The kernels' names, in entry-point order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.entry_points.iter().map(|e| e.name.as_str()).collect()
    }

    /// The functions `f` calls, directly or not, `f` included; callees before callers.
    pub fn call_closure(&self, f: FuncId) -> Vec<FuncId> {
        let mut seen = vec![false; self.functions.len()];
        let mut out = Vec::new();
        let mut stack = vec![(f, false)];
        while let Some((g, done)) = stack.pop() {
            if done {
                out.push(g);
                continue;
            }
            if seen[g.index()] {
                continue;
            }
            seen[g.index()] = true;
            stack.push((g, true));
            for inst in &self.functions[g].insts {
                if let Op::Call(h) = inst.op {
                    if !seen[h.index()] {
                        stack.push((h, false));
                    }
                }
            }
        }
        out
    }
}

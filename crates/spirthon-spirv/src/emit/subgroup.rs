//! Subgroup operations: SPIR-V 1.3's `OpGroupNonUniform*` at `Subgroup` scope, and the
//! capabilities a module declares for them (`GroupNonUniform`, then `…Arithmetic`,
//! `…Ballot`, `…Vote`, `…Shuffle` for the kinds it uses). A collective's opcode follows its
//! operand's scalar (`IAdd`/`FAdd`, `SMin`/`UMin`/`FMin`, `Bitwise…`/`Logical…`).

use super::*;
use spirthon_ir::{GroupReduce, GroupScan, SubgroupOp};

/// `Subgroup` scope.
const SCOPE_SUBGROUP: u32 = 3;

/// The capabilities an instruction's subgroup operation or builtin needs (none for others).
pub(super) fn capabilities(op: Op) -> &'static [spirv::Capability] {
    use spirv::Capability as C;
    match op {
        Op::Builtin(Builtin::SubgroupSize | Builtin::SubgroupInvocationId) => &[C::GroupNonUniform],
        Op::Subgroup(SubgroupOp::Collective(..)) => {
            &[C::GroupNonUniform, C::GroupNonUniformArithmetic]
        }
        Op::Subgroup(SubgroupOp::BroadcastFirst | SubgroupOp::Ballot) => {
            &[C::GroupNonUniform, C::GroupNonUniformBallot]
        }
        Op::Subgroup(SubgroupOp::All | SubgroupOp::Any) => {
            &[C::GroupNonUniform, C::GroupNonUniformVote]
        }
        Op::Subgroup(SubgroupOp::Shuffle) => &[C::GroupNonUniform, C::GroupNonUniformShuffle],
        _ => &[],
    }
}

/// Emits subgroup operation `op` (of result type id `rt`) into `id`; `tys` are its operands'
/// types.
///
/// Each operand is first copied (`OpCopyObject`) in the operation's own block: naga's SPIR-V
/// front end (30.0) ends its expression emitter before it looks a subgroup operation's
/// operands up, and panics when one is defined in another block (a loop's value, say),
/// which needs the emitter to spill it; a copy made here is found in the block itself.
pub(super) fn emit(
    e: &mut Emitter,
    op: SubgroupOp,
    tys: &[Ty],
    rt: Word,
    id: Word,
    args: &[Word],
) -> R<()> {
    let s = tys.first().map_or(Scalar::Bool, |t| t.scalar());
    let mut copies = Vec::with_capacity(args.len());
    for (&a, &t) in args.iter().zip(tys) {
        let ty = e.ty(t);
        copies.push(e.b.op(SOp::CopyObject, ty, None, &[a])?);
    }
    let args = &copies[..];
    let scope = e.konst(Const::U32(SCOPE_SUBGROUP));
    let out = Some(id);
    match op {
        SubgroupOp::Collective(r, scan) => {
            let group = match scan {
                GroupScan::Reduce => spirv::GroupOperation::Reduce,
                GroupScan::Inclusive => spirv::GroupOperation::InclusiveScan,
                GroupScan::Exclusive => spirv::GroupOperation::ExclusiveScan,
            } as u32;
            let code = collective_op(r, s)?;
            e.b.op(code, rt, out, &[scope, group, args[0]])?;
        }
        SubgroupOp::BroadcastFirst => {
            e.b.op(
                SOp::GroupNonUniformBroadcastFirst,
                rt,
                out,
                &[scope, args[0]],
            )?;
        }
        SubgroupOp::Shuffle => {
            e.b.op(
                SOp::GroupNonUniformShuffle,
                rt,
                out,
                &[scope, args[0], args[1]],
            )?;
        }
        SubgroupOp::Ballot => {
            e.b.op(SOp::GroupNonUniformBallot, rt, out, &[scope, args[0]])?;
        }
        SubgroupOp::All => {
            e.b.op(SOp::GroupNonUniformAll, rt, out, &[scope, args[0]])?;
        }
        SubgroupOp::Any => {
            e.b.op(SOp::GroupNonUniformAny, rt, out, &[scope, args[0]])?;
        }
    }
    Ok(())
}

/// The opcode of a reduction on scalar `s`.
fn collective_op(r: GroupReduce, s: Scalar) -> R<SOp> {
    let (float, signed, boolean) = (s.is_float(), s.is_signed(), s == Scalar::Bool);
    Ok(match r {
        GroupReduce::Add if float => SOp::GroupNonUniformFAdd,
        GroupReduce::Add => SOp::GroupNonUniformIAdd,
        GroupReduce::Mul if float => SOp::GroupNonUniformFMul,
        GroupReduce::Mul => SOp::GroupNonUniformIMul,
        GroupReduce::Min if float => SOp::GroupNonUniformFMin,
        GroupReduce::Min if signed => SOp::GroupNonUniformSMin,
        GroupReduce::Min => SOp::GroupNonUniformUMin,
        GroupReduce::Max if float => SOp::GroupNonUniformFMax,
        GroupReduce::Max if signed => SOp::GroupNonUniformSMax,
        GroupReduce::Max => SOp::GroupNonUniformUMax,
        GroupReduce::And if boolean => SOp::GroupNonUniformLogicalAnd,
        GroupReduce::And => SOp::GroupNonUniformBitwiseAnd,
        GroupReduce::Or if boolean => SOp::GroupNonUniformLogicalOr,
        GroupReduce::Or => SOp::GroupNonUniformBitwiseOr,
        GroupReduce::Xor if boolean => SOp::GroupNonUniformLogicalXor,
        GroupReduce::Xor => SOp::GroupNonUniformBitwiseXor,
    })
}

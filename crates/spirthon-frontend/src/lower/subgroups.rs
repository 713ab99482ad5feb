//! Subgroup operations (docs/language.md, "Subgroups"): `subgroup_size()`,
//! `subgroup_invocation_id()`, the reductions and scans, broadcasts, shuffles, `ballot`,
//! `all`, `any` and `elect`, each over the subgroup's *active* invocations (those that run
//! it; an invocation that returned is not one).
//!
//! Every read of another invocation's value is defined: `subgroup_shuffle(x, lane)` (and
//! `broadcast`, `shuffle_down`/`up`/`xor`, which compute the lane) gives `x` of that lane
//! when it is in the subgroup and active, else the invocation's own `x`, as CUDA's
//! `__shfl_*_sync` do at the edges. SPIR-V leaves such a read undefined, so the shuffle is
//! followed by a select on `lane < subgroup_size()` and the lane's bit of a ballot of the
//! active invocations.

use super::*;
use spirthon_ir::{GroupReduce, GroupScan, SubgroupOp};

/// What a subgroup function does with its value operand.
#[derive(Copy, Clone)]
enum Kind {
    Collective(GroupReduce, GroupScan),
    BroadcastFirst,
    /// The lane to read: given (`shuffle`, `broadcast`), `id + d`, `id - d`, `id ^ m`.
    Shuffle(Lane),
}

#[derive(Copy, Clone, PartialEq)]
enum Lane {
    Given,
    Down,
    Up,
    Xor,
}

/// Whether `item` is a subgroup function.
pub(super) fn is_subgroup(item: &str) -> bool {
    item.starts_with("subgroup_")
}

impl Lower<'_, '_> {
    pub(super) fn subgroup_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        let want = match item {
            "subgroup_size" | "subgroup_invocation_id" | "subgroup_elect" => 0,
            "subgroup_broadcast"
            | "subgroup_shuffle"
            | "subgroup_shuffle_down"
            | "subgroup_shuffle_up"
            | "subgroup_shuffle_xor" => 2,
            _ => 1,
        };
        if !self.arity(item, args, want, span) {
            return Ex::Err;
        }
        let kind = match item {
            "subgroup_size" => return self.subgroup_builtin(Builtin::SubgroupSize, span),
            "subgroup_invocation_id" => {
                return self.subgroup_builtin(Builtin::SubgroupInvocationId, span)
            }
            "subgroup_elect" => {
                // The lowest active invocation: the one whose index the first one
                // broadcasts (its index in the workgroup, unique there, and valid in a
                // workgroup of any shape, as its index in the subgroup is not: naga).
                let id = self.val(Op::Builtin(Builtin::LocalIndex), Ty::I32, [], span);
                let first = self.val(
                    Op::Subgroup(SubgroupOp::BroadcastFirst),
                    Ty::I32,
                    [id],
                    span,
                );
                let o = self.val(Op::Cmp(CmpOp::Eq), Ty::BOOL, [id, first], span);
                return Ex::Val(o, Ty::BOOL);
            }
            "subgroup_ballot" | "subgroup_all" | "subgroup_any" => {
                return self.subgroup_vote(item, args[0], span)
            }
            "subgroup_broadcast_first" => Kind::BroadcastFirst,
            "subgroup_broadcast" | "subgroup_shuffle" => Kind::Shuffle(Lane::Given),
            "subgroup_shuffle_down" => Kind::Shuffle(Lane::Down),
            "subgroup_shuffle_up" => Kind::Shuffle(Lane::Up),
            "subgroup_shuffle_xor" => Kind::Shuffle(Lane::Xor),
            _ => match collective(item) {
                Some((r, scan)) => Kind::Collective(r, scan),
                None => {
                    self.error(span, format!("unknown subgroup function `{item}`"));
                    return Ex::Err;
                }
            },
        };
        let sp = self.ast.expr(args[0]).span;
        let x = self.expr(args[0]);
        let Some((x, t)) = self.value(x, sp) else {
            if let Some(&a) = args.get(1) {
                self.expr(a);
            }
            return Ex::Err;
        };
        if !self.subgroup_operand(item, kind, t, sp) {
            return Ex::Err;
        }
        match kind {
            Kind::Collective(r, scan) => {
                let o = self.val(Op::Subgroup(SubgroupOp::Collective(r, scan)), t, [x], span);
                Ex::Val(o, t)
            }
            Kind::BroadcastFirst => {
                let o = self.val(Op::Subgroup(SubgroupOp::BroadcastFirst), t, [x], span);
                Ex::Val(o, t)
            }
            Kind::Shuffle(lane) => {
                let what = format!("the lane of `{item}` (an `i32` or a `u32`)");
                let Some(k) = self.int_bits(args[1], &what) else {
                    return Ex::Err;
                };
                Ex::Val(self.shuffle(x, t, k, lane, span), t)
            }
        }
    }

    fn subgroup_builtin(&mut self, b: Builtin, span: Span) -> Ex {
        Ex::Val(self.val(Op::Builtin(b), Ty::I32, [], span), Ty::I32)
    }

    /// `subgroup_ballot(p)` (a `uvec4`), `subgroup_all(p)`, `subgroup_any(p)` of a `bool`.
    fn subgroup_vote(&mut self, item: &str, a: ExprId, span: Span) -> Ex {
        let sp = self.ast.expr(a).span;
        let ex = self.expr(a);
        let what = format!("the condition of `{item}`");
        let Some(p) = self.coerce(ex, Ty::BOOL, sp, &what) else {
            return Ex::Err;
        };
        let (op, t) = match item {
            "subgroup_ballot" => (SubgroupOp::Ballot, Ty::Vector(Scalar::U32, 4)),
            "subgroup_all" => (SubgroupOp::All, Ty::BOOL),
            _ => (SubgroupOp::Any, Ty::BOOL),
        };
        Ex::Val(self.val(Op::Subgroup(op), t, [p], span), t)
    }

    /// Whether a value of type `t` is what `item` takes (an error at `sp` otherwise).
    fn subgroup_operand(&mut self, item: &str, kind: Kind, t: Ty, sp: Span) -> bool {
        let s = t.scalar();
        let shape_ok = matches!(t, Ty::Scalar(_) | Ty::Vector(_, 2..=4));
        let (ok, takes) = match kind {
            Kind::Collective(GroupReduce::And | GroupReduce::Or | GroupReduce::Xor, _) => (
                matches!(s, Scalar::I32 | Scalar::U32 | Scalar::Bool),
                "an `i32`, a `u32` or a `bool` (or a vector of them)",
            ),
            Kind::Collective(..) => (
                matches!(s, Scalar::I32 | Scalar::U32 | Scalar::F32),
                "an `i32`, a `u32` or an `f32` (or a vector of them)",
            ),
            _ => (
                matches!(s, Scalar::I32 | Scalar::U32 | Scalar::F32 | Scalar::Bool)
                    && !(s == Scalar::Bool && matches!(t, Ty::Vector(..))),
                "an `i32`, a `u32`, an `f32` (or a vector of them) or a `bool`",
            ),
        };
        if ok && shape_ok {
            return true;
        }
        self.cx.diags.push(
            Diagnostic::error(
                sp,
                format!("`{item}` takes {takes}, not {}", t.with_article()),
            )
            .with_note("subgroup operations work on 32-bit values in this version"),
        );
        false
    }

    /// `x` of the lane `k` gives (see the module docs), or the invocation's own `x` when that
    /// lane is past the subgroup or inactive.
    fn shuffle(&mut self, x: Operand, t: Ty, k: Operand, lane: Lane, span: Span) -> Operand {
        let u = |l: &mut Self, op: BinOp, a: Operand, b: Operand| {
            l.val(Op::Binary(op), Ty::U32, [a, b], span)
        };
        // The invocation's own lane, only where the lane is computed from it (a given lane
        // needs none, so `subgroup_shuffle` and `broadcast` work in any workgroup's shape).
        let from_own = match lane {
            Lane::Given => None,
            Lane::Down => Some(BinOp::Add),
            Lane::Up => Some(BinOp::Sub),
            Lane::Xor => Some(BinOp::BitXor),
        };
        let src = match from_own {
            None => k,
            Some(op) => {
                let id = self.val(
                    Op::Builtin(Builtin::SubgroupInvocationId),
                    Ty::I32,
                    [],
                    span,
                );
                let id = self.val(Op::Bitcast, Ty::U32, [id], span);
                u(self, op, id, k)
            }
        };
        let size = self.val(Op::Builtin(Builtin::SubgroupSize), Ty::I32, [], span);
        let size = self.val(Op::Bitcast, Ty::U32, [size], span);
        let in_range = self.val(Op::Cmp(CmpOp::Lt), Ty::BOOL, [src, size], span);
        // The lane's bit in a ballot of the active invocations (its word clamped to the
        // ballot's four: a lane past them is out of range anyway).
        let yes = self.konst(Const::Bool(true));
        let uv4 = Ty::Vector(Scalar::U32, 4);
        let active = self.val(Op::Subgroup(SubgroupOp::Ballot), uv4, [yes], span);
        let (k5, k3, k31, one, zero) = (
            self.konst(Const::U32(5)),
            self.konst(Const::U32(3)),
            self.konst(Const::U32(31)),
            self.konst(Const::U32(1)),
            self.konst(Const::U32(0)),
        );
        let word = u(self, BinOp::Shr, src, k5);
        let word = self.val(Op::Math(MathFn::Min), Ty::U32, [word, k3], span);
        let word = self.val(Op::Bitcast, Ty::I32, [word], span);
        let bits = self.val(Op::ExtractAt, Ty::U32, [active, word], span);
        let shift = u(self, BinOp::BitAnd, src, k31);
        let bit = u(self, BinOp::Shr, bits, shift);
        let bit = u(self, BinOp::BitAnd, bit, one);
        let set = self.val(Op::Cmp(CmpOp::Ne), Ty::BOOL, [bit, zero], span);
        let valid = self.val(Op::Binary(BinOp::And), Ty::BOOL, [in_range, set], span);
        let got = self.val(Op::Subgroup(SubgroupOp::Shuffle), t, [x, src], span);
        self.val(Op::Select, t, [valid, got, x], span)
    }
}

/// The reduction or scan a function names.
fn collective(item: &str) -> Option<(GroupReduce, GroupScan)> {
    let rest = item.strip_prefix("subgroup_")?;
    let (scan, op) = if let Some(op) = rest.strip_prefix("inclusive_") {
        (GroupScan::Inclusive, op)
    } else if let Some(op) = rest.strip_prefix("exclusive_") {
        (GroupScan::Exclusive, op)
    } else {
        (GroupScan::Reduce, rest)
    };
    let r = match op {
        "add" => GroupReduce::Add,
        "mul" => GroupReduce::Mul,
        "min" if scan == GroupScan::Reduce => GroupReduce::Min,
        "max" if scan == GroupScan::Reduce => GroupReduce::Max,
        "and" if scan == GroupScan::Reduce => GroupReduce::And,
        "or" if scan == GroupScan::Reduce => GroupReduce::Or,
        "xor" if scan == GroupScan::Reduce => GroupReduce::Xor,
        _ => return None,
    };
    Some((r, scan))
}

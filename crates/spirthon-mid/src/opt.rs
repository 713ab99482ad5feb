//! Constant folding and dead-code removal on SSA form, in the manner of the sparse
//! conditional constant propagation and dead-code elimination of Wegman and Zadeck (1991),
//! restricted to what a kernel needs: one pass in block order (definitions before uses
//! outside loop back edges); then dominator-scoped value numbering (Briggs, Cooper and
//! Simpson 1997) merges repeated pure computations; then a mark-and-sweep from the
//! instructions with effects removes what nothing needs.
//!
//! Folding follows the device's semantics exactly: 32-bit wrapping integers, `f32` floats,
//! Python's `//` and `%`. Integer division by a constant zero is left for run time, and so
//! are the transcendental functions (the device's precision is not the host's).
//!
//! What it does not do: it does not fold branches on constants (the structure lowering
//! recorded is kept as it is), hoist code, or remove stores.

use spirthon_ir::cfg::*;
use spirthon_ir::pyarith;
use spirthon_ir::types::{Const, Scalar, Ty};
use spirthon_ssa::DomTree;

/// Folds constants, merges repeated pure computations, then removes instructions and phis
/// whose results nothing needs. `dom` is `f`'s dominator tree (the passes keep the CFG);
/// `pure[g]` says whether function `g` is pure ([`pure_functions`]; missing entries are not):
/// calls of a pure function are merged and removed like arithmetic.
pub fn optimize(f: &mut Function<Ref>, dom: &DomTree, pure: &[bool]) {
    fold(f);
    value_number(f, dom, pure);
    remove_dead(f, pure);
}

/// Which functions compute their result from their arguments alone: no array loads or
/// stores, atomics, barriers or checked-mode failures, and calls only of such functions
/// (the call graph is acyclic: recursion is an error). Two calls of one with the same
/// arguments give one value within an invocation, and a call whose result nothing needs does
/// nothing. Computed as a greatest fixed point, so a function is pure until shown otherwise.
pub fn pure_functions(functions: &[Function<Ref>]) -> Vec<bool> {
    let mut pure = vec![true; functions.len()];
    loop {
        let mut changed = false;
        for (g, f) in functions.iter().enumerate() {
            if pure[g] && !body_is_pure(f, &pure) {
                pure[g] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

fn body_is_pure(f: &Function<Ref>, pure: &[bool]) -> bool {
    f.blocks
        .iter_enumerated()
        .filter(|(b, _)| f.reachable[*b])
        .flat_map(|(_, block)| block.insts.iter())
        .all(|&v| match f.insts[v].op {
            Op::Call(g) => pure_call(g, pure),
            op => !op.has_effect() && !matches!(op, Op::Load(_) | Op::LoadField(..) | Op::Failed),
        })
}

fn pure_call(g: FuncId, pure: &[bool]) -> bool {
    pure.get(g.index()).copied().unwrap_or(false)
}

/// Whether two instructions with the same operation, type and operands always give the same
/// value within one invocation (loads may see stores in between; calls and stores act;
/// whether the invocation failed changes at a call).
fn is_pure(op: Op) -> bool {
    !op.has_effect()
        && !matches!(
            op,
            Op::Load(_) | Op::LoadField(..) | Op::Const(_) | Op::Failed
        )
}

/// What makes two pure instructions equal: operation, type and (up to three) operands.
type Key = (Op, Option<Ty>, [Option<Ref>; 3]);

/// Dominator-scoped value numbering (Briggs, Cooper and Simpson 1997): an instruction equal to
/// one in a dominating block (or earlier in its own) is replaced by it. The dominator tree is
/// walked with an explicit stack; the table is scoped with an undo log.
fn value_number(f: &mut Function<Ref>, dom: &DomTree, pure: &[bool]) {
    let mut repl: Vec<Option<Ref>> = vec![None; f.insts.len()];
    let mut table: spirthon_ir::hash::FastMap<Key, Value> = Default::default();
    // Calls of pure functions, by callee and arguments (any number of them).
    let mut calls: spirthon_ir::hash::FastMap<(FuncId, Args<Ref>), Value> = Default::default();
    // (block, entering?) and the undo logs' lengths when the block was entered.
    let mut stack = vec![(Block::new(0), true)];
    let mut marks: Vec<(usize, usize)> = Vec::new();
    let mut undo: Vec<Key> = Vec::new();
    let mut call_undo: Vec<(FuncId, Args<Ref>)> = Vec::new();
    while let Some((b, entering)) = stack.pop() {
        if !entering {
            let (mark, call_mark) = marks.pop().unwrap_or((0, 0));
            for key in undo.drain(mark..) {
                table.remove(&key);
            }
            for key in call_undo.drain(call_mark..) {
                calls.remove(&key);
            }
            continue;
        }
        marks.push((undo.len(), call_undo.len()));
        stack.push((b, false));
        // The block's instructions compacted in place: `kept` of them stay.
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        let mut kept = 0;
        for k in 0..insts.len() {
            let v = insts[k];
            let inst = &mut f.insts[v];
            for a in &mut inst.args {
                if let Ref::Inst(x) = *a {
                    if let Some(r) = repl[x.index()] {
                        *a = r;
                    }
                }
            }
            if is_pure(inst.op) && inst.args.len() <= 3 {
                let mut args = [None; 3];
                for (slot, &a) in args.iter_mut().zip(&inst.args) {
                    *slot = Some(a);
                }
                let key = (inst.op, inst.ty, args);
                if let Some(&first) = table.get(&key) {
                    repl[v.index()] = Some(Ref::Inst(first));
                    continue;
                }
                table.insert(key, v);
                undo.push(key);
            } else if let Op::Call(g) = inst.op {
                if inst.ty.is_some() && pure_call(g, pure) {
                    let key = (g, inst.args.clone());
                    if let Some(&first) = calls.get(&key) {
                        repl[v.index()] = Some(Ref::Inst(first));
                        continue;
                    }
                    calls.insert(key.clone(), v);
                    call_undo.push(key);
                }
            }
            insts[kept] = v;
            kept += 1;
        }
        insts.truncate(kept);
        f.blocks[b].insts = insts;
        for &c in dom.children(b) {
            stack.push((c, true));
        }
    }
    let s = |r: Ref| match r {
        Ref::Inst(x) => repl[x.index()].unwrap_or(r),
        _ => r,
    };
    for p in &mut f.phis {
        for a in &mut p.args {
            a.1 = s(a.1);
        }
    }
    for block in &mut f.blocks {
        substitute_term(&mut block.term, s);
    }
    for inst in &mut f.insts {
        for a in &mut inst.args {
            *a = s(*a);
        }
    }
}

fn fold(f: &mut Function<Ref>) {
    let mut phi_repl: Vec<Option<Ref>> = vec![None; f.phis.len()];
    // A component extracted from a vector built in place is the component it was built from.
    let mut inst_repl: Vec<Option<Ref>> = vec![None; f.insts.len()];
    let order = f.order.clone();
    let subst = |r: Ref, phi_repl: &[Option<Ref>], inst_repl: &[Option<Ref>]| match r {
        Ref::Phi(p) => phi_repl[p.index()].unwrap_or(r),
        Ref::Inst(v) => inst_repl.get(v.index()).copied().flatten().unwrap_or(r),
        _ => r,
    };
    let block_phis = f.phis_by_block();
    for b in order {
        if !f.reachable[b] {
            continue;
        }
        for &p in &block_phis[b.index()] {
            let args: Args<Ref> = f.phis[p]
                .args
                .iter()
                .map(|&(_, r)| subst(r, &phi_repl, &inst_repl))
                .collect();
            let mut same: Option<Const> = None;
            let all_const = args.iter().all(|&r| match f.as_const(r) {
                Some(c) => *same.get_or_insert(c) == c,
                None => false,
            });
            if all_const && !args.is_empty() {
                phi_repl[p.index()] = Some(args[0]);
            }
        }
        for k in 0..f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[k];
            for a in &mut f.insts[v].args {
                *a = subst(*a, &phi_repl, &inst_repl);
            }
            let args = f.insts[v].args.clone();
            if let (Op::Extract(i), Some(Ref::Inst(src))) = (f.insts[v].op, args.first()) {
                let built = &f.insts[*src];
                if built.op == Op::Construct {
                    inst_repl[v.index()] = built.args.get(i as usize).copied();
                    continue;
                }
            }
            if let Some(c) = fold_inst(f, v, &args) {
                let inst = &mut f.insts[v];
                inst.op = Op::Const(c);
                inst.args.clear();
            } else {
                reduce_power_of_two(f, v);
            }
        }
        substitute_term(&mut f.blocks[b].term, |r| subst(r, &phi_repl, &inst_repl));
    }
    for p in &mut f.phis {
        for a in &mut p.args {
            a.1 = subst(a.1, &phi_repl, &inst_repl);
        }
    }
    for (p, r) in phi_repl.iter().enumerate() {
        if r.is_some() {
            f.phis[Phi::new(p)].live = false;
        }
    }
}

fn substitute_term(t: &mut Term<Ref>, s: impl Fn(Ref) -> Ref) {
    match t {
        Term::Branch(c, ..) | Term::Switch(c, ..) => *c = s(*c),
        Term::Return(Some(r)) => *r = s(*r),
        _ => {}
    }
}

/// Python's `x // 2**k` is `x >> k` and `x % 2**k` is `x & (2**k - 1)` for every integer,
/// negative ones included (two's complement, arithmetic shift): rewrite them so, cheaper than
/// a division with its sign fix-up.
fn reduce_power_of_two(f: &mut Function<Ref>, v: Value) {
    let inst = &f.insts[v];
    let (Op::Binary(op @ (BinOp::FloorDiv | BinOp::Mod)), Some(divisor)) =
        (inst.op, inst.args.get(1).and_then(|&r| f.as_const(r)))
    else {
        return;
    };
    let floor = op == BinOp::FloorDiv;
    let operand = match divisor {
        Const::I32(d) if d > 1 && (d as u32).is_power_of_two() => Const::I32(if floor {
            d.trailing_zeros() as i32
        } else {
            d - 1
        }),
        Const::U32(d) if d > 1 && d.is_power_of_two() => {
            Const::U32(if floor { d.trailing_zeros() } else { d - 1 })
        }
        _ => return,
    };
    // A new constant: constants sit in no block (the backend emits them at module level).
    let c = Value::new(f.insts.len());
    f.insts.push(Inst {
        op: Op::Const(operand),
        ty: Some(operand.ty()),
        args: Args::new(),
        span: Default::default(),
        var: None,
    });
    let inst = &mut f.insts[v];
    inst.op = Op::Binary(if op == BinOp::FloorDiv {
        BinOp::Shr
    } else {
        BinOp::BitAnd
    });
    inst.args[1] = Ref::Inst(c);
}

fn fold_inst(f: &Function<Ref>, v: Value, args: &[Ref]) -> Option<Const> {
    let inst = &f.insts[v];
    let ty = inst.ty?;
    if let Op::Select = inst.op {
        // Only when both sides are constants: a select on a constant picks an operand that
        // may be anything, which a client would have to substitute; keep it simple.
        let (c, a, b) = (
            f.as_const(args[0])?,
            f.as_const(args[1])?,
            f.as_const(args[2])?,
        );
        return Some(if c == Const::Bool(true) { a } else { b });
    }
    let consts: Option<Vec<Const>> = args.iter().map(|&r| f.as_const(r)).collect();
    let consts = consts?;
    match inst.op {
        Op::Unary(op) => unary(op, consts[0]),
        Op::Binary(op) => binary(op, consts[0], consts[1]),
        Op::Cmp(op) => compare(op, consts[0], consts[1]).map(Const::Bool),
        Op::Convert => convert(consts[0], ty),
        Op::Math(m) => math(m, &consts),
        _ => None,
    }
}

fn unary(op: UnOp, a: Const) -> Option<Const> {
    Some(match (op, a) {
        (UnOp::Neg, Const::I32(x)) => Const::I32(x.wrapping_neg()),
        (UnOp::Neg, Const::U32(x)) => Const::U32(x.wrapping_neg()),
        (UnOp::Neg, Const::F32(_)) => Const::f32(-a.as_f32()?),
        (UnOp::Neg, Const::F64(x)) => Const::f64(-f64::from_bits(x)),
        (UnOp::Not, Const::Bool(b)) => Const::Bool(!b),
        (UnOp::BitNot, Const::I32(x)) => Const::I32(!x),
        (UnOp::BitNot, Const::U32(x)) => Const::U32(!x),
        _ => return None,
    })
}

fn binary(op: BinOp, a: Const, b: Const) -> Option<Const> {
    use BinOp::*;
    Some(match (a, b) {
        (Const::I32(x), Const::I32(y)) => Const::I32(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            FloorDiv => pyarith::floor_div(x, y)?,
            Mod => pyarith::modulo(x, y)?,
            BitAnd => x & y,
            BitOr => x | y,
            BitXor => x ^ y,
            // Python's shifts, wrapped: a count of 32 or more leaves 0, or the sign.
            Shl if y >= 0 => x.checked_shl(y as u32).unwrap_or(0),
            Shr if y >= 0 => x >> y.min(31),
            _ => return None,
        }),
        (Const::U32(x), Const::U32(y)) => Const::U32(match op {
            Add => x.wrapping_add(y),
            Sub => x.wrapping_sub(y),
            Mul => x.wrapping_mul(y),
            FloorDiv => x.checked_div(y)?,
            Mod => x.checked_rem(y)?,
            BitAnd => x & y,
            BitOr => x | y,
            BitXor => x ^ y,
            Shl => x.checked_shl(y).unwrap_or(0),
            Shr => x.checked_shr(y).unwrap_or(0),
            _ => return None,
        }),
        (Const::F32(_), Const::F32(_)) => {
            let (x, y) = (a.as_f32()?, b.as_f32()?);
            Const::f32(match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div if y != 0.0 => x / y,
                FloorDiv if y != 0.0 => pyarith::float_floor_div(x, y),
                Mod if y != 0.0 => pyarith::float_mod(x, y),
                _ => return None,
            })
        }
        // `+ - *` round once in `f64` on every device (and `NoContraction` keeps them apart).
        (Const::F64(x), Const::F64(y)) => {
            let (x, y) = (f64::from_bits(x), f64::from_bits(y));
            Const::f64(match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                _ => return None,
            })
        }
        (Const::Bool(x), Const::Bool(y)) => Const::Bool(match op {
            And | BitAnd => x & y,
            Or | BitOr => x | y,
            BitXor => x ^ y,
            _ => return None,
        }),
        _ => return None,
    })
}

fn compare(op: CmpOp, a: Const, b: Const) -> Option<bool> {
    use core::cmp::Ordering;
    let ord: Option<Ordering> = match (a, b) {
        (Const::I32(x), Const::I32(y)) => Some(x.cmp(&y)),
        (Const::U32(x), Const::U32(y)) => Some(x.cmp(&y)),
        (Const::F32(_), Const::F32(_)) => a.as_f32()?.partial_cmp(&b.as_f32()?),
        (Const::F64(_), Const::F64(_)) => a.as_float()?.partial_cmp(&b.as_float()?),
        (Const::Bool(x), Const::Bool(y)) => Some(x.cmp(&y)),
        _ => return None,
    };
    Some(op.holds(ord))
}

/// `x` truncated toward zero, modulo 2^32; `None` for NaN and infinities.
fn wrap_float(x: f32) -> Option<u32> {
    if !x.is_finite() {
        return None;
    }
    Some(f64::from(x).trunc().rem_euclid(4_294_967_296.0) as u32)
}

fn convert(a: Const, to: Ty) -> Option<Const> {
    let to = to.as_scalar()?;
    Some(match (a, to) {
        (_, _) if a.ty() == Ty::Scalar(to) => a,
        (Const::I32(x), Scalar::U32) => Const::U32(x as u32),
        (Const::U32(x), Scalar::I32) => Const::I32(x as i32),
        (Const::I32(x), Scalar::F32) => Const::f32(x as f32),
        (Const::U32(x), Scalar::F32) => Const::f32(x as f32),
        // Exact: every i32, u32 and f32 is an f64.
        (Const::I32(x), Scalar::F64) => Const::f64(x.into()),
        (Const::U32(x), Scalar::F64) => Const::f64(x.into()),
        (Const::F32(_), Scalar::F64) => Const::f64(a.as_float()?),
        // Truncated, then wrapped to 32 bits as the kernel's ints are (`int(1e10)` is
        // 1410065408); NaN and infinities are left to the device.
        (Const::F32(_), Scalar::I32) => Const::I32(wrap_float(a.as_f32()?)? as i32),
        (Const::F32(_), Scalar::U32) => Const::U32(wrap_float(a.as_f32()?)?),
        (Const::Bool(b), Scalar::I32) => Const::I32(b as i32),
        (Const::Bool(b), Scalar::U32) => Const::U32(b as u32),
        (Const::Bool(b), Scalar::F32) => Const::f32(b as u8 as f32),
        (Const::I32(x), Scalar::Bool) => Const::Bool(x != 0),
        (Const::U32(x), Scalar::Bool) => Const::Bool(x != 0),
        (Const::F32(_), Scalar::Bool) => Const::Bool(a.as_f32()? != 0.0),
        _ => return None,
    })
}

fn math(m: MathFn, c: &[Const]) -> Option<Const> {
    use MathFn::*;
    if let (Abs | Min | Max, Const::I32(x)) = (m, c[0]) {
        return Some(Const::I32(match (m, c.get(1)) {
            (Abs, _) => x.wrapping_abs(),
            (Min, Some(Const::I32(y))) => x.min(*y),
            (Max, Some(Const::I32(y))) => x.max(*y),
            _ => return None,
        }));
    }
    if let (Min | Max, Const::U32(x), Some(Const::U32(y))) = (m, c[0], c.get(1)) {
        return Some(Const::U32(if m == Min { x.min(*y) } else { x.max(*y) }));
    }
    let x = c[0].as_f32()?;
    let y = match c.get(1) {
        Some(c) => Some(c.as_f32()?),
        None => None,
    };
    let fold = spirthon_ir::library::of(m)?.device?;
    Some(Const::f32(fold(x, y.unwrap_or(0.0))?))
}

fn remove_dead(f: &mut Function<Ref>, pure: &[bool]) {
    let mut live_inst = vec![false; f.insts.len()];
    let mut live_phi = vec![false; f.phis.len()];
    let mut work: Vec<Ref> = Vec::new();
    for (b, block) in f.blocks.iter_enumerated() {
        if !f.reachable[b] {
            continue;
        }
        for &v in &block.insts {
            match f.insts[v].op {
                Op::Call(g) if pure_call(g, pure) => {}
                op if op.has_effect() => work.push(Ref::Inst(v)),
                _ => {}
            }
        }
        match block.term {
            Term::Branch(c, ..) | Term::Switch(c, ..) => work.push(c),
            Term::Return(Some(r)) => work.push(r),
            _ => {}
        }
    }
    while let Some(r) = work.pop() {
        match r {
            Ref::Inst(v) if !live_inst[v.index()] => {
                live_inst[v.index()] = true;
                work.extend(f.insts[v].args.iter().copied());
            }
            Ref::Phi(p) if !live_phi[p.index()] => {
                live_phi[p.index()] = true;
                work.extend(f.phis[p].args.iter().map(|a| a.1));
            }
            _ => {}
        }
    }
    for block in &mut f.blocks {
        block.insts.retain(|v| live_inst[v.index()]);
    }
    for (p, phi) in f.phis.iter_mut().enumerate() {
        phi.live &= live_phi[p];
    }
}

#[cfg(test)]
mod tests;

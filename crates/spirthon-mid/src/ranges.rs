//! Bounds-check elimination for checked mode: integer value ranges, and the checks they
//! prove.
//!
//! An interval analysis (Cousot and Cousot 1977, with widening at loop phis and one narrowing
//! pass) over the SSA form computes, for every `i32` / `u32` value, bounds that hold in every
//! execution. A branch's condition refines its operands in the blocks that only the branch's
//! edge reaches (`k < 8` holds in the body of `for k in range(8)`), as in the ABCD family of
//! bounds-check eliminations (Bodík, Gupta and Sarkar 2000), restricted to intervals. Facts
//! that start it: constants, `local_id()` below the workgroup size (at most 1024 invocations
//! in any kernel), ids and lengths non-negative.
//!
//! A check (a block ending in `Branch(ok, rest, fail)` whose `fail` block starts with
//! `Op::Fail`) whose `ok` is a comparison `index < len` (or an `and` of them, one per axis)
//! proven true becomes a jump to `rest`, and the failing block becomes unreachable.
//!
//! Invariant: an interval never claims more than the analysis proved; an arithmetic result
//! that could leave its type's range (and wrap) is the whole type. Only checked modules run
//! this pass, so unchecked modules are unchanged by it.

use spirthon_ir::cfg::*;
use spirthon_ir::types::{Const, Scalar, Ty};
use spirthon_ssa::DomTree;

/// Inclusive bounds; empty when `lo > hi` (a value not computed yet).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Iv {
    lo: i64,
    hi: i64,
}

const EMPTY: Iv = Iv { lo: 1, hi: 0 };

impl Iv {
    fn point(v: i64) -> Iv {
        Iv { lo: v, hi: v }
    }
    fn is_empty(self) -> bool {
        self.lo > self.hi
    }
    fn union(self, o: Iv) -> Iv {
        match (self.is_empty(), o.is_empty()) {
            (true, _) => o,
            (_, true) => self,
            _ => Iv {
                lo: self.lo.min(o.lo),
                hi: self.hi.max(o.hi),
            },
        }
    }
}

/// The range of every value of type `t` (booleans and floats are not tracked).
fn full(t: Ty) -> Option<Iv> {
    match t {
        Ty::Scalar(Scalar::I32) => Some(Iv {
            lo: i32::MIN as i64,
            hi: i32::MAX as i64,
        }),
        Ty::Scalar(Scalar::U32) => Some(Iv {
            lo: 0,
            hi: u32::MAX as i64,
        }),
        _ => None,
    }
}

/// `iv` if it fits type `t` (so the operation did not wrap), else all of `t`.
fn fit(iv: Iv, t: Ty) -> Iv {
    let Some(f) = full(t) else { return EMPTY };
    if iv.is_empty() || (iv.lo >= f.lo && iv.hi <= f.hi) {
        iv
    } else {
        f
    }
}

/// A fact that holds in a block: `x op y` for integer values.
type Fact = (CmpOp, Ref, Ref);

/// How many dominators with facts refine a value, among how many nearest dominators (a
/// loop counter's bound is some levels up; every check before it in the loop adds one).
const FACT_DEPTH: usize = 64;
const WALK_DEPTH: usize = 512;

/// Fixpoint rounds before the analysis gives up (and proves nothing).
const MAX_ROUNDS: usize = 12;

struct Ranges<'f> {
    f: &'f Function<Ref>,
    insts: Vec<Iv>,
    phis: Vec<Iv>,
    /// Per block, the facts of the branch edge that is the only way into it.
    facts: Vec<Vec<Fact>>,
    /// Per block, its immediate dominator (`None` at the entry).
    idom: Vec<Option<Block>>,
    /// Per block, its phis.
    block_phis: Vec<Vec<Phi>>,
    /// Invocations per workgroup along each axis, in a kernel.
    group: Option<[u32; 3]>,
}

/// Removes the checks of `f` that the ranges prove; how many.
pub fn prune_checks(f: &mut Function<Ref>, dom: &DomTree, group: Option<[u32; 3]>) -> usize {
    let proven = {
        let mut r = Ranges::new(f, dom, group);
        if !r.solve() {
            return 0;
        }
        r.proven_checks()
    };
    for &(b, rest, fail) in &proven {
        f.blocks[b].term = Term::Jump(rest);
        f.blocks[b].merge = Merge::None;
        f.reachable[fail] = false;
    }
    proven.len()
}

impl<'f> Ranges<'f> {
    fn new(f: &'f Function<Ref>, dom: &DomTree, group: Option<[u32; 3]>) -> Self {
        let mut r = Ranges {
            f,
            insts: vec![EMPTY; f.insts.len()],
            phis: vec![EMPTY; f.phis.len()],
            facts: vec![Vec::new(); f.blocks.len()],
            idom: vec![None; f.blocks.len()],
            block_phis: f.phis_by_block(),
            group,
        };
        r.collect_facts(dom);
        r
    }

    /// The facts of each reachable block's own way in: the condition of the branch that is
    /// the only way into it, when there is one. A block's facts are its own and those of its
    /// dominators (the nearest [`FACT_DEPTH`] with facts, which bounds the work on long `elif`
    /// chains).
    fn collect_facts(&mut self, dom: &DomTree) {
        let f = self.f;
        let mut preds: Vec<Vec<Block>> = vec![Vec::new(); f.blocks.len()];
        for &b in &f.order {
            if f.reachable[b] {
                for s in f.blocks[b].term.successors() {
                    preds[s.index()].push(b);
                }
            }
        }
        for &b in dom.rpo() {
            self.idom[b.index()] = dom.idom(b).filter(|&d| d != b);
            let mut facts = Vec::new();
            if let [p] = preds[b.index()][..] {
                if let Term::Branch(c, t, e) = f.blocks[p].term {
                    if t != e {
                        self.condition(c, b == t, &mut facts);
                    }
                }
            }
            self.facts[b.index()] = facts;
        }
    }

    /// The facts `c == holds` gives (comparisons of integers, and `and` when true).
    fn condition(&self, c: Ref, holds: bool, out: &mut Vec<Fact>) {
        let Ref::Inst(v) = c else { return };
        let inst = &self.f.insts[v];
        match inst.op {
            Op::Cmp(op) if full(self.f.ty_of(inst.args[0])).is_some() => {
                let op = if holds { op } else { negate(op) };
                out.push((op, inst.args[0], inst.args[1]));
            }
            Op::Binary(BinOp::And) if holds => {
                self.condition(inst.args[0], true, out);
                self.condition(inst.args[1], true, out);
            }
            Op::Unary(UnOp::Not) => self.condition(inst.args[0], !holds, out),
            _ => {}
        }
    }

    /// Iterates to a fixpoint (widening growing loop phis), then narrows once. `false` when
    /// it did not settle (nothing is then proven).
    fn solve(&mut self) -> bool {
        for round in 0..MAX_ROUNDS {
            if !self.pass(round >= 2) {
                self.pass_narrowing();
                return true;
            }
        }
        false
    }

    /// One pass over the function in block order; whether anything changed.
    fn pass(&mut self, widen: bool) -> bool {
        let f = self.f;
        let mut changed = false;
        for &b in &f.order {
            if !f.reachable[b] {
                continue;
            }
            for &p in &self.block_phis[b.index()] {
                let phi = &f.phis[p];
                if !phi.live {
                    continue;
                }
                let p = p.index();
                let new = self.phi_range(phi);
                let old = self.phis[p];
                let next = if widen && !old.is_empty() {
                    widened(old, new.union(old), phi.ty)
                } else {
                    new.union(old)
                };
                if next != old {
                    self.phis[p] = next;
                    changed = true;
                }
            }
            for &v in &f.blocks[b].insts {
                let new = self.transfer(v, b);
                if new != self.insts[v.index()] {
                    self.insts[v.index()] = new;
                    changed = true;
                }
            }
        }
        changed
    }

    /// One descending pass: phis recomputed from their inputs without widening.
    fn pass_narrowing(&mut self) {
        let f = self.f;
        for &b in &f.order {
            if !f.reachable[b] {
                continue;
            }
            for &p in &self.block_phis[b.index()] {
                if f.phis[p].live {
                    self.phis[p.index()] = self.phi_range(&f.phis[p]);
                }
            }
            for &v in &f.blocks[b].insts {
                self.insts[v.index()] = self.transfer(v, b);
            }
        }
    }

    fn phi_range(&self, phi: &PhiData) -> Iv {
        phi.args
            .iter()
            .fold(EMPTY, |acc, &(pred, r)| acc.union(self.at(r, pred)))
    }

    /// The range of `r` as seen in block `b` (refined by `b`'s facts).
    fn at(&self, r: Ref, b: Block) -> Iv {
        let t = self.f.ty_of(r);
        let Some(whole) = full(t) else { return EMPTY };
        let mut iv = match r {
            Ref::Undef(_) => whole,
            _ => self.plain(r),
        };
        if iv.is_empty() {
            return iv;
        }
        for &(op, x, y) in self.facts_at(b) {
            let (op, other) = if x == r {
                (op, y)
            } else if y == r {
                (flip(op), x)
            } else {
                continue;
            };
            let o = self.plain(other);
            if o.is_empty() {
                continue;
            }
            match op {
                CmpOp::Lt => iv.hi = iv.hi.min(o.hi - 1),
                CmpOp::Le => iv.hi = iv.hi.min(o.hi),
                CmpOp::Gt => iv.lo = iv.lo.max(o.lo + 1),
                CmpOp::Ge => iv.lo = iv.lo.max(o.lo),
                CmpOp::Eq => {
                    iv.lo = iv.lo.max(o.lo);
                    iv.hi = iv.hi.min(o.hi);
                }
                CmpOp::Ne => {}
            }
        }
        iv
    }

    /// The facts that hold in block `b`: its own and its nearest dominators'.
    fn facts_at(&self, b: Block) -> impl Iterator<Item = &Fact> + '_ {
        let mut block = Some(b);
        let dominators = std::iter::from_fn(move || {
            let here = block?;
            block = self.idom[here.index()];
            Some(here)
        });
        dominators
            .take(WALK_DEPTH)
            .filter(|d| !self.facts[d.index()].is_empty())
            .take(FACT_DEPTH)
            .flat_map(|d| self.facts[d.index()].iter())
    }

    /// The range of `r` without refinement.
    fn plain(&self, r: Ref) -> Iv {
        // Constants sit in no block: their range is their value.
        match self.f.as_const(r) {
            Some(Const::I32(c)) => return Iv::point(c as i64),
            Some(Const::U32(c)) => return Iv::point(c as i64),
            _ => {}
        }
        match r {
            Ref::Inst(v) => self.insts[v.index()],
            Ref::Phi(p) => self.phis[p.index()],
            Ref::Undef(t) => full(t).unwrap_or(EMPTY),
        }
    }

    /// The range of instruction `v` in its block `b`.
    fn transfer(&self, v: Value, b: Block) -> Iv {
        let inst = &self.f.insts[v];
        let Some(t) = inst.ty else { return EMPTY };
        let Some(whole) = full(t) else { return EMPTY };
        let arg = |k: usize| self.at(inst.args[k], b);
        let iv = match inst.op {
            Op::Const(Const::I32(c)) => Iv::point(c as i64),
            Op::Const(Const::U32(c)) => Iv::point(c as i64),
            Op::ArrayLen(_) | Op::ArrayShape(..) => Iv {
                lo: 0,
                hi: i32::MAX as i64,
            },
            Op::Builtin(Builtin::LocalIndex) => Iv {
                lo: 0,
                hi: self.group.map_or(1024, |g| g.iter().product::<u32>()) as i64 - 1,
            },
            // Vulkan's subgroups have 1 to 128 invocations.
            Op::Builtin(Builtin::SubgroupSize) => Iv { lo: 1, hi: 128 },
            Op::Builtin(Builtin::SubgroupInvocationId) => Iv { lo: 0, hi: 127 },
            Op::Extract(k) => self.id_component(inst.args[0], k).unwrap_or(whole),
            Op::Binary(op) => {
                let (x, y) = (arg(0), arg(1));
                if x.is_empty() || y.is_empty() {
                    return EMPTY;
                }
                binary(op, x, y).unwrap_or(whole)
            }
            Op::Unary(UnOp::Neg) if !arg(0).is_empty() => Iv {
                lo: -arg(0).hi,
                hi: -arg(0).lo,
            },
            Op::Convert => self.convert(inst.args[0], b, whole),
            Op::Select => arg(1).union(arg(2)),
            Op::Math(MathFn::Min) => min_max(arg(0), arg(1), i64::min),
            Op::Math(MathFn::Max) => min_max(arg(0), arg(1), i64::max),
            _ => whole,
        };
        fit(iv, t)
    }

    /// Component `k` of a thread-id builtin: `local_id()` within the workgroup size, the
    /// global and workgroup ids and counts non-negative `i32`s.
    fn id_component(&self, r: Ref, k: u32) -> Option<Iv> {
        let Ref::Inst(v) = r else { return None };
        let Op::Builtin(bi) = self.f.insts[v].op else {
            return None;
        };
        let hi = match bi {
            Builtin::LocalId => self.group.map_or(1024, |g| g[k as usize]) as i64 - 1,
            Builtin::LocalIndex | Builtin::SubgroupSize | Builtin::SubgroupInvocationId => {
                return None
            }
            Builtin::GlobalId | Builtin::WorkgroupId | Builtin::NumWorkgroups => i32::MAX as i64,
        };
        Some(Iv { lo: 0, hi })
    }

    /// An int-to-int conversion keeps the value when it fits the new type (`bool` gives 0 or 1).
    fn convert(&self, from: Ref, b: Block, whole: Iv) -> Iv {
        let ft = self.f.ty_of(from);
        if ft == Ty::BOOL {
            return Iv { lo: 0, hi: 1 };
        }
        if full(ft).is_none() {
            return whole;
        }
        let x = self.at(from, b);
        if x.is_empty() || (x.lo >= whole.lo && x.hi <= whole.hi) {
            x
        } else {
            whole
        }
    }

    /// The checks whose condition is proven: `(header, rest, fail)`.
    fn proven_checks(&self) -> Vec<(Block, Block, Block)> {
        let f = self.f;
        let mut out = Vec::new();
        for &b in &f.order {
            if !f.reachable[b] {
                continue;
            }
            let Term::Branch(ok, rest, fail) = f.blocks[b].term else {
                continue;
            };
            let fails = f.blocks[fail]
                .insts
                .first()
                .is_some_and(|&v| f.insts[v].op == Op::Fail);
            if fails && rest != fail && self.proven(ok, b) {
                out.push((b, rest, fail));
            }
        }
        out
    }

    /// Whether `c` is true whenever block `b` runs: `x < y` with `x` below all of `y`, or an
    /// `and` of such.
    fn proven(&self, c: Ref, b: Block) -> bool {
        let Ref::Inst(v) = c else { return false };
        let inst = &self.f.insts[v];
        match inst.op {
            Op::Cmp(CmpOp::Lt) if full(self.f.ty_of(inst.args[0])).is_some() => {
                let (x, y) = (self.at(inst.args[0], b), self.at(inst.args[1], b));
                (!x.is_empty() && !y.is_empty() && x.hi < y.lo)
                    || self.guarded(inst.args[0], inst.args[1], b)
            }
            Op::Binary(BinOp::And) => self.proven(inst.args[0], b) && self.proven(inst.args[1], b),
            Op::Const(Const::Bool(true)) => true,
            _ => false,
        }
    }
}

impl Ranges<'_> {
    /// Whether `index < len`, both `u32` conversions of `i32`s (a check's form), follows
    /// from a fact `i < n` on the `i32`s themselves with `i` non-negative: the guard
    /// `if i < len(x):` around `x[i]`.
    fn guarded(&self, index: Ref, len: Ref, b: Block) -> bool {
        let (Some(i), Some(n)) = (self.converted(index), self.converted(len)) else {
            return false;
        };
        if self.at(i, b).lo < 0 {
            return false;
        }
        self.facts_at(b).any(|&(op, x, y)| {
            (op == CmpOp::Lt && x == i && y == n) || (op == CmpOp::Gt && x == n && y == i)
        })
    }

    /// The `i32` that `r` converts to `u32`, when it is such a conversion.
    fn converted(&self, r: Ref) -> Option<Ref> {
        let Ref::Inst(v) = r else { return None };
        let inst = &self.f.insts[v];
        let from = *inst.args.first()?;
        (inst.op == Op::Convert && self.f.ty_of(from) == Ty::I32).then_some(from)
    }
}

fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// `x op y` as `y op' x`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// `new` (which contains `old`) with each bound that moved pushed to the type's end.
fn widened(old: Iv, new: Iv, t: Ty) -> Iv {
    let Some(f) = full(t) else { return new };
    Iv {
        lo: if new.lo < old.lo { f.lo } else { new.lo },
        hi: if new.hi > old.hi { f.hi } else { new.hi },
    }
}

fn min_max(x: Iv, y: Iv, pick: fn(i64, i64) -> i64) -> Iv {
    if x.is_empty() || y.is_empty() {
        return EMPTY;
    }
    Iv {
        lo: pick(x.lo, y.lo),
        hi: pick(x.hi, y.hi),
    }
}

/// Interval arithmetic in `i64` (the caller fits the result to the type); `None` when the
/// operation is not tracked.
fn binary(op: BinOp, x: Iv, y: Iv) -> Option<Iv> {
    let product = |a: i64, b: i64| a.checked_mul(b);
    let corners = || -> Option<Iv> {
        let c = [
            product(x.lo, y.lo)?,
            product(x.lo, y.hi)?,
            product(x.hi, y.lo)?,
            product(x.hi, y.hi)?,
        ];
        Some(Iv {
            lo: *c.iter().min()?,
            hi: *c.iter().max()?,
        })
    };
    let constant = (y.lo == y.hi).then_some(y.lo);
    Some(match (op, constant) {
        (BinOp::Add, _) => Iv {
            lo: x.lo + y.lo,
            hi: x.hi + y.hi,
        },
        (BinOp::Sub, _) => Iv {
            lo: x.lo - y.hi,
            hi: x.hi - y.lo,
        },
        (BinOp::Mul, _) => corners()?,
        // Python's `//` and `%` by a positive constant.
        (BinOp::FloorDiv, Some(c)) if c > 0 => Iv {
            lo: x.lo.div_euclid(c),
            hi: x.hi.div_euclid(c),
        },
        (BinOp::Mod, Some(c)) if c > 0 => Iv { lo: 0, hi: c - 1 },
        (BinOp::BitAnd, _) if y.lo >= 0 => Iv { lo: 0, hi: y.hi },
        (BinOp::BitAnd, _) if x.lo >= 0 => Iv { lo: 0, hi: x.hi },
        (BinOp::Shr, Some(s)) if (0..32).contains(&s) && x.lo >= 0 => Iv {
            lo: x.lo >> s,
            hi: x.hi >> s,
        },
        (BinOp::Shl, Some(s)) if (0..32).contains(&s) => Iv {
            lo: product(x.lo, 1 << s)?,
            hi: product(x.hi, 1 << s)?,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_on_corners_and_gives_up_where_unsure() {
        let iv = |lo, hi| Iv { lo, hi };
        assert_eq!(binary(BinOp::Mul, iv(-2, 3), iv(4, 5)), Some(iv(-10, 15)));
        assert_eq!(
            binary(BinOp::FloorDiv, iv(-7, 7), iv(2, 2)),
            Some(iv(-4, 3))
        );
        assert_eq!(binary(BinOp::Mod, iv(-100, 100), iv(8, 8)), Some(iv(0, 7)));
        assert_eq!(binary(BinOp::Mod, iv(0, 9), iv(-8, -8)), None);
        assert_eq!(binary(BinOp::Shr, iv(-1, 9), iv(1, 1)), None);
        // A sum past i32 is all of i32 once fitted: it would wrap.
        let big = binary(BinOp::Add, iv(0, i32::MAX as i64), iv(1, 1)).unwrap();
        assert_eq!(fit(big, Ty::I32), full(Ty::I32).unwrap());
        assert_eq!(fit(iv(-1, 3), Ty::U32), full(Ty::U32).unwrap());
        assert_eq!(widened(iv(0, 1), iv(0, 2), Ty::I32), iv(0, i32::MAX as i64));
    }
}

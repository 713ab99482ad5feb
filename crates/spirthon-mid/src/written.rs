//! Which arrays a module writes: an array is `written` when a store or an atomic on it sits in a
//! reachable block of any compiled function. The emitter marks the others `NonWritable` and
//! the runtime binds them read-only.

use spirthon_ir::{Function, GlobalArray, Op, Ref};

/// Sets `written` on every array `f` stores into from a block that can run.
pub fn mark_written(f: &Function<Ref>, arrays: &mut [GlobalArray]) {
    for (b, block) in f.blocks.iter_enumerated() {
        if !f.reachable[b] {
            continue;
        }
        for &v in &block.insts {
            if let Op::Store(a) | Op::StoreField(a, _) | Op::Atomic(_, a) = f.insts[v].op {
                arrays[a.index()].written = true;
            }
        }
    }
}

//! The value of one variable at a point, found along the dominator chain.
//!
//! With phis placed, the value of `v` live into block `b` is: the phi for `v` in `b` if there
//! is one, else the value of `v` at the end of `idom(b)`. The value at the end of block `x`
//! is `x`'s last definition of `v`, else its phi for `v`, else the value at the end of
//! `idom(x)`. Reaching the entry with none of those means `v` is undefined there
//! ([`Raw::Undef`]). This is correct because phis sit on the iterated dominance frontier of
//! every definition: no definition can reach `b` except through its dominators or a phi.
//!
//! Each walk is iterative and memoises every block it passes, so all lookups of one
//! variable together touch each block at most once. State is stamped per variable
//! ([`ChainLookup::begin`]), so moving on to the next variable costs nothing.

use crate::dom::DomTree;
use crate::function::Operand;
use crate::ids::{Block, Phi, UseId, Value};

/// A value during construction: client values, unresolved reads, phis, or undefined.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Raw {
    Value(Value),
    Use(UseId),
    Phi(Phi),
    Undef,
}

impl From<Operand> for Raw {
    fn from(op: Operand) -> Raw {
        match op {
            Operand::Value(v) => Raw::Value(v),
            Operand::Use(u) => Raw::Use(u),
        }
    }
}

/// What one block knows of the current variable. The three stamps say which fields hold
/// for it; `value` is its last definition or, failing that, the memoised value at its end
/// (a block with a definition is never memoised). The block's idom sits here too, so that
/// a walk up the chain reads one record per block.
#[derive(Copy, Clone, Debug)]
struct Slot {
    def_epoch: u32,
    memo_epoch: u32,
    phi_epoch: u32,
    phi: Phi,
    value: Raw,
    idom: u32,
}

/// `Slot::idom` of the entry.
const NO_IDOM: u32 = u32::MAX;
/// `Slot::idom` of an unreachable block.
const UNREACHABLE: u32 = u32::MAX - 1;

#[derive(Debug)]
pub(crate) struct ChainLookup {
    epoch: u32,
    slots: Vec<Slot>,
    path: Vec<u32>,
}

impl ChainLookup {
    pub(crate) fn new(dom: &DomTree, num_blocks: usize) -> ChainLookup {
        let slot = |b: usize| Slot {
            def_epoch: 0,
            memo_epoch: 0,
            phi_epoch: 0,
            phi: Phi::new(0),
            value: Raw::Undef,
            idom: match dom.idom(Block::new(b)) {
                Some(d) => d.as_u32(),
                None if dom.is_reachable(Block::new(b)) => NO_IDOM,
                None => UNREACHABLE,
            },
        };
        ChainLookup {
            epoch: 0,
            slots: (0..num_blocks).map(slot).collect(),
            path: Vec::new(),
        }
    }

    /// Forgets the previous variable.
    pub(crate) fn begin(&mut self) {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            for s in &mut self.slots {
                (s.def_epoch, s.memo_epoch, s.phi_epoch) = (0, 0, 0);
            }
        }
        self.epoch += 1;
    }

    pub(crate) fn set_def(&mut self, b: Block, value: Raw) {
        let s = &mut self.slots[b.index()];
        s.def_epoch = self.epoch;
        s.value = value;
    }

    pub(crate) fn is_def(&self, b: Block) -> bool {
        self.slots[b.index()].def_epoch == self.epoch
    }

    pub(crate) fn set_phi(&mut self, b: Block, phi: Phi) {
        let s = &mut self.slots[b.index()];
        s.phi_epoch = self.epoch;
        s.phi = phi;
    }

    /// The value live into block `b`; undefined in an unreachable block (that code never
    /// runs).
    pub(crate) fn value_in(&mut self, b: Block) -> Raw {
        let s = &self.slots[b.index()];
        if s.phi_epoch == self.epoch {
            return Raw::Phi(s.phi);
        }
        match s.idom {
            NO_IDOM | UNREACHABLE => Raw::Undef,
            parent => self.value_out(Block::from_u32(parent)),
        }
    }

    /// The value at the end of reachable block `b`.
    pub(crate) fn value_out(&mut self, b: Block) -> Raw {
        let epoch = self.epoch;
        let mut i = b.as_u32();
        let found = loop {
            let s = &self.slots[i as usize];
            if s.def_epoch == epoch || s.memo_epoch == epoch {
                break s.value;
            }
            if s.phi_epoch == epoch {
                break Raw::Phi(s.phi);
            }
            self.path.push(i);
            match s.idom {
                NO_IDOM => break Raw::Undef,
                parent => i = parent,
            }
        };
        for p in self.path.drain(..) {
            let s = &mut self.slots[p as usize];
            s.memo_epoch = epoch;
            s.value = found;
        }
        found
    }
}

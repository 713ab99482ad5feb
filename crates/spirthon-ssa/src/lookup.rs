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

#[derive(Debug)]
pub(crate) struct ChainLookup {
    epoch: u32,
    def_epoch: Vec<u32>,
    def: Vec<Raw>,
    phi_epoch: Vec<u32>,
    phi: Vec<Phi>,
    memo_epoch: Vec<u32>,
    memo: Vec<Raw>,
    path: Vec<Block>,
}

impl ChainLookup {
    pub(crate) fn new(num_blocks: usize) -> ChainLookup {
        ChainLookup {
            epoch: 0,
            def_epoch: vec![0; num_blocks],
            def: vec![Raw::Undef; num_blocks],
            phi_epoch: vec![0; num_blocks],
            phi: vec![Phi::new(0); num_blocks],
            memo_epoch: vec![0; num_blocks],
            memo: vec![Raw::Undef; num_blocks],
            path: Vec::new(),
        }
    }

    /// Forgets the previous variable.
    pub(crate) fn begin(&mut self) {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            for v in [
                &mut self.def_epoch,
                &mut self.phi_epoch,
                &mut self.memo_epoch,
            ] {
                v.fill(0);
            }
        }
        self.epoch += 1;
    }

    pub(crate) fn set_def(&mut self, b: Block, value: Raw) {
        self.def_epoch[b.index()] = self.epoch;
        self.def[b.index()] = value;
    }

    pub(crate) fn is_def(&self, b: Block) -> bool {
        self.def_epoch[b.index()] == self.epoch
    }

    pub(crate) fn set_phi(&mut self, b: Block, phi: Phi) {
        self.phi_epoch[b.index()] = self.epoch;
        self.phi[b.index()] = phi;
    }

    /// The value live into reachable block `b`.
    pub(crate) fn value_in(&mut self, dom: &DomTree, b: Block) -> Raw {
        if self.phi_epoch[b.index()] == self.epoch {
            return Raw::Phi(self.phi[b.index()]);
        }
        match dom.idom(b) {
            Some(parent) => self.value_out(dom, parent),
            None => Raw::Undef,
        }
    }

    /// The value at the end of reachable block `b`.
    pub(crate) fn value_out(&mut self, dom: &DomTree, mut b: Block) -> Raw {
        let found = loop {
            let i = b.index();
            if self.memo_epoch[i] == self.epoch {
                break self.memo[i];
            }
            if self.def_epoch[i] == self.epoch {
                break self.def[i];
            }
            if self.phi_epoch[i] == self.epoch {
                break Raw::Phi(self.phi[i]);
            }
            self.path.push(b);
            match dom.idom(b) {
                Some(parent) => b = parent,
                None => break Raw::Undef,
            }
        };
        for p in self.path.drain(..) {
            self.memo_epoch[p.index()] = self.epoch;
            self.memo[p.index()] = found;
        }
        found
    }
}

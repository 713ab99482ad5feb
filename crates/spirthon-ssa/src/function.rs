//! The input of SSA construction: a function as basic blocks over *variables*.
//!
//! Each block records `defines` (variable -> the operand of its last definition in the
//! block) and `depends` (variables read in the block before any definition there). Reads are
//! [`Operand`]s: a read of a variable the block already defined or already read is resolved
//! by [`FunctionBuilder::use_var`] on the spot; any other read becomes a [`UseId`] that SSA
//! construction resolves. No "assign" instruction exists anywhere: `x = y` is a definition of
//! `x` whose operand is the read of `y`.
//!
//! Invariants of a [`Function`]: block 0 is the entry and has no predecessors; every edge
//! names existing blocks; each `(block, var)` pair appears at most once in `defines` and at
//! most once in `depends`; every [`UseId`] belongs to exactly one `(block, var)` in `depends`.
//!
//! Storage: each block is filled in one go, so its definitions and its uses are each one run
//! of the builder's lists, and `defines`/`depends` are slices of those runs as they stand;
//! only the per-variable indexes are regrouped.

use crate::graph::{Cfg, Graph};
use crate::ids::{Block, UseId, Value, Var};
use crate::table::Table;

/// What an instruction reads: a client value, or an unresolved read of a variable.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    Value(Value),
    Use(UseId),
}

/// A malformed input graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The function has no blocks.
    NoBlocks,
    /// An edge leads into the entry block; give the function a fresh entry instead.
    EdgeIntoEntry { from: Block },
    /// An edge names a block that was never created.
    NoSuchBlock { from: Block, to: Block },
    /// A definition's value is numbered at or past [`MAX_INDEX`].
    ValueOutOfRange {
        block: Block,
        var: Var,
        value: Value,
    },
    /// More than [`MAX_INDEX`] upward-exposed uses.
    TooManyUses { count: usize },
}

/// Values, uses and phis are numbered below this (2^30): construction packs each in 32 bits
/// with a two-bit kind.
pub const MAX_INDEX: usize = crate::lookup::Raw::LIMIT;

impl core::fmt::Display for InputError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            InputError::NoBlocks => write!(f, "the function has no blocks"),
            InputError::EdgeIntoEntry { from } => {
                write!(f, "edge {from} -> b0 leads into the entry block")
            }
            InputError::NoSuchBlock { from, to } => {
                write!(f, "edge {from} -> {to} names a block that does not exist")
            }
            InputError::ValueOutOfRange { block, var, value } => write!(
                f,
                "{block} defines {var} as {value}, past the limit of {MAX_INDEX} values"
            ),
            InputError::TooManyUses { count } => {
                write!(f, "{count} uses, past the limit of {MAX_INDEX}")
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Builds a [`Function`] one block at a time, in the manner of a lowering pass: create
/// blocks, add edges, then fill each block once (`switch_to_block`, then `def_var` /
/// `use_var` in program order).
#[derive(Debug, Default)]
pub struct FunctionBuilder {
    num_blocks: u32,
    edges: Vec<(Block, Block)>,
    /// Every block's definitions, one block's after another, as they are filled.
    defs: Definitions,
    /// Every upward-exposed use, one block's after another; a use's id is its index.
    uses: Uses,
    num_vars: u32,
    current: Option<Block>,
    filled: Vec<bool>,
    /// Per variable: the block epoch in which `local` is valid, the operand a read in the
    /// current block sees, and whether it came from a definition.
    local_epoch: Vec<u32>,
    local: Vec<(Operand, bool)>,
    local_vars: Vec<Var>,
    epoch: u32,
}

impl FunctionBuilder {
    pub fn new() -> FunctionBuilder {
        FunctionBuilder::default()
    }

    /// A new empty block. The first block created is the entry.
    pub fn create_block(&mut self) -> Block {
        let b = Block::from_u32(self.num_blocks);
        self.num_blocks += 1;
        self.filled.push(false);
        self.defs.runs.push((0, 0));
        self.uses.runs.push((0, 0));
        b
    }

    pub fn add_edge(&mut self, from: Block, to: Block) {
        self.edges.push((from, to));
    }

    /// Finishes the current block and starts filling `block`.
    ///
    /// # Panics
    /// If `block` was filled before: each block is filled in one go.
    pub fn switch_to_block(&mut self, block: Block) {
        self.flush_current();
        assert!(!self.filled[block.index()], "block {block} is filled twice");
        self.filled[block.index()] = true;
        self.current = Some(block);
        let first = self.uses.vars.len() as u32;
        self.uses.runs[block.index()] = (first, first);
        self.epoch += 1;
    }

    /// The block being filled.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// Records `var = operand` at this point of the current block.
    pub fn def_var(&mut self, var: Var, operand: Operand) {
        self.current_or_panic();
        let slot = self.slot(var);
        if self.local_epoch[slot] != self.epoch || !self.local[slot].1 {
            if self.local_epoch[slot] != self.epoch {
                self.local_epoch[slot] = self.epoch;
            }
            self.local_vars.push(var);
        }
        self.local[slot] = (operand, true);
    }

    /// A read of `var` at this point of the current block.
    pub fn use_var(&mut self, var: Var) -> Operand {
        let block = self.current_or_panic();
        let slot = self.slot(var);
        if self.local_epoch[slot] == self.epoch {
            return self.local[slot].0;
        }
        let id = UseId::new(self.uses.vars.len());
        self.uses.blocks.push(block);
        self.uses.vars.push(var);
        self.uses.runs[block.index()].1 += 1;
        self.local_epoch[slot] = self.epoch;
        self.local[slot] = (Operand::Use(id), false);
        Operand::Use(id)
    }

    /// Makes sure variables `0..count` exist even if never mentioned (they get no phis).
    pub fn declare_vars(&mut self, count: usize) {
        if count > 0 {
            self.slot(Var::new(count - 1));
        }
    }

    fn current_or_panic(&self) -> Block {
        self.current
            .expect("def_var/use_var outside a block: call switch_to_block first")
    }

    fn slot(&mut self, var: Var) -> usize {
        let i = var.index();
        if i >= self.local.len() {
            self.local_epoch.resize(i + 1, 0);
            self.local
                .resize(i + 1, (Operand::Value(Value::new(0)), false));
            self.num_vars = self.num_vars.max(var.as_u32() + 1);
        }
        i
    }

    fn flush_current(&mut self) {
        let Some(block) = self.current.take() else {
            return;
        };
        let first = self.defs.items.len() as u32;
        for var in self.local_vars.drain(..) {
            self.defs.blocks.push(block);
            self.defs.items.push((var, self.local[var.index()].0));
        }
        self.defs.runs[block.index()] = (first, self.defs.items.len() as u32);
    }

    /// The finished input, or the first structural problem found.
    pub fn finish(mut self) -> Result<Function, InputError> {
        self.flush_current();
        Function::new(
            self.num_blocks as usize,
            self.num_vars as usize,
            &self.edges,
            self.defs,
            self.uses,
        )
    }
}

/// Definitions in the order blocks were filled: each block's are one run, so `defines` is a
/// slice of them and needs no regrouping.
#[derive(Clone, Debug, Default)]
struct Definitions {
    /// Per definition: its block...
    blocks: Vec<Block>,
    /// ...and its variable and operand.
    items: Vec<(Var, Operand)>,
    /// Per block: its run of definitions, `start..end`.
    runs: Vec<(u32, u32)>,
}

/// Upward-exposed uses by id, in the order blocks were filled: each block's are one run of
/// consecutive ids, so `depends` is a slice of them and needs no regrouping.
#[derive(Clone, Debug, Default)]
struct Uses {
    blocks: Vec<Block>,
    vars: Vec<Var>,
    /// Per block: its run of uses, `start..end`.
    runs: Vec<(u32, u32)>,
}

fn run((start, end): (u32, u32)) -> std::ops::Range<usize> {
    start as usize..end as usize
}

/// A function over variables, indexed both per block and per variable.
#[derive(Clone, Debug)]
pub struct Function {
    cfg: Cfg,
    num_vars: usize,
    defs: Definitions,
    uses: Uses,
    var_defs: Table<(Block, Operand)>,
    var_uses: Table<(UseId, Block)>,
}

impl Function {
    fn new(
        num_blocks: usize,
        num_vars: usize,
        edges: &[(Block, Block)],
        defs: Definitions,
        uses: Uses,
    ) -> Result<Function, InputError> {
        if num_blocks == 0 {
            return Err(InputError::NoBlocks);
        }
        if let Some((from, to)) = Cfg::check_edges(num_blocks, edges) {
            return Err(InputError::NoSuchBlock { from, to });
        }
        if let Some(&(from, _)) = edges.iter().find(|e| e.1.index() == 0) {
            return Err(InputError::EdgeIntoEntry { from });
        }
        if uses.vars.len() >= MAX_INDEX {
            return Err(InputError::TooManyUses {
                count: uses.vars.len(),
            });
        }
        let out_of_range = defs.blocks.iter().zip(&defs.items).find_map(
            |(&block, &(var, operand))| match operand {
                Operand::Value(value) if value.index() >= MAX_INDEX => {
                    Some(InputError::ValueOutOfRange { block, var, value })
                }
                _ => None,
            },
        );
        if let Some(error) = out_of_range {
            return Err(error);
        }
        let cfg = Cfg::from_edges(num_blocks, Block::new(0), edges);
        let var_defs = Table::group(
            num_vars,
            (defs.blocks.iter().zip(&defs.items)).map(|(&b, &(v, o))| (v.index(), (b, o))),
        );
        let var_uses = Table::group(
            num_vars,
            (uses.blocks.iter().zip(&uses.vars).enumerate())
                .map(|(i, (&b, &v))| (v.index(), (UseId::new(i), b))),
        );
        Ok(Function {
            cfg,
            num_vars,
            defs,
            uses,
            var_defs,
            var_uses,
        })
    }

    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }
    pub fn num_blocks(&self) -> usize {
        self.cfg.num_blocks()
    }
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }
    pub fn num_uses(&self) -> usize {
        self.uses.vars.len()
    }
    /// Definitions in all blocks together (the last one of each variable in each block).
    pub fn num_defs(&self) -> usize {
        self.defs.items.len()
    }
    /// Where a use is: its block and variable.
    pub fn use_site(&self, u: UseId) -> (Block, Var) {
        (self.uses.blocks[u.index()], self.uses.vars[u.index()])
    }
    /// The last definition of each variable the block defines.
    pub fn defines(&self, b: Block) -> &[(Var, Operand)] {
        &self.defs.items[run(self.defs.runs[b.index()])]
    }
    /// The variables read in the block before any definition there.
    pub fn depends(&self, b: Block) -> &[Var] {
        &self.uses.vars[run(self.uses.runs[b.index()])]
    }
    /// The upward-exposed uses in the block, with their variables, in order.
    pub fn uses_in(&self, b: Block) -> impl ExactSizeIterator<Item = (UseId, Var)> + '_ {
        let first = self.uses.runs[b.index()].0 as usize;
        let deps = self.depends(b);
        deps.iter()
            .enumerate()
            .map(move |(k, &v)| (UseId::new(first + k), v))
    }
    /// The blocks that define `v`, each with its last definition there.
    pub fn var_defs(&self, v: Var) -> &[(Block, Operand)] {
        self.var_defs.row(v.index())
    }
    /// The blocks that depend on `v` (have an upward-exposed use of it).
    pub fn var_depends(&self, v: Var) -> impl ExactSizeIterator<Item = Block> + Clone + '_ {
        self.var_uses(v).iter().map(|&(_, b)| b)
    }
    /// The upward-exposed uses of `v`, each with its block (one use per depending block).
    pub fn var_uses(&self, v: Var) -> &[(UseId, Block)] {
        self.var_uses.row(v.index())
    }
}

//! Programs over variables, and generators of them, for tests and benchmarks.
//!
//! A [`Program`] is a CFG whose blocks hold [`Op`]s on variables; [`Program::build`] lowers it
//! through [`FunctionBuilder`] exactly as a frontend would, giving each definition a fresh
//! client [`Value`]. Generators are deterministic in their seed:
//! - [`structured`]: nested `if`/`else`, `while` loops with `break`/`continue`, and early
//!   `return`s, the shapes Python code produces, with function-level variables and a pool of
//!   local names each construct assigns and reads;
//! - [`ladder`]: the ladder CFG whose dominance frontiers have quadratic total size.
//!
//! All generators are iterative, so a million blocks need no deep stack.

use crate::function::{FunctionBuilder, InputError, Operand};
use crate::ids::{Block, Value, Var};
use crate::Function;

/// One operation on variables.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Op {
    /// `var = <fresh value>`
    Def(Var),
    /// a read of `var`
    Use(Var),
    /// `dst = src`
    Copy { dst: Var, src: Var },
}

/// A block: its operations, then a branch on `cond` (two successors), a jump (one) or a
/// return (none).
#[derive(Clone, Debug, Default)]
pub struct ProgramBlock {
    pub ops: Vec<Op>,
    pub cond: Option<Var>,
    pub succs: Vec<Block>,
}

/// A whole program; block 0 is the entry.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub blocks: Vec<ProgramBlock>,
    pub num_vars: usize,
}

/// What [`Program::build`] produced for each operation of each block.
#[derive(Clone, Debug)]
pub struct Built {
    pub function: Function,
    /// Per block, per op: the operand a `Use`/`Copy` read, or the value a `Def` defined.
    pub operands: Vec<Vec<Operand>>,
    /// Per block: the operand of the branch condition, if any.
    pub conds: Vec<Option<Operand>>,
}

impl Program {
    pub fn num_ops(&self) -> usize {
        self.blocks
            .iter()
            .map(|b| b.ops.len() + b.cond.is_some() as usize)
            .sum()
    }

    /// Lowers the program block by block, in index order, recording every operand.
    pub fn build(&self) -> Result<Built, InputError> {
        let mut operands = Vec::with_capacity(self.blocks.len());
        let mut conds = Vec::with_capacity(self.blocks.len());
        let function = self.lower(|ops, cond| {
            operands.push(ops.to_vec());
            conds.push(cond);
        })?;
        Ok(Built {
            function,
            operands,
            conds,
        })
    }

    /// Lowers the program and keeps only the [`Function`]: what a frontend does.
    pub fn function(&self) -> Result<Function, InputError> {
        self.lower(|_, _| {})
    }

    /// Lowers block by block, handing each block's operands and condition to `record`.
    fn lower(
        &self,
        mut record: impl FnMut(&[Operand], Option<Operand>),
    ) -> Result<Function, InputError> {
        let mut fb = FunctionBuilder::new();
        fb.declare_vars(self.num_vars);
        let blocks: Vec<Block> = self.blocks.iter().map(|_| fb.create_block()).collect();
        let mut next_value = 0usize;
        let mut ops = Vec::new();
        for (i, block) in self.blocks.iter().enumerate() {
            fb.switch_to_block(blocks[i]);
            ops.clear();
            for &op in &block.ops {
                ops.push(match op {
                    Op::Def(v) => {
                        let value = Operand::Value(Value::new(next_value));
                        next_value += 1;
                        fb.def_var(v, value);
                        value
                    }
                    Op::Use(v) => fb.use_var(v),
                    Op::Copy { dst, src } => {
                        let read = fb.use_var(src);
                        fb.def_var(dst, read);
                        read
                    }
                });
            }
            let cond = block.cond.map(|c| fb.use_var(c));
            record(&ops, cond);
            for &s in &block.succs {
                fb.add_edge(blocks[i], s);
            }
        }
        fb.finish()
    }
}

/// A small, fast, deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Local names a construct draws from, as Python code reuses `t`, `i`, `acc`, … across a
/// function: names are function-scoped, so a big function has many assignments to few
/// names, not one name per statement.
const LOCAL_NAMES: usize = 48;

/// Variables visible in a construct: the function's, then each enclosing construct's.
struct Scopes {
    function_vars: usize,
    /// `(first, count)` of the locals of each open construct.
    locals: Vec<(usize, usize)>,
    num_vars: usize,
}

impl Scopes {
    fn open(&mut self, rng: &mut Rng) -> (usize, usize) {
        let count = 1 + rng.below(3);
        let scope = (self.function_vars + rng.below(LOCAL_NAMES - count), count);
        self.num_vars = self.num_vars.max(scope.0 + count);
        self.locals.push(scope);
        scope
    }

    /// A visible variable: a local of one of the three innermost constructs half the time.
    fn pick(&self, rng: &mut Rng) -> Var {
        if !self.locals.is_empty() && rng.chance(50) {
            let depth = self.locals.len();
            let (first, count) = self.locals[depth - 1 - rng.below(depth.min(3))];
            return Var::new(first + rng.below(count));
        }
        Var::new(rng.below(self.function_vars))
    }
}

enum Open {
    /// An `if` whose then-arm is being filled; `else_block` is still to come.
    Then { else_block: Block, join: Block },
    /// The else-arm is being filled.
    Else { join: Block },
    /// A `while` body is being filled.
    Loop { header: Block, exit: Block },
}

/// A random structured program of about `target_blocks` blocks with `function_vars`
/// function-level variables (defined in the entry) and a few locals per construct.
pub fn structured(target_blocks: usize, function_vars: usize, seed: u64) -> Program {
    const MAX_DEPTH: usize = 8;
    let mut rng = Rng::new(seed);
    let mut p = Program {
        blocks: vec![ProgramBlock::default()],
        num_vars: 0,
    };
    let mut scopes = Scopes {
        function_vars: function_vars.max(1),
        locals: Vec::new(),
        num_vars: function_vars.max(1),
    };
    let mut open: Vec<Open> = Vec::new();
    let mut cur = Block::new(0);
    for v in 0..scopes.function_vars {
        p.blocks[0].ops.push(Op::Def(Var::new(v)));
    }
    let new_block = |p: &mut Program| {
        p.blocks.push(ProgramBlock::default());
        Block::new(p.blocks.len() - 1)
    };
    while p.blocks.len() < target_blocks || !open.is_empty() {
        let growing = p.blocks.len() < target_blocks;
        statement(&mut p.blocks[cur.index()], &scopes, &mut rng);
        let roll = rng.below(100);
        if growing && open.len() < MAX_DEPTH && roll < 30 {
            // if c: ... else: ...
            let (then_b, else_b, join) = (new_block(&mut p), new_block(&mut p), new_block(&mut p));
            branch(&mut p, cur, scopes.pick(&mut rng), then_b, else_b);
            let (first, count) = scopes.open(&mut rng);
            define_locals(&mut p.blocks[then_b.index()], first, count);
            define_locals(&mut p.blocks[else_b.index()], first, count);
            open.push(Open::Then {
                else_block: else_b,
                join,
            });
            cur = then_b;
        } else if growing && open.len() < MAX_DEPTH && roll < 50 {
            // while c: ...
            let (header, body, exit) = (new_block(&mut p), new_block(&mut p), new_block(&mut p));
            jump(&mut p, cur, header);
            branch(&mut p, header, scopes.pick(&mut rng), body, exit);
            let (first, count) = scopes.open(&mut rng);
            define_locals(&mut p.blocks[body.index()], first, count);
            open.push(Open::Loop { header, exit });
            cur = body;
        } else if growing && roll < 58 && innermost_loop(&open).is_some() {
            // if c: break / continue / return
            let (header, exit) = innermost_loop(&open).unwrap_or((cur, cur));
            let (taken, rest) = (new_block(&mut p), new_block(&mut p));
            branch(&mut p, cur, scopes.pick(&mut rng), taken, rest);
            let target = [Some(exit), Some(header), None][rng.below(3)];
            if let Some(t) = target {
                jump(&mut p, taken, t);
            }
            cur = rest;
        } else if !open.is_empty() && (roll >= 80 || !growing) {
            cur = close(&mut p, &mut open, &mut scopes, cur);
        }
    }
    p.blocks[cur.index()].ops.push(Op::Use(Var::new(0)));
    p.num_vars = scopes.num_vars;
    p
}

fn innermost_loop(open: &[Open]) -> Option<(Block, Block)> {
    open.iter().rev().find_map(|o| match *o {
        Open::Loop { header, exit } => Some((header, exit)),
        _ => None,
    })
}

/// Closes the innermost construct; returns the block where code continues.
fn close(p: &mut Program, open: &mut Vec<Open>, scopes: &mut Scopes, cur: Block) -> Block {
    match open.pop() {
        Some(Open::Then { else_block, join }) => {
            jump(p, cur, join);
            open.push(Open::Else { join });
            else_block
        }
        Some(Open::Else { join }) => {
            jump(p, cur, join);
            scopes.locals.pop();
            join
        }
        Some(Open::Loop { header, exit }) => {
            jump(p, cur, header);
            scopes.locals.pop();
            exit
        }
        None => cur,
    }
}

/// `x = f(y, z)`-like statements: two reads and a definition, sometimes a copy.
fn statement(block: &mut ProgramBlock, scopes: &Scopes, rng: &mut Rng) {
    for _ in 0..1 + rng.below(2) {
        block.ops.push(Op::Use(scopes.pick(rng)));
        block.ops.push(Op::Use(scopes.pick(rng)));
        let dst = scopes.pick(rng);
        if rng.chance(20) {
            block.ops.push(Op::Copy {
                dst,
                src: scopes.pick(rng),
            });
        } else {
            block.ops.push(Op::Def(dst));
        }
    }
}

fn define_locals(block: &mut ProgramBlock, first: usize, count: usize) {
    block
        .ops
        .extend((first..first + count).map(|v| Op::Def(Var::new(v))));
}

fn jump(p: &mut Program, from: Block, to: Block) {
    p.blocks[from.index()].succs.push(to);
}

fn branch(p: &mut Program, from: Block, cond: Var, then_b: Block, else_b: Block) {
    let b = &mut p.blocks[from.index()];
    b.cond = Some(cond);
    b.succs.extend([then_b, else_b]);
}

/// The ladder: `a0 -> a1 -> … -> a(n-1) -> end`, each `a(i) -> b(i)`, `b(i) -> b(i+1)`, and
/// `b(n-1) -> end`. `DF(a(i))` holds every `b(j)` with `j >= i`, so frontiers total `n²/2`.
/// `vars` variables are defined in rungs spread along the ladder and used at the end.
pub fn ladder(rungs: usize, vars: usize, seed: u64) -> Program {
    let rungs = rungs.max(1);
    let mut rng = Rng::new(seed);
    let a = |i: usize| Block::new(1 + 2 * i);
    let b = |i: usize| Block::new(2 + 2 * i);
    let end = Block::new(1 + 2 * rungs);
    let mut p = Program {
        blocks: vec![ProgramBlock::default(); 2 + 2 * rungs],
        num_vars: vars.max(1),
    };
    p.blocks[0].succs.push(a(0));
    for v in 0..p.num_vars {
        p.blocks[0].ops.push(Op::Def(Var::new(v)));
    }
    for i in 0..rungs {
        let next_a = if i + 1 < rungs { a(i + 1) } else { end };
        let next_b = if i + 1 < rungs { b(i + 1) } else { end };
        let ai = &mut p.blocks[a(i).index()];
        ai.cond = Some(Var::new(0));
        ai.succs.extend([next_a, b(i)]);
        p.blocks[b(i).index()].succs.push(next_b);
        p.blocks[b(i).index()]
            .ops
            .push(Op::Use(Var::new(rng.below(p.num_vars))));
    }
    for v in 0..p.num_vars {
        let rung = rng.below(rungs);
        p.blocks[a(rung).index()].ops.push(Op::Def(Var::new(v)));
        p.blocks[end.index()].ops.push(Op::Use(Var::new(v)));
    }
    p
}

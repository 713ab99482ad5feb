//! SSA construction against cranelift-frontend (Braun et al.'s on-the-fly construction), on
//! the same programs, in the same run. Prints a table; asserts nothing.
//!
//! spirthon's time covers lowering the program through `FunctionBuilder` (per-block
//! `defines`/`depends`) and `construct` (dominators, liveness, pruned phis, lookups, trivial
//! phi removal, the may-be-unassigned analysis). cranelift's covers building the same blocks,
//! definitions (`iconst` + `def_var`), reads (`use_var`) and branches in a fresh `Function`,
//! filling blocks in reverse post-order and sealing each as soon as its last predecessor is
//! filled (Braun et al.'s best case), and `finalize`. Each figure
//! is the fastest of several runs.
//!
//! `cargo bench -p spirthon-ssa` (add `-- --quick` for the sizes up to 100k only).

use std::hint::black_box;
use std::time::{Duration, Instant};

use cranelift_codegen::ir::{types::I32, Function, InstBuilder, Signature, UserFuncName};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use spirthon_ssa::testing::generate::{ladder, structured, Op, Program};
use spirthon_ssa::{construct, Flavour};

/// The fastest of enough runs to fill about `budget`: at least 5, since a 1M-block run's
/// time varies by 10-15% with how the kernel serves its page faults, and as many as fit
/// otherwise, so that a small size is sampled over the whole budget rather than over a few
/// milliseconds that a neighbour's burst of work can cover.
fn fastest<T>(budget: Duration, mut run: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let mut result = run();
    let mut best = start.elapsed();
    let runs = (budget.as_secs_f64() / best.as_secs_f64().max(1e-9)).clamp(5.0, 1e6) as usize;
    for _ in 1..runs {
        let t = Instant::now();
        result = black_box(run());
        best = best.min(t.elapsed());
    }
    (best, result)
}

fn spirthon(p: &Program) -> usize {
    let f = p.function().expect("generated programs are well-formed");
    let ssa = construct(&f, Flavour::Pruned);
    ssa.num_phis()
}

fn cranelift(p: &Program, ctx: &mut FunctionBuilderContext) -> usize {
    let mut func =
        Function::with_name_signature(UserFuncName::default(), Signature::new(CallConv::SystemV));
    let mut b = FunctionBuilder::new(&mut func, ctx);
    let vars: Vec<Variable> = (0..p.num_vars).map(|_| b.declare_var(I32)).collect();
    let blocks: Vec<_> = p.blocks.iter().map(|_| b.create_block()).collect();
    let mut unfilled_preds = vec![0u32; p.blocks.len()];
    for pb in &p.blocks {
        for s in &pb.succs {
            unfilled_preds[s.index()] += 1;
        }
    }
    for (i, &n) in unfilled_preds.iter().enumerate() {
        if n == 0 {
            b.seal_block(blocks[i]);
        }
    }
    let mut k = 0i64;
    for &i in &fill_order(p) {
        let pb = &p.blocks[i];
        b.switch_to_block(blocks[i]);
        for &op in &pb.ops {
            match op {
                Op::Def(v) => {
                    k += 1;
                    let c = b.ins().iconst(I32, k);
                    b.def_var(vars[v.index()], c);
                }
                Op::Use(v) => {
                    black_box(b.use_var(vars[v.index()]));
                }
                Op::Copy { dst, src } => {
                    let x = b.use_var(vars[src.index()]);
                    b.def_var(vars[dst.index()], x);
                }
            }
        }
        let cond = pb.cond.map(|c| b.use_var(vars[c.index()]));
        match pb.succs[..] {
            [] => {
                b.ins().return_(&[]);
            }
            [s] => {
                b.ins().jump(blocks[s.index()], &[]);
            }
            [s, t, ..] => {
                let c = cond.unwrap_or_else(|| b.ins().iconst(I32, 1));
                b.ins()
                    .brif(c, blocks[s.index()], &[], blocks[t.index()], &[]);
            }
        }
        for s in &pb.succs {
            unfilled_preds[s.index()] -= 1;
            if unfilled_preds[s.index()] == 0 {
                b.seal_block(blocks[s.index()]);
            }
        }
    }
    b.finalize(TargetFrontendConfig {
        default_call_conv: CallConv::SystemV,
        pointer_width: target_lexicon::PointerWidth::U64,
        page_size_align_log2: 12,
    });
    func.layout
        .blocks()
        .map(|bl| func.dfg.block_params(bl).len())
        .sum()
}

/// Reverse post-order, then the unreachable blocks: the order a frontend emits code in, and
/// the one that lets cranelift-frontend seal most blocks before it fills them.
fn fill_order(p: &Program) -> Vec<usize> {
    let n = p.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(top) = stack.last_mut() {
        let (b, next) = *top;
        if let Some(s) = p.blocks[b].succs.get(next) {
            top.1 += 1;
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push((s.index(), 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post.extend((0..n).filter(|&b| !seen[b]));
    post
}

struct Row {
    family: &'static str,
    blocks: usize,
    vars: usize,
    ops: usize,
    ours: Duration,
    theirs: Duration,
    phis: usize,
    params: usize,
}

fn measure(family: &'static str, p: &Program, budget: Duration) -> Row {
    let (ours, phis) = fastest(budget, || spirthon(p));
    let mut ctx = FunctionBuilderContext::new();
    let (theirs, params) = fastest(budget, || cranelift(p, &mut ctx));
    Row {
        family,
        blocks: p.blocks.len(),
        vars: p.num_vars,
        ops: p.num_ops(),
        ours,
        theirs,
        phis,
        params,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ns_per_block(r: &Row) -> f64 {
    r.ours.as_secs_f64() * 1e9 / r.blocks as f64
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`) this is a smoke
    // test of the smallest size, so the bench cannot rot unnoticed.
    let bench = std::env::args().any(|a| a == "--bench");
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes: &[usize] = match (bench, quick) {
        (false, _) => &[1_000],
        (true, true) => &[1_000, 10_000, 100_000],
        (true, false) => &[1_000, 10_000, 100_000, 1_000_000],
    };
    let budget = Duration::from_millis(if bench { 400 } else { 1 });
    let mut rows = Vec::new();
    for &n in sizes {
        rows.push(measure("structured", &structured(n, 16, 42), budget));
    }
    for &n in sizes {
        rows.push(measure("ladder", &ladder(n / 2, 16, 42), budget));
    }
    println!("SSA construction, spirthon (pruned) vs cranelift-frontend, fastest of several runs");
    println!();
    println!(
        "| {:<10} | {:>9} | {:>7} | {:>9} | {:>12} | {:>10} | {:>13} | {:>5} | {:>7} | {:>10} |",
        "family",
        "blocks",
        "vars",
        "ops",
        "spirthon ms",
        "ns/block",
        "cranelift ms",
        "ratio",
        "phis",
        "cl params"
    );
    println!("|{}|", ["-"; 10].map(|_| "---").join("|"));
    for r in &rows {
        println!(
            "| {:<10} | {:>9} | {:>7} | {:>9} | {:>12.3} | {:>10.1} | {:>13.3} | {:>5.2} | {:>7} | {:>10} |",
            r.family,
            r.blocks,
            r.vars,
            r.ops,
            ms(r.ours),
            ns_per_block(r),
            ms(r.theirs),
            r.ours.as_secs_f64() / r.theirs.as_secs_f64(),
            r.phis,
            r.params
        );
    }
    println!();
    for family in ["structured", "ladder"] {
        let fam: Vec<&Row> = rows.iter().filter(|r| r.family == family).collect();
        let (first, last) = (fam[0], fam[fam.len() - 1]);
        let growth = ns_per_block(last) / ns_per_block(first);
        let worst = fam
            .iter()
            .map(|r| r.ours.as_secs_f64() / r.theirs.as_secs_f64())
            .fold(0.0, f64::max);
        println!(
            "{family}: ns/block at {} blocks / at {} blocks = {growth:.2} (target <= 2.0); worst ratio spirthon/cranelift = {worst:.2} (target <= 1.0)",
            last.blocks, first.blocks
        );
    }
}

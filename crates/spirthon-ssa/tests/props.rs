//! Property tests on random CFGs (irreducible loops, unreachable blocks, self-loops, critical
//! edges and repeated edges all occur): fast algorithms against the naive oracles, and SSA
//! form against the semantic interpreter.

mod common;

use proptest::prelude::*;
use spirthon_ssa::frontier::{
    dominance_frontiers, dominance_frontiers_within, runner_steps, IdfCalculator,
};
use spirthon_ssa::graph::Reachable;
use spirthon_ssa::live::{LiveInCalculator, LiveSets};
use spirthon_ssa::testing::generate::{Op, Program, ProgramBlock};
use spirthon_ssa::testing::naive;
use spirthon_ssa::{
    construct_with, dump, Block, Cfg, DomTree, Flavour, Graph, Method, Options, Var,
};

/// A random graph: `n` blocks, each with up to three successors anywhere but the entry.
fn arb_graph(max_blocks: usize) -> impl Strategy<Value = Cfg> {
    (2..=max_blocks).prop_flat_map(|n| {
        prop::collection::vec(prop::collection::vec(1..n, 0..=3), n).prop_map(move |succs| {
            let edges: Vec<(Block, Block)> = succs
                .iter()
                .enumerate()
                .flat_map(|(b, ss)| ss.iter().map(move |&s| (Block::new(b), Block::new(s))))
                .collect();
            Cfg::from_edges(n, Block::new(0), &edges)
        })
    })
}

fn arb_op(vars: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..vars).prop_map(|v| Op::Def(Var::new(v))),
        (0..vars).prop_map(|v| Op::Use(Var::new(v))),
        (0..vars, 0..vars).prop_map(|(d, s)| Op::Copy {
            dst: Var::new(d),
            src: Var::new(s)
        }),
    ]
}

/// A random program over a random graph: ops, a condition and up to two successors.
fn arb_program(max_blocks: usize, max_vars: usize) -> impl Strategy<Value = Program> {
    (2..=max_blocks, 1..=max_vars).prop_flat_map(|(n, vars)| {
        let block = (
            prop::collection::vec(arb_op(vars), 0..5),
            prop::option::of(0..vars),
            prop::collection::vec(1..n, 0..=2),
        )
            .prop_map(|(ops, cond, succs)| ProgramBlock {
                ops,
                cond: cond.map(Var::new),
                succs: succs.into_iter().map(Block::new).collect(),
            });
        prop::collection::vec(block, n).prop_map(move |blocks| Program {
            blocks,
            num_vars: vars,
        })
    })
}

fn choice_sets() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 1..40), 1..6)
}

proptest! {
    // 300 cases each unless PROPTEST_CASES says otherwise.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn idoms_match_the_removal_oracle(g in arb_graph(120)) {
        let dom = DomTree::compute(&g);
        let expected = naive::idoms(&g);
        for b in 0..g.num_blocks() {
            prop_assert_eq!(dom.idom(Block::new(b)), expected[b], "idom of b{}", b);
        }
        let sets = naive::dominator_sets(&g);
        for a in 0..g.num_blocks() {
            for b in 0..g.num_blocks() {
                prop_assert_eq!(dom.dominates(Block::new(a), Block::new(b)), sets[b].contains(&Block::new(a)));
            }
        }
    }

    #[test]
    fn frontiers_match_the_definition(g in arb_graph(120)) {
        let dom = DomTree::compute(&g);
        let fast = dominance_frontiers(&g, &dom);
        let slow = naive::frontiers(&g);
        for b in 0..g.num_blocks() {
            let mut got = fast.of(Block::new(b)).to_vec();
            got.sort();
            prop_assert_eq!(&got, &slow[b], "DF(b{})", b);
        }
    }

    #[test]
    fn iterated_frontiers_match_the_fixpoint(g in arb_graph(120), picks in prop::collection::vec(any::<u16>(), 1..8)) {
        let dom = DomTree::compute(&g);
        let reachable = dom.rpo().to_vec();
        let defs: Vec<Block> = picks.iter().map(|&p| reachable[p as usize % reachable.len()]).collect();
        let mut calc = IdfCalculator::new(g.num_blocks());
        let mut got = Vec::new();
        calc.compute(&g, &dom, &defs, &mut got);
        got.sort();
        let expected = naive::iterated_frontier(&naive::frontiers(&g), &defs);
        prop_assert_eq!(got.clone(), expected);
        // A second computation on the same calculator is independent of the first.
        let mut again = Vec::new();
        calc.compute(&g, &dom, &defs, &mut again);
        again.sort();
        prop_assert_eq!(again, got.clone());
        // The worklist over materialised frontiers finds the same set.
        let df = dominance_frontiers(&g, &dom);
        let mut listed = Vec::new();
        calc.compute_with_frontiers(&df, &defs, |_| true, &mut listed);
        listed.sort();
        prop_assert_eq!(listed, got);
    }

    #[test]
    fn frontiers_give_up_past_their_limit(g in arb_graph(120), limit in 0usize..200) {
        let dom = DomTree::compute(&g);
        let total = dominance_frontiers(&g, &dom).total_len();
        let steps = runner_steps(&g, &dom);
        prop_assert!(steps >= total);
        let bounded = dominance_frontiers_within(&g, &dom, limit);
        prop_assert_eq!(bounded.is_some(), total <= limit && steps / 4 <= limit);
    }

    #[test]
    fn pruned_frontiers_agree_between_the_two_walks(p in arb_program(80, 6)) {
        let f = p.build().unwrap().function;
        let dom = DomTree::compute(f.cfg());
        let reachable = Reachable::new(f.cfg(), |b| dom.is_reachable(b));
        let sets = LiveSets::compute(&reachable, &dom, &f);
        let df = dominance_frontiers(&reachable, &dom);
        let mut calc = IdfCalculator::new(f.num_blocks());
        for v in 0..f.num_vars() {
            let var = Var::new(v);
            let defs: Vec<Block> = f.var_defs(var).iter().map(|d| d.0).filter(|&b| dom.is_reachable(b)).collect();
            let (live_in, live_out) = (|b| sets.is_live_in(b, var), |b| sets.is_live_out(&reachable, b, var));
            let (mut walked, mut listed) = (Vec::new(), Vec::new());
            calc.compute_live(&reachable, &dom, &defs, live_in, live_out, &mut walked);
            calc.compute_with_frontiers(&df, &defs, live_in, &mut listed);
            walked.sort();
            listed.sort();
            prop_assert_eq!(walked, listed, "{}", var);
        }
    }

    #[test]
    fn every_method_builds_the_same_ssa(p in prop_oneof![arb_program(80, 6), arb_program(40, 150)]) {
        let f = p.build().unwrap().function;
        let methods = [Method::Auto, Method::Dense, Method::Sparse];
        for flavour in [Flavour::Pruned, Flavour::SemiPruned, Flavour::Minimal] {
            let reference = construct_with(&f, Options { flavour, ..Options::default() });
            for liveness in methods {
                for frontiers in methods {
                    let ssa = construct_with(&f, Options { flavour, liveness, frontiers });
                    prop_assert_eq!(dump(&f, &ssa), dump(&f, &reference), "{:?} {:?} {:?}", flavour, liveness, frontiers);
                    prop_assert_eq!(ssa.maybe_undefined(), reference.maybe_undefined());
                    prop_assert_eq!(ssa.stats(), reference.stats());
                }
            }
        }
    }

    #[test]
    fn liveness_matches_the_dense_fixpoint(p in prop_oneof![arb_program(80, 6), arb_program(40, 150)]) {
        let built = p.build().unwrap();
        let f = &built.function;
        let dom = DomTree::compute(f.cfg());
        let expected = naive::live_in(f);
        let reachable = Reachable::new(f.cfg(), |b| dom.is_reachable(b));
        let mut calc = LiveInCalculator::new(f.num_blocks());
        let sets = LiveSets::compute(&reachable, &dom, f);
        for v in 0..f.num_vars() {
            let var = Var::new(v);
            let defines = |b: Block| f.var_defs(var).iter().any(|d| d.0 == b);
            calc.compute(&reachable, &dom, f.var_depends(var), defines);
            for b in 0..f.num_blocks() {
                let block = Block::new(b);
                prop_assert_eq!(calc.is_live_in(block), expected[b][v], "{} live into b{}", var, b);
                prop_assert_eq!(sets.is_live_in(block, var), expected[b][v], "{} live into b{} (dense)", var, b);
                let out = reachable.successors(block).iter().any(|s| expected[s.index()][v]);
                prop_assert_eq!(sets.is_live_out(&reachable, block, var), out, "{} live out of b{} (dense)", var, b);
            }
        }
    }

    #[test]
    fn ssa_agrees_with_the_interpreter(p in arb_program(60, 5), choices in choice_sets()) {
        for flavour in [Flavour::Pruned, Flavour::SemiPruned, Flavour::Minimal] {
            if let Err(e) = common::check_program(&p, flavour, &choices) {
                prop_assert!(false, "{:?}: {}", flavour, e);
            }
        }
    }

    #[test]
    fn structured_programs_agree_with_the_interpreter(seed in any::<u64>(), size in 2usize..400, choices in choice_sets()) {
        let p = spirthon_ssa::testing::generate::structured(size, 4, seed);
        if let Err(e) = common::check_program(&p, Flavour::Pruned, &choices) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn flavours_order_by_phi_count(p in arb_program(80, 6)) {
        let f = p.build().unwrap().function;
        let counts: Vec<(usize, usize)> = [Flavour::Pruned, Flavour::SemiPruned, Flavour::Minimal]
            .iter()
            .map(|&fl| {
                let ssa = spirthon_ssa::construct(&f, fl);
                (ssa.stats().placed, ssa.num_phis())
            })
            .collect();
        prop_assert!(counts[0].0 <= counts[1].0 && counts[1].0 <= counts[2].0, "placed {:?}", counts);
        prop_assert!(counts[0].1 <= counts[1].1 && counts[1].1 <= counts[2].1, "kept {:?}", counts);
    }
}

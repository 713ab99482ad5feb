//! The textbook examples, with the exact phis pruned SSA gives them.

use spirthon_ssa::frontier::dominance_frontiers;
use spirthon_ssa::{
    construct, construct_with, verify, Block, DomTree, Flavour, FunctionBuilder, InputError,
    Method, Operand, Options, Phi, Ssa, Val, Value, Var, MAX_INDEX,
};

fn value(i: usize) -> Operand {
    Operand::Value(Value::new(i))
}

fn phis(ssa: &Ssa) -> Vec<(Block, Var)> {
    (0..ssa.num_phis())
        .map(|p| (ssa.phi_block(Phi::new(p)), ssa.phi_var(Phi::new(p))))
        .collect()
}

fn b(i: usize) -> Block {
    Block::new(i)
}

/// `i = f(); if i < 10: i = 10; return i`: one phi, at the join.
#[test]
fn if_without_else_has_one_phi_at_the_join() {
    let i = Var::new(0);
    let mut fb = FunctionBuilder::new();
    let (entry, then_b, join) = (fb.create_block(), fb.create_block(), fb.create_block());
    fb.switch_to_block(entry);
    fb.def_var(i, value(0));
    assert_eq!(
        fb.use_var(i),
        value(0),
        "a read after a definition in the block is resolved at once"
    );
    fb.add_edge(entry, then_b);
    fb.add_edge(entry, join);
    fb.switch_to_block(then_b);
    fb.def_var(i, value(1));
    fb.add_edge(then_b, join);
    fb.switch_to_block(join);
    let Operand::Use(ret) = fb.use_var(i) else {
        panic!("expected an unresolved read")
    };
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(phis(&ssa), vec![(join, i)]);
    let phi = Phi::new(0);
    assert_eq!(
        ssa.phi_args(phi).collect::<Vec<_>>(),
        &[
            (entry, Val::Value(Value::new(0))),
            (then_b, Val::Value(Value::new(1)))
        ]
    );
    assert_eq!(ssa.use_value(ret), Val::Phi(phi));
    assert!(ssa.maybe_undefined().is_empty());
}

/// The j/k loop of the textbooks (Appel, "Modern Compiler Implementation", fig. 19.4): 1: i,
/// j, k = 1, 1, 0; 2: while k < 100: 3: if j < 20: 5: j = i; k = k + 1 else 6: j = k;
/// k = k + 2; 7: (join); 4: return j. Two extra variables show the flavours apart: `t` is
/// defined in both arms but only read after its definition (no phi unless minimal); `m` is
/// read before any assignment at the entry, so it is non-local but never live at a join
/// (semi-pruned and minimal place its phis, pruned does not).
#[test]
fn textbook_loop_gets_phis_only_where_pruned_ssa_needs_them() {
    let (i, j, k, t, m) = (
        Var::new(0),
        Var::new(1),
        Var::new(2),
        Var::new(3),
        Var::new(4),
    );
    let build = || {
        let mut fb = FunctionBuilder::new();
        let blocks: Vec<Block> = (0..7).map(|_| fb.create_block()).collect();
        let [b1, b2, b3, b4, b5, b6, b7] = blocks[..] else {
            unreachable!()
        };
        for (from, to) in [
            (b1, b2),
            (b2, b3),
            (b2, b4),
            (b3, b5),
            (b3, b6),
            (b5, b7),
            (b6, b7),
            (b7, b2),
        ] {
            fb.add_edge(from, to);
        }
        fb.switch_to_block(b1);
        let m_read = fb.use_var(m);
        fb.def_var(i, value(0));
        fb.def_var(j, value(1));
        fb.def_var(k, value(2));
        fb.switch_to_block(b2);
        fb.use_var(k);
        fb.switch_to_block(b3);
        fb.use_var(j);
        fb.switch_to_block(b4);
        fb.use_var(j);
        fb.switch_to_block(b5);
        let i_read = fb.use_var(i);
        fb.def_var(j, i_read);
        fb.use_var(k);
        fb.def_var(k, value(3));
        fb.def_var(t, value(4));
        fb.use_var(t);
        fb.def_var(m, value(5));
        fb.switch_to_block(b6);
        let k_read = fb.use_var(k);
        fb.def_var(j, k_read);
        assert_eq!(
            fb.use_var(k),
            k_read,
            "a second read in the block is the same read"
        );
        fb.def_var(k, value(6));
        fb.def_var(t, value(7));
        fb.use_var(t);
        fb.def_var(m, value(8));
        fb.switch_to_block(b7);
        (fb.finish().unwrap(), m_read)
    };
    let (f, m_read) = build();
    let (b2, b7) = (b(1), b(6));
    let pruned = construct(&f, Flavour::Pruned);
    verify(&f, &pruned).unwrap();
    assert_eq!(phis(&pruned), vec![(b2, j), (b2, k), (b7, j), (b7, k)]);
    assert_eq!(pruned.stats().placed, 4);
    let Operand::Use(m_use) = m_read else {
        panic!()
    };
    assert_eq!(pruned.maybe_undefined(), &[m_use]);

    let semi = construct(&f, Flavour::SemiPruned);
    verify(&f, &semi).unwrap();
    assert_eq!(semi.stats().placed, 6, "plus m at 2 and 7");
    let minimal = construct(&f, Flavour::Minimal);
    verify(&f, &minimal).unwrap();
    assert_eq!(minimal.stats().placed, 8, "plus t at 2 and 7");
}

/// `x = 0; while c: y = x; x = x + 1`: the body reads x and then rewrites it, so x is live
/// into the header only through the body's `depends`; the header keeps its phi.
#[test]
fn loop_that_reads_then_rewrites_keeps_its_header_phi() {
    let (x, y, c) = (Var::new(0), Var::new(1), Var::new(2));
    let mut fb = FunctionBuilder::new();
    let (entry, header, body, exit) = (
        fb.create_block(),
        fb.create_block(),
        fb.create_block(),
        fb.create_block(),
    );
    for (from, to) in [
        (entry, header),
        (header, body),
        (header, exit),
        (body, header),
    ] {
        fb.add_edge(from, to);
    }
    fb.switch_to_block(entry);
    fb.def_var(x, value(0));
    fb.def_var(c, value(1));
    fb.switch_to_block(header);
    fb.use_var(c);
    fb.switch_to_block(body);
    let x_read = fb.use_var(x);
    fb.def_var(y, x_read);
    fb.def_var(x, value(2));
    fb.switch_to_block(exit);
    let f = fb.finish().unwrap();
    assert_eq!(f.depends(body), &[x]);
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(phis(&ssa), vec![(header, x)]);
    assert_eq!(
        ssa.phi_args(Phi::new(0)).collect::<Vec<_>>(),
        &[
            (entry, Val::Value(Value::new(0))),
            (body, Val::Value(Value::new(2)))
        ]
    );
    assert_eq!(ssa.resolve(x_read), Val::Phi(Phi::new(0)));
}

/// Irreducible: two entries into the cycle b1 <-> b2. x is defined at the entry and in b2
/// and read in b1: the iterated frontier is {b1, b2}, but x is live only into b1.
#[test]
fn irreducible_cycle_gets_a_phi_only_where_live() {
    let x = Var::new(0);
    let mut fb = FunctionBuilder::new();
    let blocks: Vec<Block> = (0..4).map(|_| fb.create_block()).collect();
    for (from, to) in [(0, 1), (0, 2), (1, 2), (2, 1), (1, 3)] {
        fb.add_edge(blocks[from], blocks[to]);
    }
    fb.switch_to_block(blocks[0]);
    fb.def_var(x, value(0));
    fb.switch_to_block(blocks[1]);
    let read = fb.use_var(x);
    fb.switch_to_block(blocks[2]);
    fb.def_var(x, value(1));
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(phis(&ssa), vec![(b(1), x)]);
    assert_eq!(ssa.resolve(read), Val::Phi(Phi::new(0)));
    assert_eq!(construct(&f, Flavour::Minimal).stats().placed, 2);
}

/// A self-loop's phi takes the block's own definition along the back edge; a read in an
/// unreachable block is undefined and not reported; `z = z` in the loop places a phi whose
/// back-edge argument is the phi itself, which is trivial and goes.
#[test]
fn self_loop_unreachable_block_and_trivial_phi() {
    let (x, z) = (Var::new(0), Var::new(1));
    let mut fb = FunctionBuilder::new();
    let (entry, looping, exit, dead) = (
        fb.create_block(),
        fb.create_block(),
        fb.create_block(),
        fb.create_block(),
    );
    for (from, to) in [
        (entry, looping),
        (looping, looping),
        (looping, exit),
        (dead, exit),
    ] {
        fb.add_edge(from, to);
    }
    fb.switch_to_block(entry);
    fb.def_var(x, value(0));
    fb.def_var(z, value(1));
    fb.switch_to_block(looping);
    let x_read = fb.use_var(x);
    let z_again = fb.use_var(z);
    fb.def_var(z, z_again);
    fb.def_var(x, value(2));
    fb.switch_to_block(dead);
    let Operand::Use(dead_read) = fb.use_var(Var::new(2)) else {
        panic!()
    };
    fb.switch_to_block(exit);
    let z_read = fb.use_var(z);
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(
        phis(&ssa),
        vec![(looping, x)],
        "z's loop phi [z0, itself] is trivial"
    );
    assert_eq!(ssa.stats().trivial, 1);
    assert_eq!(
        ssa.phi_args(Phi::new(0)).collect::<Vec<_>>(),
        &[
            (entry, Val::Value(Value::new(0))),
            (looping, Val::Value(Value::new(2)))
        ]
    );
    assert_eq!(ssa.resolve(x_read), Val::Phi(Phi::new(0)));
    assert_eq!(ssa.resolve(z_read), Val::Value(Value::new(1)));
    assert_eq!(ssa.use_value(dead_read), Val::Undef);
    assert!(ssa.maybe_undefined().is_empty());
}

/// `if c: x = 1` then a read of x: undefined on the path around the assignment.
#[test]
fn read_after_a_conditional_assignment_may_be_unassigned() {
    let (x, c) = (Var::new(0), Var::new(1));
    let mut fb = FunctionBuilder::new();
    let (entry, then_b, join) = (fb.create_block(), fb.create_block(), fb.create_block());
    for (from, to) in [(entry, then_b), (entry, join), (then_b, join)] {
        fb.add_edge(from, to);
    }
    fb.switch_to_block(entry);
    fb.def_var(c, value(0));
    fb.switch_to_block(then_b);
    fb.def_var(x, value(1));
    fb.switch_to_block(join);
    let Operand::Use(read) = fb.use_var(x) else {
        panic!()
    };
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(ssa.maybe_undefined(), &[read]);
    assert_eq!(
        ssa.phi_args(Phi::new(0)).next().map(|a| a.1),
        Some(Val::Undef)
    );
}

/// The ladder's frontiers total quadratic size; SSA on it needs none of them materialised.
#[test]
fn ladder_frontiers_are_quadratic() {
    let p = spirthon_ssa::testing::generate::ladder(60, 3, 7);
    let built = p.build().unwrap();
    let f = &built.function;
    let dom = DomTree::compute(f.cfg());
    let df = dominance_frontiers(f.cfg(), &dom);
    assert!(
        df.total_len() >= 60 * 59 / 2,
        "frontiers total {}",
        df.total_len()
    );
    let ssa = construct(f, Flavour::Pruned);
    verify(f, &ssa).unwrap();
}

#[test]
fn malformed_inputs_are_errors() {
    assert_eq!(
        FunctionBuilder::new().finish().unwrap_err(),
        InputError::NoBlocks
    );
    let mut fb = FunctionBuilder::new();
    let (a, c) = (fb.create_block(), fb.create_block());
    fb.add_edge(c, a);
    assert_eq!(
        fb.finish().unwrap_err(),
        InputError::EdgeIntoEntry { from: c }
    );
    let mut fb = FunctionBuilder::new();
    let a = fb.create_block();
    fb.add_edge(a, b(5));
    assert_eq!(
        fb.finish().unwrap_err(),
        InputError::NoSuchBlock { from: a, to: b(5) }
    );
    // Construction packs values in 30 bits: the largest allowed one goes through.
    for (value, ok) in [(MAX_INDEX - 1, true), (MAX_INDEX, false)] {
        let mut fb = FunctionBuilder::new();
        let (a, c) = (fb.create_block(), fb.create_block());
        fb.add_edge(a, c);
        fb.switch_to_block(a);
        fb.def_var(Var::new(0), Operand::Value(Value::new(value)));
        fb.switch_to_block(c);
        let read = fb.use_var(Var::new(0));
        match fb.finish() {
            Ok(f) if ok => {
                let ssa = construct(&f, Flavour::Pruned);
                verify(&f, &ssa).unwrap();
                assert_eq!(ssa.resolve(read), Val::Value(Value::new(value)));
            }
            Err(e) if !ok => assert_eq!(
                e,
                InputError::ValueOutOfRange {
                    block: a,
                    var: Var::new(0),
                    value: Value::new(value)
                }
            ),
            other => panic!("value {value}: {other:?}"),
        }
    }
}

/// `x = 0` and then only copies `x = x` around two interlocked cycles: every phi placed is
/// trivial, but some only once another has gone (a phi replaced by a phi that is itself
/// replaced later), so removal must revisit the readers of phis merged away.
#[test]
fn phis_of_copies_around_interlocked_cycles_all_go() {
    let x = Var::new(0);
    let mut fb = FunctionBuilder::new();
    let [entry, b1, b2, b3] = std::array::from_fn(|_| fb.create_block());
    for (from, to) in [
        (entry, b2),
        (b1, b3),
        (b1, b1),
        (b2, b1),
        (b3, b3),
        (b3, b2),
    ] {
        fb.add_edge(from, to);
    }
    fb.switch_to_block(entry);
    fb.def_var(x, value(0));
    let mut reads = Vec::new();
    for block in [b1, b3] {
        fb.switch_to_block(block);
        let read = fb.use_var(x);
        fb.def_var(x, read);
        reads.push(read);
    }
    fb.switch_to_block(b2);
    reads.push(fb.use_var(x));
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).unwrap();
    assert_eq!(phis(&ssa), vec![], "every phi merges x0 with itself");
    for read in reads {
        assert_eq!(ssa.resolve(read), Val::Value(Value::new(0)));
    }
}

/// A function with no variables at all (a kernel body of nothing but control flow) goes
/// through every flavour and method.
#[test]
fn no_variables_at_all() {
    let mut fb = FunctionBuilder::new();
    let (entry, then_b, join) = (fb.create_block(), fb.create_block(), fb.create_block());
    fb.add_edge(entry, then_b);
    fb.add_edge(entry, join);
    fb.add_edge(then_b, join);
    let f = fb.finish().unwrap();
    let methods = [Method::Auto, Method::Dense, Method::Sparse];
    for flavour in [Flavour::Minimal, Flavour::SemiPruned, Flavour::Pruned] {
        for (liveness, frontiers) in methods.iter().flat_map(|&l| methods.map(|d| (l, d))) {
            let options = Options {
                flavour,
                liveness,
                frontiers,
            };
            let ssa = construct_with(&f, options);
            assert_eq!(ssa.num_phis(), 0, "{options:?}");
            assert!(verify(&f, &ssa).is_ok());
        }
    }
}

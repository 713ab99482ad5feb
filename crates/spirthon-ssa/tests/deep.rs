//! Graphs far deeper than any native stack: every walk must be iterative. These run on the
//! test harness's threads, whose stacks are smaller than the main thread's.

use spirthon_ssa::{construct, verify, Flavour, FunctionBuilder, Operand, Val, Value, Var};

/// A chain of a million blocks, x defined at the top and every thousandth block, read at
/// the bottom: the read sees the last definition.
#[test]
fn million_block_chain() {
    const N: usize = 1_000_000;
    let x = Var::new(0);
    let mut fb = FunctionBuilder::new();
    let blocks: Vec<_> = (0..N).map(|_| fb.create_block()).collect();
    let mut last_def = 0;
    for i in 0..N {
        fb.switch_to_block(blocks[i]);
        if i % 1000 == 0 {
            fb.def_var(x, Operand::Value(Value::new(i)));
            last_def = i;
        } else {
            fb.use_var(x);
        }
        if i + 1 < N {
            fb.add_edge(blocks[i], blocks[i + 1]);
        }
    }
    let Operand::Use(read) = fb.use_var(x) else {
        panic!()
    };
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    assert_eq!(ssa.num_phis(), 0);
    assert_eq!(ssa.use_value(read), Val::Value(Value::new(last_def)));
    assert_eq!(ssa.dom().rpo().len(), N);
    verify(&f, &ssa).unwrap();
}

/// 100,000 loops nested in one another; the innermost body increments x, read after all of
/// them: every header needs a phi for x.
#[test]
fn hundred_thousand_nested_loops() {
    const D: usize = 100_000;
    let x = Var::new(0);
    let mut fb = FunctionBuilder::new();
    let entry = fb.create_block();
    let headers: Vec<_> = (0..D).map(|_| fb.create_block()).collect();
    let exits: Vec<_> = (0..D).map(|_| fb.create_block()).collect();
    let body = fb.create_block();
    fb.add_edge(entry, headers[0]);
    for d in 0..D {
        let inner = if d + 1 < D { headers[d + 1] } else { body };
        fb.add_edge(headers[d], inner);
        fb.add_edge(headers[d], exits[d]);
        if d > 0 {
            fb.add_edge(exits[d], headers[d - 1]);
        }
    }
    fb.add_edge(body, headers[D - 1]);
    fb.switch_to_block(entry);
    fb.def_var(x, Operand::Value(Value::new(0)));
    fb.switch_to_block(body);
    fb.use_var(x);
    fb.def_var(x, Operand::Value(Value::new(1)));
    fb.switch_to_block(exits[0]);
    let Operand::Use(read) = fb.use_var(x) else {
        panic!()
    };
    let f = fb.finish().unwrap();
    let ssa = construct(&f, Flavour::Pruned);
    assert_eq!(ssa.num_phis(), D, "one phi per loop header");
    assert!(matches!(ssa.use_value(read), Val::Phi(_)));
    assert!(ssa.maybe_undefined().is_empty());
    verify(&f, &ssa).unwrap();
}

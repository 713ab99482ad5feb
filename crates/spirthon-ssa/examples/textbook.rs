//! Builds the textbook loop (`i, j, k = 1, 1, 0; while k < 100: if j < 20: j = i; k += 1
//! else: j = k; k += 2; return j`) over variables, turns it into pruned SSA, and prints the
//! dominator tree, the phis and what every read resolved to.
//!
//! `cargo run -p spirthon-ssa --example textbook`

use spirthon_ssa::{construct, dump, verify, Flavour, FunctionBuilder, Operand, Value, Var};

fn main() {
    let (i, j, k) = (Var::new(0), Var::new(1), Var::new(2));
    let mut fb = FunctionBuilder::new();
    let [entry, header, test, exit, then_b, else_b, latch] =
        std::array::from_fn(|_| fb.create_block());
    for (from, to) in [
        (entry, header),
        (header, test),
        (header, exit),
        (test, then_b),
        (test, else_b),
        (then_b, latch),
        (else_b, latch),
        (latch, header),
    ] {
        fb.add_edge(from, to);
    }
    let mut next = 0;
    let mut constant = || {
        next += 1;
        Operand::Value(Value::new(next - 1))
    };
    fb.switch_to_block(entry);
    fb.def_var(i, constant());
    fb.def_var(j, constant());
    fb.def_var(k, constant());
    fb.switch_to_block(header);
    fb.use_var(k); // k < 100
    fb.switch_to_block(test);
    fb.use_var(j); // j < 20
    fb.switch_to_block(then_b);
    let read_i = fb.use_var(i);
    fb.def_var(j, read_i); // j = i
    fb.use_var(k);
    fb.def_var(k, constant()); // k = k + 1
    fb.switch_to_block(else_b);
    let read_k = fb.use_var(k);
    fb.def_var(j, read_k); // j = k
    fb.def_var(k, constant()); // k = k + 2
    fb.switch_to_block(latch);
    fb.switch_to_block(exit);
    fb.use_var(j); // return j
    let f = fb.finish().expect("well-formed");
    let ssa = construct(&f, Flavour::Pruned);
    verify(&f, &ssa).expect("SSA property holds");
    print!("{}", dump(&f, &ssa));
    let placed = |fl| construct(&f, fl).stats().placed;
    println!(
        "phis placed: pruned {}, semi-pruned {}, minimal {}",
        placed(Flavour::Pruned),
        placed(Flavour::SemiPruned),
        placed(Flavour::Minimal)
    );
}

//! Applying SSA construction (the `spirthon-ssa` crate: pruned SSA after Cytron et al. 1991)
//! to a lowered function, and the two errors it finds in the source.
//!
//! - A variable read that no assignment reaches on some path: "`x` may be used before it is
//!   assigned", once per variable, at its first such read.
//! - A func that must return a value whose end is reachable: "missing return".
//!
//! The result is the same CFG with every operand a [`Ref`] (an instruction, a phi, or an
//! undefined value of the variable's type) and `phis` and `reachable` filled.

use spirthon_ir::lowered::Lowered;
use spirthon_ir::{Block, BlockData, Diagnostic, Function, Inst, Operand, PhiData, Ref, Term, Ty};
use spirthon_ssa::{Flavour, Phi, Val};

fn to_ref(v: Val, ty: Ty) -> Ref {
    match v {
        Val::Value(v) => Ref::Inst(v),
        Val::Phi(p) => Ref::Phi(p),
        Val::Undef => Ref::Undef(ty),
    }
}

/// SSA form of one lowered function; its source errors go to `diags`.
pub fn apply(l: Lowered, diags: &mut Vec<Diagnostic>) -> Function<Ref> {
    let ssa = spirthon_ssa::construct(&l.ssa_in, Flavour::Pruned);
    let f = l.func;
    report_undefined(&l.ssa_in, &l.use_spans, &ssa, &f, diags);
    let dom = ssa.dom();
    if let Some(b) = l.fallthrough {
        if dom.is_reachable(b) {
            diags.push(missing_return(&f));
        }
    }
    let resolve = |o: Operand| -> Ref {
        match o {
            Operand::Value(v) => Ref::Inst(v),
            Operand::Use(u) => to_ref(ssa.use_value(u), f.vars[l.ssa_in.use_site(u).1].ty),
        }
    };
    let insts = f
        .insts
        .iter()
        .map(|i| Inst {
            op: i.op,
            ty: i.ty,
            args: i.args.iter().map(|&a| resolve(a)).collect(),
            span: i.span,
            var: i.var,
        })
        .collect();
    let blocks = f
        .blocks
        .iter()
        .map(|b| BlockData {
            insts: b.insts.clone(),
            merge: b.merge,
            term: match &b.term {
                Term::Open | Term::Unreachable => Term::Unreachable,
                Term::Jump(t) => Term::Jump(*t),
                Term::Branch(c, t, e) => Term::Branch(resolve(*c), *t, *e),
                Term::Return(r) => Term::Return(r.map(resolve)),
            },
        })
        .collect();
    let phis = (0..ssa.num_phis())
        .map(|i| {
            let p = Phi::new(i);
            let ty = f.vars[ssa.phi_var(p)].ty;
            PhiData {
                block: ssa.phi_block(p),
                var: ssa.phi_var(p),
                ty,
                args: ssa.phi_args(p).map(|(b, v)| (b, to_ref(v, ty))).collect(),
                live: true,
            }
        })
        .collect();
    let reachable = (0..f.blocks.len())
        .map(|b| dom.is_reachable(Block::new(b)))
        .collect();
    Function {
        name: f.name,
        span: f.span,
        params: f.params,
        ret: f.ret,
        insts,
        blocks,
        order: f.order,
        vars: f.vars,
        phis,
        reachable,
    }
}

/// "may be used before it is assigned", once per variable.
fn report_undefined(
    ssa_in: &spirthon_ssa::Function,
    use_spans: &[spirthon_ir::Span],
    ssa: &spirthon_ssa::Ssa,
    f: &Function<Operand>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut reported = vec![false; f.vars.len()];
    for &u in ssa.maybe_undefined() {
        let var = ssa_in.use_site(u).1;
        if std::mem::replace(&mut reported[var.index()], true) {
            continue;
        }
        let name = &f.vars[var].name;
        diags.push(
            Diagnostic::error(
                use_spans[u.index()],
                format!("`{name}` may be used before it is assigned"),
            )
            .with_label(format!("`{name}` is not assigned on every path to here")),
        );
    }
}

fn missing_return(f: &Function<Operand>) -> Diagnostic {
    Diagnostic::error(
        f.span,
        format!(
            "missing return: `{}` can reach its end without returning a value of type {}",
            f.name,
            f.ret.map_or(String::new(), |t| t.name())
        ),
    )
    .with_help("return a value on every path")
}

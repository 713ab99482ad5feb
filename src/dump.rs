//! Text renderings of the compiled IR for debugging and golden tests: Graphviz of the CFGs
//! with their dominator trees (`--emit dot`), and the SSA text (`--emit ssa`).

use spirthon_ir::cfg::*;

use crate::IrModule;

/// Graphviz of every function: CFG edges solid, dominator-tree edges dashed, phis in the
/// block labels.
pub fn cfg_dot(m: &IrModule) -> String {
    use std::fmt::Write;
    let mut s = String::from("digraph spirthon {\n  node [shape=box, fontname=monospace];\n");
    for (fi, f) in m.functions.iter().enumerate() {
        let _ = writeln!(s, "  subgraph cluster_{fi} {{\n    label=\"{}\";", f.name);
        let mut edges = Vec::new();
        for (b, block) in f.blocks.iter().enumerate() {
            for t in block.term.successors() {
                edges.push((Block::new(b), t));
            }
        }
        let dom = spirthon_mid::dominators(f);
        let block_phis = f.phis_by_block();
        for &b in &f.order {
            if !f.reachable[b] {
                continue;
            }
            let mut label = format!("{b}");
            for &p in &block_phis[b.index()] {
                let phi = &f.phis[p];
                if phi.live {
                    let _ = write!(label, "\\lp{} = phi {}", p.index(), f.vars[phi.var].name);
                }
            }
            match f.blocks[b].merge {
                Merge::Selection(mb) => {
                    let _ = write!(label, "\\lselection, merge {mb}");
                }
                Merge::Loop { merge, cont } => {
                    let _ = write!(label, "\\lloop, merge {merge}, continue {cont}");
                }
                Merge::None => {}
            }
            let _ = writeln!(s, "    f{fi}_{} [label=\"{label}\\l\"];", b.index());
        }
        for &(a, b) in &edges {
            if f.reachable[a] {
                let _ = writeln!(s, "    f{fi}_{} -> f{fi}_{};", a.index(), b.index());
            }
        }
        for &b in &f.order {
            if let Some(i) = dom.idom(b) {
                if i != b {
                    let _ = writeln!(
                        s,
                        "    f{fi}_{} -> f{fi}_{} [style=dashed, color=gray, constraint=false];",
                        i.index(),
                        b.index()
                    );
                }
            }
        }
        s.push_str("  }\n");
    }
    s.push_str("}\n");
    s
}

/// The SSA text of every function (`--emit ssa`, golden `.ssa` files).
pub fn ssa_text(m: &IrModule) -> String {
    m.functions
        .iter()
        .map(spirthon_ir::print::print_ssa)
        .collect::<Vec<_>>()
        .join("\n")
}

//! A text form of functions, for `--emit cfg` / `--emit ssa` and the golden `.ssa` files.
//!
//! ```text
//! fn collatz(i32) -> i32
//! b0:
//!     v3: i32 = cmp.gt v1, c1          # n
//!     branch v3, b1, b2                 [selection, merge b3]
//! ```
//! Constants print inline (`c1` is printed as `1`); phis print first in their block.

use std::fmt::Write;

use crate::cfg::*;

/// Prints a function before SSA: reads of variables show as `$name`.
pub fn print_cfg(f: &Function<Operand>, var_of_use: impl Fn(spirthon_ssa::UseId) -> Var) -> String {
    print_with(f, |o| match *o {
        Operand::Value(v) => value_text(f.inst(v), v),
        Operand::Use(u) => {
            let var = var_of_use(u);
            format!("${}", var_name(&f.vars, var))
        }
    })
}

/// Prints a function in SSA form, with its phis.
pub fn print_ssa(f: &Function<Ref>) -> String {
    print_with(f, |r| ref_text(f, r))
}

fn var_name(vars: &[VarInfo], v: Var) -> String {
    let name = &vars[v.index()].name;
    if name.is_empty() {
        format!("t{}", v.as_u32())
    } else {
        name.clone()
    }
}

fn value_text<O>(inst: &Inst<O>, v: Value) -> String {
    match inst.op {
        Op::Const(c) => c.to_string(),
        _ => format!("v{}", v.as_u32()),
    }
}

fn op_text(op: &Op) -> String {
    match op {
        Op::Const(c) => format!("const {c}"),
        Op::Param(n) => format!("param {n}"),
        Op::Unary(u) => format!("{u:?}").to_lowercase(),
        Op::Binary(b) => format!("{b:?}").to_lowercase(),
        Op::Cmp(c) => format!("cmp.{c:?}").to_lowercase(),
        Op::Select => "select".into(),
        Op::Convert => "convert".into(),
        Op::Math(m) => format!("math.{m:?}").to_lowercase(),
        Op::Load(a) => format!("load a{}", a.0),
        Op::Store(a) => format!("store a{}", a.0),
        Op::LoadField(a, k) => format!("load a{}.{k}", a.0),
        Op::StoreField(a, k) => format!("store a{}.{k}", a.0),
        Op::ArrayLen(a) => format!("len a{}", a.0),
        Op::Builtin(b) => b.python_name().into(),
        Op::Extract(i) => format!("extract {i}"),
        Op::Construct => "construct".into(),
        Op::Bitcast => "bitcast".into(),
        Op::Insert(i) => format!("insert {i}"),
        Op::ExtractAt => "extract_at".into(),
        Op::InsertAt => "insert_at".into(),
        Op::Call(g) => format!("call f{}", g.0),
        Op::OutsideLaunch => "outside_launch".into(),
        Op::LaunchSize => "num_threads".into(),
        Op::ArrayShape(a, k) => format!("shape a{} {k}", a.0),
        Op::Barrier => "barrier".into(),
        Op::Clear(a) => format!("clear a{}", a.0),
        Op::Atomic(op, a) => format!("atomic.{op:?} a{}", a.0).to_lowercase(),
        Op::Fail => "fail".into(),
        Op::Print(site) => format!("print {site}"),
        Op::Failed => "failed".into(),
        Op::Subgroup(op) => format!("subgroup.{op:?}").to_lowercase(),
    }
}

fn print_with<O: Copy>(f: &Function<O>, opnd: impl Fn(&O) -> String) -> String {
    let mut s = String::new();
    let params: Vec<String> = f.params.iter().map(|t| t.name()).collect();
    let _ = write!(s, "fn {}({})", f.name, params.join(", "));
    if let Some(r) = f.ret {
        let _ = write!(s, " -> {r}");
    }
    s.push('\n');
    let block_phis = f.phis_by_block();
    for &b in &f.order {
        let block = f.block(b);
        let unreachable = f.reachable.get(b) == Some(&false);
        let _ = writeln!(
            s,
            "{b}:{}",
            if unreachable { "    # unreachable" } else { "" }
        );
        for &p in &block_phis[b.index()] {
            let (i, phi) = (p.index(), &f.phis[p]);
            if !phi.live {
                continue;
            }
            let args: Vec<String> = phi
                .args
                .iter()
                .map(|(p, r)| format!("[{p}: {}]", ref_text(f, r)))
                .collect();
            let _ = writeln!(
                s,
                "    p{i}: {} = phi {}    # {}",
                phi.ty,
                args.join(", "),
                var_name(&f.vars, phi.var)
            );
        }
        for &v in &block.insts {
            let inst = f.inst(v);
            let args: Vec<String> = inst.args.iter().map(&opnd).collect();
            let mut line = match inst.ty {
                Some(t) => format!("    v{}: {t} = {}", v.as_u32(), op_text(&inst.op)),
                None => format!("    {}", op_text(&inst.op)),
            };
            if !args.is_empty() {
                let _ = write!(line, " {}", args.join(", "));
            }
            if let Some(var) = inst.var {
                let _ = write!(line, "    # {}", var_name(&f.vars, var));
            }
            s.push_str(&line);
            s.push('\n');
        }
        let term = match &block.term {
            Term::Open => "open".to_string(),
            Term::Jump(t) => format!("jump {t}"),
            Term::Branch(c, t, e) => format!("branch {}, {t}, {e}", opnd(c)),
            Term::Switch(c, d, cases) => {
                let cases: Vec<String> = cases.iter().map(|(v, b)| format!("{v}: {b}")).collect();
                format!("switch {}, default {d}, [{}]", opnd(c), cases.join(", "))
            }
            Term::Return(None) => "return".to_string(),
            Term::Return(Some(r)) => format!("return {}", opnd(r)),
            Term::Unreachable => "unreachable".to_string(),
        };
        let merge = match block.merge {
            Merge::None => String::new(),
            Merge::Selection(m) => format!("    [selection, merge {m}]"),
            Merge::Loop { merge, cont } => format!("    [loop, merge {merge}, continue {cont}]"),
        };
        let _ = writeln!(s, "    {term}{merge}");
    }
    s
}

fn ref_text<O: Copy>(f: &Function<O>, r: &Ref) -> String {
    match *r {
        Ref::Inst(v) => value_text(f.inst(v), v),
        Ref::Phi(p) => format!("p{}", p.as_u32()),
        Ref::Undef(t) => format!("undef:{t}"),
    }
}

//! spirthon's frontend: Python source to SSA-form functions, ready for a backend.
//!
//! ```text
//! source --parse--> Ast --module::resolve--> ModuleInfo --lower--> Function<Operand>
//!        --spirthon_ssa::construct--> Function<Ref> --opt::optimize--> Module
//! ```
//! Each step returns diagnostics instead of printing; [`compile`] stops after a step that
//! reported errors, so every error a user sees is about their source, not a consequence.

pub mod ast;
pub mod fast;
pub mod lit;
pub mod lower;
pub mod module;
pub mod parse;

use std::collections::HashMap;
use std::time::Instant;

use spirthon_ir::cfg::*;
use spirthon_ir::{opt, Diagnostic, Scalar, Ty};
use spirthon_ssa::{Flavour, Val};

use lower::{Ctx, Lowered};
use module::ParamKind;

/// What a caller wants besides the module.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Compile only this kernel.
    pub kernel: Option<String>,
    /// Keep the text of each function before SSA (`--emit cfg`).
    pub keep_cfg: bool,
}

/// The frontend's result.
#[derive(Clone, Debug)]
pub struct Output {
    pub module: Module,
    /// The parsed AST, for `--emit ast`.
    pub ast: ast::Ast,
    /// Per function, its CFG before SSA, when asked for.
    pub cfg_text: Vec<String>,
    /// Time spent in each phase: parse, check, lower, ssa (with folding and dead code).
    pub phases: [(&'static str, std::time::Duration); 4],
}

/// Compiles a kernel file to SSA form.
pub fn compile(source: &str, path: &str, opts: &Options) -> Result<Output, Vec<Diagnostic>> {
    let t0 = Instant::now();
    let (ast, parse_diags) = parse::parse(source, path)?;
    let t1 = Instant::now();
    let (info, mut diags) = module::resolve(&ast);
    if !diags.is_empty() {
        let mut all = parse_diags;
        all.append(&mut diags);
        return Err(all);
    }
    let mut cx = Ctx {
        ast: &ast,
        m: &info,
        arrays: Vec::new(),
        jobs: Vec::new(),
        job_ids: HashMap::new(),
        diags: parse_diags,
    };
    let mut entry_points = Vec::new();
    for (d, sig) in info.defs.iter().enumerate() {
        if !sig.is_kernel || opts.kernel.as_ref().is_some_and(|k| *k != sig.name) {
            continue;
        }
        let arrays = cx.add_arrays(sig);
        let mut uniforms = Vec::new();
        let mut offset = 0u32;
        for p in &sig.params {
            if let ParamKind::Scalar(ty) = p.kind {
                uniforms.push(UniformField {
                    name: p.name.clone(),
                    ty,
                    offset,
                });
                offset += 4;
            }
        }
        // The hidden launch size: a uvec3, 16-byte aligned in std140.
        uniforms.push(UniformField {
            name: "threads".into(),
            ty: Ty::Vector(Scalar::U32, 3),
            offset: offset.next_multiple_of(16),
        });
        let function = cx.instance(d, arrays.clone());
        entry_points.push(EntryPoint {
            name: sig.name.clone(),
            function,
            workgroup_size: sig.workgroup_size,
            uniforms,
            arrays,
        });
    }
    if opts.kernel.is_none() && entry_points.is_empty() && cx.diags.is_empty() {
        let span = spirthon_ir::Span::new(0, 0);
        return Err(vec![Diagnostic::error(span, "this file has no `@kernel` to compile")
            .with_help("mark an entry point with `@kernel` (from spirthon); a file of `@func`s alone is a library with nothing to run")]);
    }
    if let Some(k) = &opts.kernel {
        if entry_points.is_empty() {
            let span = spirthon_ir::Span::new(0, 0);
            let names: Vec<String> = info
                .defs
                .iter()
                .filter(|s| s.is_kernel)
                .map(|s| format!("`{}`", s.name))
                .collect();
            let help = match names.len() {
                0 => "the file has no `@kernel`".to_string(),
                1 => format!("its kernel is {}", names[0]),
                _ => format!("its kernels are {}", names.join(", ")),
            };
            return Err(vec![Diagnostic::error(
                span,
                format!("no kernel named `{k}` in this file"),
            )
            .with_help(help)]);
        }
    }
    let t2 = Instant::now();
    let mut lowered = Vec::new();
    let mut cfg_text = Vec::new();
    while lowered.len() < cx.jobs.len() {
        let l = lower::lower_function(&mut cx, FuncId(lowered.len() as u32));
        if opts.keep_cfg {
            let f = &l.ssa_in;
            cfg_text.push(spirthon_ir::print::print_cfg(&l.func, |u| f.use_site(u).1));
        }
        lowered.push(l);
    }
    let t3 = Instant::now();
    let mut functions: Vec<Function<Ref>> = lowered
        .into_iter()
        .map(|l| to_ssa(l, &mut cx.diags))
        .collect();
    check_unused_defs(&ast, &info, &cx.jobs, &mut cx.diags);
    if !cx.diags.is_empty() {
        return Err(cx.diags);
    }
    let mut arrays = cx.arrays;
    for f in &mut functions {
        opt::optimize(f);
        cx.diags
            .extend(spirthon_ir::checks::constant_faults(f, &arrays));
        for (b, block) in f.blocks.iter().enumerate() {
            if !f.reachable[b] {
                continue;
            }
            for &v in &block.insts {
                if let Op::Store(a) = f.insts[v.index()].op {
                    arrays[a.index()].written = true;
                }
            }
        }
    }
    if !cx.diags.is_empty() {
        return Err(cx.diags);
    }
    Ok(Output {
        module: Module {
            arrays,
            functions,
            entry_points,
        },
        ast,
        cfg_text,
        phases: [
            ("parse", t1 - t0),
            ("check", t2 - t1),
            ("lower", t3 - t2),
            ("ssa", t3.elapsed()),
        ],
    })
}

/// Checks every kernel and func that no compiled kernel reaches, so that their errors are
/// reported too: each is lowered (with stand-in arrays) and put through SSA construction,
/// and only the diagnostics are kept.
fn check_unused_defs(
    ast: &ast::Ast,
    info: &module::ModuleInfo,
    done: &[(usize, Vec<ArrayId>)],
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: Vec<bool> = vec![false; info.defs.len()];
    for (d, _) in done {
        seen[*d] = true;
    }
    for (d, sig) in info.defs.iter().enumerate() {
        if seen[d] {
            continue;
        }
        let mut cx = Ctx {
            ast,
            m: info,
            arrays: Vec::new(),
            jobs: Vec::new(),
            job_ids: HashMap::new(),
            diags: Vec::new(),
        };
        let arrays = cx.add_arrays(sig);
        cx.instance(d, arrays);
        let mut next = 0;
        while next < cx.jobs.len() {
            seen[cx.jobs[next].0] = true;
            let l = lower::lower_function(&mut cx, FuncId(next as u32));
            to_ssa(l, &mut cx.diags);
            next += 1;
        }
        diags.append(&mut cx.diags);
    }
}

/// SSA construction for one lowered function, with its diagnostics.
fn to_ssa(l: Lowered, diags: &mut Vec<Diagnostic>) -> Function<Ref> {
    let ssa = spirthon_ssa::construct(&l.ssa_in, Flavour::Pruned);
    let f = l.func;
    let mut reported = vec![false; f.vars.len()];
    for &u in ssa.maybe_undefined() {
        let var = l.ssa_in.use_site(u).1;
        if std::mem::replace(&mut reported[var.index()], true) {
            continue;
        }
        let name = &f.vars[var.index()].name;
        diags.push(
            Diagnostic::error(
                l.use_spans[u.index()],
                format!("`{name}` may be used before it is assigned"),
            )
            .with_label(format!("`{name}` is not assigned on every path to here")),
        );
    }
    let dom = ssa.dom();
    if let Some(b) = l.fallthrough {
        if dom.is_reachable(b) {
            diags.push(
                Diagnostic::error(
                    f.span,
                    format!(
                        "missing return: `{}` can reach its end without returning a value of type {}",
                        f.name,
                        f.ret.map_or(String::new(), |t| t.name())
                    ),
                )
                .with_help("return a value on every path"),
            );
        }
    }
    let resolve = |o: Operand| -> Ref {
        let ty = |u| f.vars[l.ssa_in.use_site(u).1.index()].ty;
        match o {
            Operand::Value(v) => Ref::Inst(v),
            Operand::Use(u) => match ssa.use_value(u) {
                Val::Value(v) => Ref::Inst(v),
                Val::Phi(p) => Ref::Phi(p),
                Val::Undef => Ref::Undef(ty(u)),
            },
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
                Term::Open => Term::Unreachable,
                Term::Jump(t) => Term::Jump(*t),
                Term::Branch(c, t, e) => Term::Branch(resolve(*c), *t, *e),
                Term::Return(r) => Term::Return(r.map(resolve)),
                Term::Unreachable => Term::Unreachable,
            },
        })
        .collect();
    let phis = (0..ssa.num_phis())
        .map(|i| {
            let p = spirthon_ssa::Phi::new(i);
            let ty = f.vars[ssa.phi_var(p).index()].ty;
            PhiData {
                block: ssa.phi_block(p),
                var: ssa.phi_var(p),
                ty,
                args: ssa
                    .phi_args(p)
                    .map(|(b, v)| {
                        (
                            b,
                            match v {
                                Val::Value(v) => Ref::Inst(v),
                                Val::Phi(q) => Ref::Phi(q),
                                Val::Undef => Ref::Undef(ty),
                            },
                        )
                    })
                    .collect(),
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
        dom: Some(ssa.into_dom()),
    }
}

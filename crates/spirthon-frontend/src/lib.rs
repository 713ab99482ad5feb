//! spirthon's frontend: Python source to typed functions over variables, ready for the
//! middle end (`spirthon-mid`).
//!
//! ```text
//! source --parse--> Ast --module::resolve--> ModuleInfo --lower--> Program (Function<Operand>s)
//! ```
//! Each step returns diagnostics instead of printing; [`compile`] stops after a step that
//! reported errors, so every error a user sees is about their source, not a consequence.
//! Lowering's own errors travel in [`Program::diags`], so that the middle end reports them
//! together with what SSA construction finds (a use before assignment, a missing return).

pub mod ast;
pub mod fast;
pub mod lit;
pub mod lower;
pub mod module;
pub mod parse;

use std::sync::Arc;
use std::time::{Duration, Instant};

use spirthon_ir::cfg::*;
use spirthon_ir::lowered::{KernelDecl, Lowered, Program};
use spirthon_ir::Diagnostic;

use lower::Ctx;
use module::ParamKind;

/// What a caller wants besides the module.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Compile only this kernel.
    pub kernel: Option<String>,
    /// Keep the text of each function before SSA (`--emit cfg`).
    pub keep_cfg: bool,
    /// Checked mode (`--checked`): bounds, division-by-zero and `assert` checks at run time.
    pub checked: bool,
    /// The file is a Python program that launches its kernels (the `spirthon` package
    /// compiling in-process): its other imports are the CPU side's, not errors.
    pub host_imports: bool,
    /// The types of generic kernels' specializations to compile: per request, the kernel
    /// and a type for each of its generic names (`("add", [("T", "f32")])`).
    pub types: Vec<(String, Vec<(String, String)>)>,
    /// The file is checked for the reference executor, which runs it under CPython:
    /// `breakpoint()` statements are allowed there (they debug on CPython only) and compile
    /// to nothing. Everything else is held to the same rules (`print` too: it prints the
    /// same text on both devices).
    pub cpython: bool,
    /// Only the kernel compiled (and what it calls): the file's other kernels and funcs are
    /// not lowered for their diagnostics. For a text whose other defs were checked already
    /// (a kernel's adjoint, appended to its file, which compiled first).
    pub only_reached: bool,
    /// The workgroup size of the kernel compiled (`kernel`, and its specializations), in
    /// place of the one its decorator gives: a launch that chooses its block size
    /// (`kernel[griddim, blockdim]` in the Python library, which passes it only for a kernel
    /// that declares none). One to three positive sizes, 1024 invocations at most.
    pub workgroup_size: Option<[u32; 3]>,
}

/// A parsed file: its AST, shared (the Python library keeps the parses of the texts it
/// compiles kernels from, so that each kernel of a file does not parse it again), and the
/// diagnostics of the constructs the parser rejected.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub ast: Arc<ast::Ast>,
    pub diags: Vec<Diagnostic>,
    /// How long the parse took.
    pub time: Duration,
}

/// Parses a kernel file: its syntax error, or the AST with the diagnostics of rejected
/// constructs (which later stages report with theirs).
pub fn parse_file(source: &str, path: &str) -> Result<Parsed, Vec<Diagnostic>> {
    let t0 = Instant::now();
    let (ast, diags) = parse::parse(source, path)?;
    Ok(Parsed {
        ast: Arc::new(ast),
        diags,
        time: t0.elapsed(),
    })
}

/// The frontend's result.
#[derive(Clone, Debug)]
pub struct Output {
    pub program: Program,
    /// The parsed AST, for `--emit ast`.
    pub ast: Arc<ast::Ast>,
    /// Per function, its CFG before SSA, when asked for.
    pub cfg_text: Vec<String>,
    /// Time spent in each phase: parse, check, lower.
    pub phases: [(&'static str, std::time::Duration); 3],
}

/// Parses, checks and lowers a kernel file.
pub fn compile(source: &str, path: &str, opts: &Options) -> Result<Output, Vec<Diagnostic>> {
    compile_parsed(&parse_file(source, path)?, source, opts)
}

/// Checks and lowers a kernel file parsed by [`parse_file`] from `source`.
pub fn compile_parsed(
    parsed: &Parsed,
    source: &str,
    opts: &Options,
) -> Result<Output, Vec<Diagnostic>> {
    let t1 = Instant::now();
    let ast = &*parsed.ast;
    let parse_diags = parsed.diags.clone();
    let (info, mut diags) = module::resolve(ast, opts.host_imports);
    if !diags.is_empty() {
        let mut all = parse_diags;
        all.append(&mut diags);
        return Err(all);
    }
    let mut info = info;
    let mut diags = specializations(&mut info, opts);
    diags.extend(launch_workgroup_size(&mut info, opts));
    if !diags.is_empty() {
        let mut all = parse_diags;
        all.append(&mut diags);
        return Err(all);
    }
    // The return types of funcs written without one, from their `return`s; then the
    // lowering. A call of a generic func whose specialization does not exist yet asks for
    // it (`ModuleInfo::wanted`): it is made, and the file lowered again (each round makes
    // the specializations one more level of calls down; calls cannot recurse).
    let mut returns_diags = Vec::new();
    let mut rounds = 0;
    loop {
        returns_diags.extend(lower::infer_returns(ast, &mut info, opts.cpython));
        if rounds < MAX_SPECIALIZATION_ROUNDS && make_wanted(&mut info) {
            rounds += 1;
            continue;
        }
        let mut all = parse_diags.clone();
        all.extend(returns_diags.iter().cloned());
        let (program, cfg_text, t2) = lower_all(ast, &info, opts, source, all)?;
        if rounds < MAX_SPECIALIZATION_ROUNDS && make_wanted(&mut info) {
            rounds += 1;
            continue;
        }
        let t3 = Instant::now();
        return Ok(Output {
            program,
            ast: parsed.ast.clone(),
            cfg_text,
            phases: [
                ("parse", parsed.time),
                ("check", t2 - t1),
                ("lower", t3 - t2),
            ],
        });
    }
}

/// The most rounds of specializing generic funcs (each goes one level of calls deeper).
const MAX_SPECIALIZATION_ROUNDS: usize = 64;

/// Makes the specializations of generic funcs that a lowering asked for; whether there
/// were any.
fn make_wanted(info: &mut module::ModuleInfo) -> bool {
    let wanted = std::mem::take(&mut *info.wanted.borrow_mut());
    for (d, kinds) in &wanted {
        info.specialize_func(*d, kinds.clone());
    }
    !wanted.is_empty()
}

/// Lowers the kernels (and the funcs they call, and the defs no kernel reaches, for their
/// errors) into a program; `diags` are those found before. Also the time the check ended.
fn lower_all(
    ast: &ast::Ast,
    info: &module::ModuleInfo,
    opts: &Options,
    source: &str,
    diags: Vec<Diagnostic>,
) -> Result<(Program, Vec<String>, Instant), Vec<Diagnostic>> {
    let mut cx = Ctx::new(ast, info, opts.checked, opts.cpython);
    cx.diags = diags;
    let entry_points = kernels(&mut cx, info, opts, source)?;
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
    let checked = if opts.only_reached {
        Vec::new()
    } else {
        lower_unused_defs(ast, info, &cx.jobs, &mut cx.diags, opts.cpython)
    };
    let (diags, warnings) = cx.diags.into_iter().partition(Diagnostic::is_error);
    let program = Program {
        arrays: cx.arrays,
        functions: lowered,
        kernels: entry_points,
        checked,
        diags,
        warnings,
        checked_mode: opts.checked,
        checks: cx.checks,
        prints: cx.prints,
    };
    Ok((program, cfg_text, t2))
}

/// Gives the kernel compiled the workgroup size `opts.workgroup_size` asks for (with its
/// specializations, made before); an error when it is not one a device runs.
fn launch_workgroup_size(info: &mut module::ModuleInfo, opts: &Options) -> Option<Diagnostic> {
    let wg = opts.workgroup_size?;
    let span = spirthon_ir::Span::new(0, 0);
    let Some(kernel) = &opts.kernel else {
        return Some(Diagnostic::error(
            span,
            "a launch's workgroup size is given, but no kernel is named",
        ));
    };
    let total: u64 = wg.iter().map(|&n| u64::from(n)).product();
    if wg.contains(&0) || total > 1024 {
        return Some(Diagnostic::error(span, format!("a launch's workgroup size is {} x {} x {}: it must be positive, 1024 invocations at most", wg[0], wg[1], wg[2])));
    }
    for sig in &mut info.defs {
        let generic = sig.specializes.as_ref().map(|s| &s.kernel);
        if sig.is_kernel && (sig.name == *kernel || generic == Some(kernel)) {
            sig.workgroup_size = wg;
        }
    }
    None
}

/// Adds the specializations `opts.types` asks for; the errors in them.
fn specializations(info: &mut module::ModuleInfo, opts: &Options) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for (kernel, types) in &opts.types {
        // An empty name: the file's only generic kernel (a run JSON that names none).
        let found = if kernel.is_empty() {
            let generic: Vec<usize> = (0..info.defs.len())
                .filter(|&d| info.defs[d].is_generic())
                .collect();
            match generic[..] {
                [d] => Some(d),
                [] => None,
                _ => {
                    diags.push(
                        Diagnostic::error(
                            spirthon_ir::Span::new(0, 0),
                            "types are given, but the file has several generic kernels",
                        )
                        .with_help("name the kernel (\"kernel\" in the run JSON, or --kernel)"),
                    );
                    continue;
                }
            }
        } else {
            info.defs
                .iter()
                .position(|s| s.is_kernel && s.specializes.is_none() && s.name == *kernel)
        };
        let Some(d) = found else {
            let names: Vec<String> = info
                .defs
                .iter()
                .filter(|s| s.is_generic())
                .map(|s| format!("`{}`", s.name))
                .collect();
            let help = match names.len() {
                0 => "the file has no generic kernel".to_string(),
                _ => format!("its generic kernels: {}", names.join(", ")),
            };
            diags.push(
                Diagnostic::error(
                    spirthon_ir::Span::new(0, 0),
                    match kernel.as_str() {
                        "" => "types are given, but the file has no generic kernel".to_string(),
                        k => format!(
                            "types are given for `{k}`, but no kernel of this file has that name"
                        ),
                    },
                )
                .with_help(help),
            );
            continue;
        };
        let sig = &info.defs[d];
        if !sig.is_generic() {
            diags.push(
                Diagnostic::error(sig.span, format!("types are given for kernel `{kernel}`, which is not generic"))
                    .with_note("a kernel is generic when a parameter has no annotation, or `Any` or a `TypeVar` in it")
                    .with_help("compile it without types"),
            );
            continue;
        }
        let at = sig.span;
        if let Err(e) = info.specialize(d, types, at) {
            diags.push(e);
        }
    }
    diags
}

/// Declares the kernels to compile (all, or the one `opts` names) and queues their bodies
/// in `cx`; an error when there is none to compile.
fn kernels(
    cx: &mut Ctx<'_>,
    info: &module::ModuleInfo,
    opts: &Options,
    source: &str,
) -> Result<Vec<KernelDecl>, Vec<Diagnostic>> {
    let mut entry_points = Vec::new();
    for (d, sig) in info.defs.iter().enumerate() {
        let generic_name = sig.specializes.as_ref().map(|s| &s.kernel);
        if !sig.is_kernel
            || opts
                .kernel
                .as_ref()
                .is_some_and(|k| *k != sig.name && Some(k) != generic_name)
        {
            continue;
        }
        if sig.is_generic() {
            let given = info
                .defs
                .iter()
                .any(|s| s.specializes.as_ref().is_some_and(|g| g.kernel == sig.name));
            if !given {
                cx.diags.push(unspecialized(info, d));
            }
            continue;
        }
        let arrays = cx.add_arrays(sig);
        let scalars = sig
            .params
            .iter()
            .flat_map(|p| match p.kind {
                ParamKind::Value(ty) => vec![(p.name.clone(), ty)],
                // A struct parameter: its leaves, each a uniform field (`p.vel`).
                ParamKind::Struct(id) => info
                    .strukt(id)
                    .leaves
                    .iter()
                    .map(|l| (format!("{}.{}", p.name, l.path), l.ty))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let function = cx.instance(d, arrays.clone());
        entry_points.push(KernelDecl {
            name: sig.name.clone(),
            specializes: sig.specializes.clone(),
            function,
            workgroup_size: sig.workgroup_size,
            scalars,
            arrays,
        });
    }
    if !entry_points.is_empty() {
        return Ok(entry_points);
    }
    let span = spirthon_ir::Span::new(0, 0);
    match &opts.kernel {
        None if !cx.diags.iter().any(Diagnostic::is_error) => Err(vec![misspelt_decorator(source)
            .unwrap_or_else(|| Diagnostic::error(span, "this file has no `@kernel` to compile")
                .with_help("mark an entry point with `@kernel` (from spirthon); a file of `@func`s alone is a library with nothing to run"))]),
        None => Ok(entry_points),
        Some(k) => {
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
            Err(vec![Diagnostic::error(
                span,
                format!("no kernel named `{k}` in this file"),
            )
            .with_help(help)])
        }
    }
}

/// The error for generic kernel `d` compiled without types.
fn unspecialized(info: &module::ModuleInfo, d: usize) -> Diagnostic {
    let sig = &info.defs[d];
    let names = info.generic_names(d);
    // An element's or a value's type is a number type; a whole parameter's may be an array.
    let example: Vec<String> = names
        .iter()
        .map(|n| {
            let whole = sig
                .generic
                .iter()
                .any(|g| g.var == *n && g.use_ == module::GenericUse::Whole);
            format!("{n}={}", if whole { "TYPE" } else { "f32" })
        })
        .collect();
    let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    Diagnostic::error(
        sig.span,
        format!(
            "kernel `{}` is generic ({}), so it compiles only for given types",
            sig.name,
            listed.join(", ")
        ),
    )
    .with_help(format!(
        "give them with `--types '{}:{}'`, as `\"types\"` in the run JSON, or launch it from Python, which takes them from the arguments",
        sig.name,
        example.join(",")
    ))
    .with_note("a type is spelled as an annotation: `f32`, `vec3`, `Array[f32]`, `Array2D[u8]`, a struct's name")
}

/// Lowers every kernel and func that no compiled kernel reaches (with stand-in arrays), so
/// that their errors are reported too: lowering's go to `diags`, and the functions come back
/// for the middle end to put through SSA construction for its own.
fn lower_unused_defs(
    ast: &ast::Ast,
    info: &module::ModuleInfo,
    done: &[(usize, Vec<ArrayId>)],
    diags: &mut Vec<Diagnostic>,
    cpython: bool,
) -> Vec<Lowered> {
    let mut out = Vec::new();
    let mut seen: Vec<bool> = vec![false; info.defs.len()];
    for (d, _) in done {
        seen[*d] = true;
    }
    for (d, sig) in info.defs.iter().enumerate() {
        if seen[d] || sig.is_generic() {
            continue;
        }
        let mut cx = Ctx::new(ast, info, false, cpython);
        let arrays = cx.add_arrays(sig);
        cx.instance(d, arrays);
        let mut next = 0;
        while next < cx.jobs.len() {
            seen[cx.jobs[next].0] = true;
            out.push(lower::lower_function(&mut cx, FuncId(next as u32)));
            next += 1;
        }
        diags.append(&mut cx.diags);
    }
    out
}

/// When a file has no `@kernel`, a decorator spelt nearly so (`@kernal`, `@Kernel`,
/// `@sp.kernels`) is the likely reason: the error for it, at the decorator.
fn misspelt_decorator(source: &str) -> Option<Diagnostic> {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix('@') else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let last = name.rsplit('.').next().unwrap_or("");
        if last != "kernel" && last != "func" && near(&last.to_lowercase(), "kernel") {
            let at = (start + line.len() - trimmed.len()) as u32;
            return Some(
                Diagnostic::error(
                    spirthon_ir::Span::new(at, at + 1 + name.len() as u32),
                    format!("`@{name}` is not spirthon's `@kernel`, and this file has no `@kernel` to compile"),
                )
                .with_help("write `@kernel` (from spirthon) to mark an entry point"),
            );
        }
    }
    None
}

/// Whether `a` is within two single-character edits of `b` (Levenshtein distance).
fn near(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()] <= 2
}

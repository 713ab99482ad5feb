//! The spirthon driver: source text to validated SPIR-V words, and the renderings the CLI
//! prints (diagnostics, reflection JSON, CFG dumps). Nothing here prints or exits; the
//! binary does.

use std::time::{Duration, Instant};

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use serde_json::json;
use spirthon_ir::cfg::*;
use spirthon_ir::{Diagnostic, LineIndex, Ty};

pub use spirthon_frontend::ast::Ast;

pub mod translate;
pub use spirthon_ir::Module as IrModule;

/// What to compile and how.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub kernel: Option<String>,
    /// Run naga's frontend and validator over the result (the default).
    pub validate: bool,
    /// Emit `OpName`s.
    pub names: bool,
    /// Keep each function's pre-SSA CFG text.
    pub keep_cfg: bool,
    /// Checked mode (`--checked`).
    pub checked: bool,
    /// Imports of other modules are the CPU side's (a program compiling its own kernels).
    pub host_imports: bool,
    /// `--fast-math`: the device's own `math` functions (see `spirthon_spirv::EmitOptions`).
    pub fast_math: bool,
    /// Checking a file the reference executor runs (see `spirthon_frontend::Options`).
    pub cpython: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            kernel: None,
            validate: true,
            names: true,
            keep_cfg: false,
            checked: false,
            host_imports: false,
            fast_math: false,
            cpython: false,
        }
    }
}

/// A compiled file.
pub struct Compiled {
    pub words: Vec<u32>,
    pub module: IrModule,
    pub ast: Ast,
    pub cfg_text: Vec<String>,
    /// Warnings, in source order (the file compiled).
    pub warnings: Vec<Diagnostic>,
    /// parse, check, lower, ssa, emit, validate.
    pub phases: Vec<(&'static str, Duration)>,
}

#[derive(Debug)]
pub enum CompileError {
    /// The source has errors.
    Source(Vec<Diagnostic>),
    /// The compiler produced something invalid: a bug.
    Internal(String),
}

/// Compiles a kernel file.
pub fn compile(source: &str, path: &str, opts: &CompileOptions) -> Result<Compiled, CompileError> {
    let fopts = spirthon_frontend::Options {
        kernel: opts.kernel.clone(),
        keep_cfg: opts.keep_cfg,
        checked: opts.checked,
        host_imports: opts.host_imports,
        cpython: opts.cpython,
    };
    let mut out = spirthon_frontend::compile(source, path, &fopts).map_err(source_error)?;
    let mut phases: Vec<(&'static str, Duration)> = out.phases.to_vec();
    let mut warnings = std::mem::take(&mut out.program.warnings);
    warnings.sort_by_key(|d| d.primary.span.start);
    let t = Instant::now();
    let module = spirthon_mid::run(out.program).map_err(|e| match e {
        spirthon_mid::MidError::Source(mut d) => {
            d.extend(warnings.iter().cloned());
            source_error(d)
        }
        spirthon_mid::MidError::Invalid { after, message } => {
            CompileError::Internal(format!("the IR is invalid after {after}: {message}"))
        }
    })?;
    phases.push(("ssa", t.elapsed()));
    let t = Instant::now();
    let emit_opts = spirthon_spirv::EmitOptions {
        names: opts.names,
        fast_math: opts.fast_math,
    };
    let words =
        spirthon_spirv::emit(&module, emit_opts).map_err(|e| CompileError::Internal(e.0))?;
    phases.push(("emit", t.elapsed()));
    let t = Instant::now();
    if opts.validate {
        if let Err(e) = spirthon_spirv::validate(&words) {
            let kernels: Vec<&str> = module
                .entry_points
                .iter()
                .map(|e| e.name.as_str())
                .collect();
            return Err(CompileError::Internal(format!(
                "the module for kernel(s) {} is invalid: {e}",
                kernels.join(", ")
            )));
        }
    }
    phases.push(("validate", t.elapsed()));
    Ok(Compiled {
        words,
        module,
        ast: out.ast,
        cfg_text: out.cfg_text,
        warnings,
        phases,
    })
}

/// Source errors in source order, each once: a func compiled once per set of arrays it is
/// called with reports its errors once.
fn source_error(mut d: Vec<Diagnostic>) -> CompileError {
    d.sort_by_key(|d| d.primary.span.start);
    d.dedup_by(|a, b| a.primary.span == b.primary.span && a.message == b.message);
    CompileError::Source(d)
}

/// Renders diagnostics in rustc's style.
pub fn render_diagnostics(diags: &[Diagnostic], source: &str, path: &str, color: bool) -> String {
    let shown = Printable::of(source);
    let path = printable(path);
    let file = SimpleFile::new(path.as_ref(), shown.text.as_ref());
    let config = term::Config::default();
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for d in diags {
        let d = shown.diagnostic(d);
        let _ = term::emit(&mut buf, &config, &file, &to_codespan(&d, shown.text.len()));
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// The most bytes a kernel file may have (a device, a FIFO or `/dev/urandom` stops here).
pub const MAX_SOURCE: u64 = 64 << 20;

/// A kernel file that cannot be compiled as it is read.
#[derive(Debug)]
pub enum ReadError {
    /// It cannot be read, or is too large: the message (exit status 2).
    Io(String),
    /// It is not UTF-8: a located error over the text as shown (exit status 1).
    NotUtf8 {
        shown: String,
        diagnostic: Box<Diagnostic>,
    },
}

/// The bytes of `file` (named `path` in messages): at most `limit`, read no further (a
/// device, a FIFO or `/dev/zero` stops there), else an error that `what` (`"a kernel file"`)
/// can be no larger. The runners read their kernel files and run inputs so.
pub fn read_bounded(
    file: &std::path::Path,
    path: &str,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{path} is larger than {} MiB, more than {what} can be",
            limit >> 20
        ));
    }
    Ok(bytes)
}

/// What both runners print for a compiler bug (exit status 101).
pub fn internal_error_text(e: &str) -> String {
    format!("error: internal compiler error: {e}\nnote: this is a bug in spirthon; nothing was written\n")
}

/// Reads a kernel file as both runners do: at most [`MAX_SOURCE`] bytes, and UTF-8 as Python
/// source is, with a located error at the first byte that is not. Old Mac line ends (a lone
/// CR) become LF: the same length, so every offset still points at the same byte, and lines
/// are counted as Python counts them. `path` is the file as messages name it.
pub fn read_source(file: &std::path::Path, path: &str) -> Result<String, ReadError> {
    let mut bytes = read_bounded(file, path, MAX_SOURCE, "a kernel file").map_err(ReadError::Io)?;
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[at];
        // Everything before `at` is valid, so offsets up to it are the same in the lossy
        // text shown.
        let shown = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let end = shown[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        let diagnostic = Diagnostic::error(
            spirthon_ir::Span::new(at as u32, end as u32),
            "the file is not valid UTF-8",
        )
        .with_label(format!("byte 0x{byte:02x}"))
        .with_help("Python source is UTF-8: save the file as UTF-8");
        ReadError::NotUtf8 {
            shown,
            diagnostic: Box::new(diagnostic),
        }
    })
}

/// The errors of a file that did not compile, as `spirthon` prints them: each diagnostic,
/// then a line that counts the errors. Both runners print exactly this.
pub fn render_failure(diags: &[Diagnostic], source: &str, path: &str, color: bool) -> String {
    let mut text = render_diagnostics(diags, source, path, color);
    let n = diags.iter().filter(|d| d.is_error()).count();
    text.push_str(&format!(
        "error: could not compile `{}` due to {n} error{}\n",
        printable(path),
        if n == 1 { "" } else { "s" }
    ));
    text
}

/// A control character as something a terminal shows instead of obeying: its Unicode
/// control picture (`␛` for ESC, as rustc prints it), U+FFFD for the C1 controls; `None`
/// for a character that is printed as it is (line ends and tabs too).
fn control_picture(c: char) -> Option<char> {
    match c {
        '\n' | '\r' | '\t' => None,
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// `text` with its control characters shown as [`control_picture`]s.
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| control_picture(c).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| control_picture(c).unwrap_or(c))
        .collect::<String>()
        .into()
}

/// A source as a diagnostic shows it: its control characters (an ESC that would start a
/// terminal escape sequence, a BEL) as pictures, and spans moved to match (a picture takes
/// more bytes than the character it stands for; columns, in characters, do not change).
struct Printable<'s> {
    text: std::borrow::Cow<'s, str>,
    /// (offset in the source just past a replaced character, bytes added up to there).
    shifts: Vec<(u32, u32)>,
}

impl<'s> Printable<'s> {
    fn of(source: &'s str) -> Printable<'s> {
        let text = printable(source);
        let mut shifts = Vec::new();
        if let std::borrow::Cow::Owned(_) = text {
            let mut added = 0u32;
            for (at, c) in source.char_indices() {
                if let Some(p) = control_picture(c) {
                    added += (p.len_utf8() - c.len_utf8()) as u32;
                    shifts.push(((at + c.len_utf8()) as u32, added));
                }
            }
        }
        Printable { text, shifts }
    }

    fn offset(&self, at: u32) -> u32 {
        let k = self.shifts.partition_point(|&(past, _)| past <= at);
        at + k.checked_sub(1).map_or(0, |k| self.shifts[k].1)
    }

    fn span(&self, s: spirthon_ir::Span) -> spirthon_ir::Span {
        spirthon_ir::Span::new(self.offset(s.start), self.offset(s.end))
    }

    /// `d` over the shown text: spans moved, messages' control characters as pictures.
    fn diagnostic(&self, d: &Diagnostic) -> Diagnostic {
        let mut d = d.clone();
        d.message = printable(&d.message).into_owned();
        d.primary.span = self.span(d.primary.span);
        d.primary.message = printable(&d.primary.message).into_owned();
        for l in &mut d.secondary {
            l.span = self.span(l.span);
            l.message = printable(&l.message).into_owned();
        }
        for n in &mut d.notes {
            *n = printable(n).into_owned();
        }
        d
    }
}

fn clamp(span: spirthon_ir::Span, len: usize) -> std::ops::Range<usize> {
    let s = (span.start as usize).min(len);
    let e = (span.end as usize).clamp(s, len);
    s..e
}

fn to_codespan(d: &Diagnostic, len: usize) -> CsDiagnostic<()> {
    let mut labels =
        vec![CsLabel::primary((), clamp(d.primary.span, len))
            .with_message(d.primary.message.clone())];
    for l in &d.secondary {
        labels.push(CsLabel::secondary((), clamp(l.span, len)).with_message(l.message.clone()));
    }
    let head = if d.is_error() {
        CsDiagnostic::error()
    } else {
        CsDiagnostic::warning()
    };
    head.with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

/// Diagnostics as JSON lines, for editors: one object per diagnostic.
pub fn diagnostics_json(diags: &[Diagnostic], source: &str, path: &str) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    for d in diags {
        let pos = |s: spirthon_ir::Span| {
            let (l, c) = index.line_col(source, s.start);
            let (el, ec) = index.line_col(source, s.end);
            json!({"file": path, "line": l, "column": c, "end_line": el, "end_column": ec, "byte_start": s.start, "byte_end": s.end})
        };
        let secondary: Vec<_> = d
            .secondary
            .iter()
            .map(|l| json!({"span": pos(l.span), "label": l.message}))
            .collect();
        let v = json!({
            "severity": if d.is_error() { "error" } else { "warning" },
            "message": d.message,
            "span": pos(d.primary.span),
            "label": d.primary.message,
            "secondary": secondary,
            "notes": d.notes,
        });
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

fn type_name(t: Ty) -> String {
    t.name()
}

/// The reflection JSON of `--emit reflect`: per kernel, its workgroup size and bindings;
/// for a checked module, the error buffer and every check site (located in `source`).
pub fn reflect_json(m: &IrModule, source: &str) -> String {
    let kernels: Vec<_> = m
        .entry_points
        .iter()
        .map(|ep| {
            let mut bindings = Vec::new();
            let u = &ep.uniform;
            let fields: Vec<_> = u
                .members()
                .map(|(name, ty, offset, hidden)| json!({"name": name, "type": type_name(ty), "offset": offset, "hidden": hidden}))
                .collect();
            // The hidden members again as data, so that a host need not parse their names.
            let shapes: Vec<_> = u
                .shapes
                .iter()
                .map(|f| json!({"array": m.arrays[f.array].name, "axis": f.axis, "offset": f.offset}))
                .collect();
            bindings.push(json!({"binding": 0, "name": "params", "kind": "uniform", "size": u.size(), "fields": fields, "threads": u.threads, "shapes": shapes}));
            for &a in &ep.arrays {
                let arr = &m.arrays[a];
                bindings.push(json!({"binding": arr.binding, "name": arr.name, "kind": "storage", "type": type_name(arr.elem), "read_only": !arr.written}));
            }
            json!({"name": ep.name, "workgroup_size": ep.workgroup_size, "bindings": bindings})
        })
        .collect();
    let mut out = json!({ "kernels": kernels });
    if m.checked {
        out["checks"] = checks_json(m, source);
    }
    serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
}

/// The error buffer of a checked module and its check sites, by id.
fn checks_json(m: &IrModule, source: &str) -> serde_json::Value {
    use spirthon_ir::{CheckKind, ErrorBuffer};
    let lines = LineIndex::new(source);
    let sites: Vec<_> = m
        .checks
        .iter()
        .enumerate()
        .map(|(id, s)| {
            let (line, column) = lines.line_col(source, s.span.start);
            let mut site = json!({"site": id, "kind": s.kind_name(), "line": line, "column": column, "span": [s.span.start, s.span.end]});
            match &s.kind {
                CheckKind::Index { array, axis } => {
                    site["array"] = json!(array);
                    if let Some(k) = axis {
                        site["axis"] = json!(k);
                    }
                }
                CheckKind::ZeroDivision { modulo } => {
                    site["operator"] = json!(if *modulo { "%" } else { "//" })
                }
                CheckKind::Assert { message } => site["message"] = json!(message),
            }
            site
        })
        .collect();
    json!({
        "set": ErrorBuffer::SET,
        "binding": ErrorBuffer::BINDING,
        "size": ErrorBuffer::SIZE,
        "words": ["count", "first", "next", "pad"],
        "first_initial": u32::MAX,
        "records": ErrorBuffer::RECORDS,
        "record_words": ["key", "site", "index", "len"],
        "sites": sites,
    })
}

/// The check sites of a checked module's reflection JSON (`--emit reflect`), by id, as the
/// module has them: what a host needs to report a failure from the error buffer alone.
pub fn checks_from_reflection(reflection: &str) -> Result<Vec<spirthon_ir::CheckSite>, String> {
    use serde_json::Value;
    use spirthon_ir::{CheckKind, CheckSite, Span};
    let v: Value = serde_json::from_str(reflection).map_err(|e| e.to_string())?;
    let Some(sites) = v["checks"]["sites"].as_array() else {
        return Ok(Vec::new());
    };
    let text = |s: &Value, key: &str| s[key].as_str().map(str::to_string);
    sites
        .iter()
        .map(|s| {
            let at = |k: usize| s["span"][k].as_u64().and_then(|n| u32::try_from(n).ok());
            let (Some(start), Some(end)) = (at(0), at(1)) else {
                return Err(format!("site {} has no span", s["site"]));
            };
            let kind = match s["kind"].as_str() {
                Some("index") => CheckKind::Index {
                    array: text(s, "array").unwrap_or_default(),
                    axis: s["axis"].as_u64().map(|k| k as u32),
                },
                Some("zero_division") => CheckKind::ZeroDivision {
                    modulo: s["operator"] == "%",
                },
                Some("assert") => CheckKind::Assert {
                    message: text(s, "message"),
                },
                other => return Err(format!("unknown check kind {other:?}")),
            };
            Ok(CheckSite {
                kind,
                span: Span { start, end },
            })
        })
        .collect()
}

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

/// Running a compiled kernel on a device with the run JSON (`spirthon run`).
pub mod run {
    use serde_json::Value;
    pub use spirthon_runtime::{Gpu, RunError, Shader};

    /// A run's output object and timings.
    pub struct Ran {
        pub output: Value,
        pub dispatch: std::time::Duration,
        pub plan: spirthon_runtime::inputs::Plan,
        /// A checked run's first failure (see [`spirthon_ir::checks`]).
        pub failure: Option<spirthon_ir::Failure>,
        /// The module's check sites, to report `failure` with.
        pub checks: Vec<spirthon_ir::CheckSite>,
    }

    impl Ran {
        /// A checked run's first failure as `spirthon run --checked` reports it (`path` and
        /// `source` are the kernel file's).
        pub fn failure_report(&self, path: &str, source: &str) -> Option<String> {
            let l = &self.plan.launch;
            let f = self.failure.as_ref()?;
            Some(f.report(&self.checks, path, source, l.workgroups(), l.workgroup_size))
        }
    }

    /// The launch of the kernel that `inputs` (or `kernel`) names: checks the inputs
    /// without touching the GPU stack.
    pub fn plan(
        compiled: &super::Compiled,
        inputs: &Value,
        kernel: Option<&str>,
    ) -> Result<spirthon_runtime::inputs::Plan, RunError> {
        let ep = spirthon_runtime::inputs::entry_point(&compiled.module, inputs, kernel)?;
        spirthon_runtime::inputs::plan(&compiled.module, ep, inputs)
    }

    /// Runs a planned launch of a compiled file on `gpu`. `repeat` extra dispatches time the
    /// kernel (the fastest is reported).
    pub fn run_plan(
        gpu: &Gpu,
        compiled: &super::Compiled,
        plan: spirthon_runtime::inputs::Plan,
        repeat: usize,
    ) -> Result<Ran, RunError> {
        let outcome = gpu.run(Shader::SpirV(&compiled.words), &plan.launch, repeat)?;
        Ok(Ran {
            output: spirthon_runtime::inputs::output(&plan, &outcome),
            dispatch: outcome.dispatch,
            plan,
            failure: outcome
                .errors
                .as_deref()
                .and_then(spirthon_ir::Failure::decode),
            checks: compiled.module.checks.clone(),
        })
    }

    /// [`plan`], then [`run_plan`].
    pub fn run_compiled(
        gpu: &Gpu,
        compiled: &super::Compiled,
        inputs: &Value,
        kernel: Option<&str>,
        repeat: usize,
    ) -> Result<Ran, RunError> {
        let plan = plan(compiled, inputs, kernel)?;
        run_plan(gpu, compiled, plan, repeat)
    }

    /// The CPython reference executor's output (`python3 -m spirthon run`, with the package
    /// from `python_dir`) for a kernel file and a run-JSON file.
    pub fn cpython(
        python_dir: &std::path::Path,
        py: &std::path::Path,
        inputs: &std::path::Path,
    ) -> Result<Value, String> {
        let out = std::process::Command::new("python3")
            .args(["-m", "spirthon", "run"])
            .arg(py)
            .arg("--inputs")
            .arg(inputs)
            .env("PYTHONPATH", python_dir)
            .output()
            .map_err(|e| format!("cannot run python3: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "the reference executor failed on {}: {}",
                py.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("the reference executor printed bad JSON: {e}"))
    }
}

/// Comparing two run outputs the way the differential tests do.
pub mod compare {
    use serde_json::Value;

    /// Relative tolerance for floats of kernels that call functions computed to the
    /// device's precision (docs/language.md), with an absolute floor.
    pub const REL: f64 = 1e-4;
    pub const ABS: f64 = 1e-5;
    /// ULPs allowed between float32 results of kernels of arithmetic alone: the reference
    /// executor computes in float32 as the GPU does, and Vulkan allows division 2.5 ULP.
    pub const ULPS: u64 = 4;

    /// How close two float results must be.
    #[derive(Copy, Clone, Debug, PartialEq)]
    pub enum Tolerance {
        /// Within this many float32 ULPs (units in the last place).
        Ulps(u64),
        /// Within `REL` relative, or `ABS` absolute.
        Relative,
    }

    /// Whether `word` names a function whose device results are not exact (the built-in
    /// table's precision of it: Vulkan gives it an error bound of ULPs, or the module's own
    /// stays within 4, and later arithmetic can magnify either); a kernel that calls one is
    /// compared within `Relative`, any other within `Ulps(ULPS)`.
    fn inexact(word: &str) -> bool {
        spirthon_ir::library::inexact_names().any(|n| n == word)
    }

    impl Tolerance {
        /// The tolerance for the kernel file `source`: `Relative` when it calls a function of
        /// `inexact` or raises to a power that is not a literal int, else `Ulps(ULPS)`.
        pub fn for_source(source: &str) -> Tolerance {
            let mut inexact = source
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(inexact);
            // `x ** y` with a float or run-time exponent is `pow`.
            inexact |= source.match_indices("**").any(|(at, _)| {
                let rest = source[at + 2..].trim_start();
                let rest = rest.strip_prefix('-').unwrap_or(rest);
                !rest.starts_with(|c: char| c.is_ascii_digit()) || {
                    let n: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                        .collect();
                    n.contains('.') || n.contains('e')
                }
            });
            if inexact {
                Tolerance::Relative
            } else {
                Tolerance::Ulps(ULPS)
            }
        }
    }

    /// The distance in float32 ULPs between two floats (each rounded to float32); equal
    /// values (and `0.0`, `-0.0`) are 0 apart.
    pub fn ulps(p: f64, q: f64) -> u64 {
        let key = |x: f64| {
            let b = (x as f32).to_bits();
            // Ordered so that adjacent floats are adjacent integers across zero.
            if b & 0x8000_0000 != 0 {
                -i64::from(b & 0x7FFF_FFFF)
            } else {
                i64::from(b)
            }
        };
        key(p).abs_diff(key(q))
    }

    /// The gap between the float32 `|x|` and the next larger float32.
    pub fn ulp_of(x: f64) -> f64 {
        let a = (x.abs() as f32).min(f32::MAX);
        f64::from(f32::from_bits(a.to_bits() + 1)) - f64::from(a)
    }

    /// The largest finite magnitude among the floats of `v` (numbers nested in lists and
    /// objects), by an explicit stack.
    fn float_scale(v: &Value) -> f64 {
        let mut worst: f64 = 0.0;
        let mut work = vec![v];
        while let Some(v) = work.pop() {
            match v {
                Value::Number(n) if n.is_f64() => {
                    let x = n.as_f64().unwrap_or(0.0).abs();
                    if x.is_finite() {
                        worst = worst.max(x);
                    }
                }
                Value::Array(items) => work.extend(items),
                Value::Object(m) => work.extend(m.values()),
                _ => {}
            }
        }
        worst
    }

    /// Compares the `args` of two outputs: ints exactly, floats within `tol`,
    /// `"nan"`/`"inf"` strings exactly. Returns the largest float error (ULPs, or relative
    /// error or absolute under the floor), or the first mismatch.
    ///
    /// Within `Ulps(n)`, two floats agree when they are at most `n` ULPs apart, or when
    /// they differ by at most `n` ULPs of the run's scale (the largest float magnitude of
    /// the arrays, read or written). The second case is a sum that cancels: a driver may
    /// reassociate `a*c + b*c` into `(a + b)*c` although the module forbids it (lavapipe
    /// does), which moves a cancelling result by a few ULPs of its terms, not of itself.
    pub fn outputs(gpu: &Value, reference: &Value, tol: Tolerance) -> Result<f64, String> {
        let (Some(a), Some(b)) = (gpu["args"].as_object(), reference["args"].as_object()) else {
            return Err("an output has no \"args\" object".into());
        };
        let mut names: Vec<&String> = a.keys().collect();
        names.sort();
        let mut theirs: Vec<&String> = b.keys().collect();
        theirs.sort();
        if names != theirs {
            return Err(format!("different arrays: {names:?} vs {theirs:?}"));
        }
        let mut worst: f64 = 0.0;
        let scale = ulp_of(float_scale(&gpu["args"]).max(float_scale(&reference["args"])));
        for name in names {
            let (Some(x), Some(y)) = (a[name].as_array(), b[name].as_array()) else {
                return Err(format!("`{name}` is not a list in both"));
            };
            if x.len() != y.len() {
                return Err(format!("`{name}` has {} elements vs {}", x.len(), y.len()));
            }
            // Rows of a multi-dimensional array and vector elements are lists: their items are
            // compared one by one (an explicit stack; the nesting is at most four deep).
            let mut pairs: Vec<(String, &Value, &Value)> = Vec::new();
            let mut work: Vec<(String, &Value, &Value)> = x
                .iter()
                .zip(y)
                .enumerate()
                .rev()
                .map(|(i, (p, q))| (i.to_string(), p, q))
                .collect();
            while let Some((at, p, q)) = work.pop() {
                match (p, q) {
                    (Value::Array(ps), Value::Array(qs)) if ps.len() == qs.len() => work.extend(
                        ps.iter()
                            .zip(qs)
                            .enumerate()
                            .rev()
                            .map(|(k, (a, b))| (format!("{at}][{k}"), a, b)),
                    ),
                    _ => pairs.push((at, p, q)),
                }
            }
            for (i, p, q) in pairs {
                let bad = || format!("`{name}[{i}]`: GPU {p}, CPython {q}");
                match (p, q) {
                    (Value::Number(p), Value::Number(q)) if p.is_f64() || q.is_f64() => {
                        let (p, q) = (
                            p.as_f64().unwrap_or(f64::NAN),
                            q.as_f64().unwrap_or(f64::NAN),
                        );
                        let (err, limit) = match tol {
                            Tolerance::Ulps(n) if (p - q).abs() <= n as f64 * scale => (0.0, 0.0),
                            Tolerance::Ulps(n) => (ulps(p, q) as f64, n as f64),
                            Tolerance::Relative => {
                                let diff = (p - q).abs();
                                let err = if diff <= ABS {
                                    0.0
                                } else {
                                    diff / q.abs().max(p.abs())
                                };
                                (err, REL)
                            }
                        };
                        if err.is_nan() || err > limit {
                            return Err(match tol {
                                Tolerance::Ulps(_) => format!("{} ({err} ULPs apart)", bad()),
                                Tolerance::Relative => bad(),
                            });
                        }
                        worst = worst.max(err);
                    }
                    (Value::Number(p2), Value::Number(q2)) => {
                        if p2.as_i64() != q2.as_i64() || p2.as_u64() != q2.as_u64() {
                            return Err(bad());
                        }
                    }
                    _ if p == q => {}
                    _ => return Err(bad()),
                }
            }
        }
        Ok(worst)
    }
}

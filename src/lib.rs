//! The spirthon driver: source text to validated SPIR-V words ([`compile`], through the
//! frontend, the middle end and the backend), and, each in its module, what the runners
//! print and read: [`diagnostics`], [`source`] (reading kernel files), [`reflect`] (the
//! reflection JSON), [`dump`] (CFG and SSA text), [`run`] (a kernel on a device with the run
//! JSON), [`translate`] (other shading languages). Nothing here prints or exits; the
//! binaries do.

use std::time::{Duration, Instant};

use spirthon_ir::Diagnostic;

pub use spirthon_frontend::ast::Ast;
pub use spirthon_frontend::Parsed;

/// Parses a kernel file for [`compile_parsed`]: its errors when it has a syntax error.
pub fn parse(source: &str, path: &str) -> Result<Parsed, CompileError> {
    spirthon_frontend::parse_file(source, path).map_err(source_error)
}

pub mod diagnostics;
pub mod dump;
pub mod output;
pub mod reflect;
pub mod run;
pub mod source;
#[cfg(feature = "translate")]
pub mod translate;
pub use spirthon_ir::Module as IrModule;

pub use diagnostics::{diagnostics_json, internal_error_text, render_diagnostics, render_failure};
pub use dump::{cfg_dot, ssa_text};
pub use reflect::{checks_from_reflection, prints_from_reflection, reflect_json};
pub use source::{read_bounded, read_source, ReadError, MAX_SOURCE};

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
    /// Generic kernels' specializations to compile (see `spirthon_frontend::Options`).
    pub types: Vec<(String, Vec<(String, String)>)>,
    /// Diagnose only what the kernel reaches (see `spirthon_frontend::Options`).
    pub only_reached: bool,
    /// The kernel's workgroup size from its launch (see `spirthon_frontend::Options`).
    pub workgroup_size: Option<[u32; 3]>,
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
            types: Vec::new(),
            only_reached: false,
            workgroup_size: None,
        }
    }
}

/// A `--types` value: `KERNEL:NAME=TYPE,NAME=TYPE` (commas inside brackets belong to the
/// type) as the kernel and its (name, type) pairs.
#[allow(clippy::type_complexity)]
pub fn parse_types(spec: &str) -> Result<(String, Vec<(String, String)>), String> {
    let Some((kernel, rest)) = spec.split_once(':') else {
        return Err("expected KERNEL:NAME=TYPE,... (for example `add:T=f32`)".into());
    };
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&rest[start..]);
    let mut types = Vec::new();
    for p in parts {
        let Some((name, ty)) = p.split_once('=') else {
            return Err(format!("`{p}` is not NAME=TYPE"));
        };
        types.push((name.trim().to_string(), ty.trim().to_string()));
    }
    Ok((kernel.trim().to_string(), types))
}

/// A compiled file.
pub struct Compiled {
    pub words: Vec<u32>,
    pub module: IrModule,
    pub ast: std::sync::Arc<Ast>,
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
    compile_parsed(&parse(source, path)?, source, path, opts)
}

/// Compiles a kernel file that [`parse`] parsed from `source` (a caller that compiles
/// several kernels of one text parses it once).
pub fn compile_parsed(
    parsed: &Parsed,
    source: &str,
    path: &str,
    opts: &CompileOptions,
) -> Result<Compiled, CompileError> {
    let fopts = spirthon_frontend::Options {
        kernel: opts.kernel.clone(),
        keep_cfg: opts.keep_cfg,
        checked: opts.checked,
        host_imports: opts.host_imports,
        cpython: opts.cpython,
        types: opts.types.clone(),
        only_reached: opts.only_reached,
        workgroup_size: opts.workgroup_size,
    };
    let mut out =
        spirthon_frontend::compile_parsed(parsed, source, &fopts).map_err(source_error)?;
    let mut phases: Vec<(&'static str, Duration)> = out.phases.to_vec();
    let mut warnings = std::mem::take(&mut out.program.warnings);
    warnings.sort_by_key(|d| d.primary.span.start);
    let t = Instant::now();
    let module = spirthon_mid::run(out.program).map_err(|e| match e {
        spirthon_mid::MidError::Source(mut d) => {
            d.extend(warnings.iter().cloned());
            source_error(d)
        }
        spirthon_mid::MidError::Invalid {
            after,
            message,
            span,
        } => {
            let at = span.map_or(String::new(), |sp| {
                let (line, col) = spirthon_ir::LineIndex::new(source).line_col(source, sp.start);
                format!(" (at {path}:{line}:{col})")
            });
            CompileError::Internal(format!("the IR is invalid after {after}: {message}{at}"))
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

//! The `spirthon` command line.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
use spirthon::{CompileError, CompileOptions};

/// A line on stderr. A closed stderr (`2>&1 | head -c 100`) is no reason to stop, let alone
/// to panic as `eprintln!` does: the line is dropped and the run ends with its own status.
macro_rules! say {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// Text on stderr, as [`say!`] without the line end.
macro_rules! say_raw {
    ($($t:tt)*) => {{
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
enum Emit {
    /// SPIR-V binary.
    Spv,
    /// SPIR-V assembly, ids named after Python variables.
    Spvasm,
    /// Per kernel: workgroup size and bindings, as JSON.
    Reflect,
    /// WGSL (WebGPU), through naga.
    Wgsl,
    /// Metal Shading Language, through naga.
    Msl,
    /// HLSL (Direct3D), through naga.
    Hlsl,
    /// GLSL 4.30 (OpenGL), one translation unit per kernel, through naga.
    Glsl,
    /// The parsed, restricted AST.
    Ast,
    /// Each function's CFG before SSA.
    Cfg,
    /// Each function in SSA form, after folding and dead-code removal.
    Ssa,
    /// Graphviz of each function's CFG with its dominator tree and phis.
    CfgDot,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
enum ErrorFormat {
    Human,
    Json,
}

const EXAMPLES: &str = "\
Examples:
  spirthon saxpy.py -o saxpy.spv            compile every @kernel of saxpy.py
  spirthon saxpy.py --kernel saxpy -o -     one kernel, SPIR-V to stdout
  spirthon saxpy.py --emit spvasm           readable SPIR-V on stdout
  spirthon saxpy.py --emit reflect          bindings and workgroup sizes as JSON
  spirthon saxpy.py --emit cfg-dot | dot -Tsvg > saxpy.svg

Run a kernel on the GPU: spirthon run FILE --inputs IN.json (see `spirthon run --help`).

Exit status: 0 success, 1 the source has errors, 2 usage or I/O error,
101 internal compiler error.";

/// Compiles GPU kernels written in Python to SPIR-V compute shaders.
#[derive(Parser, Debug)]
#[command(name = "spirthon", version, about, after_help = EXAMPLES)]
struct Cli {
    /// The kernel file.
    file: PathBuf,
    /// Where to write the result ('-' for stdout). Default: FILE with a .spv extension for
    /// `--emit spv`, stdout for the text forms.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Compile only this kernel.
    #[arg(long)]
    kernel: Option<String>,
    /// A generic kernel's types: `KERNEL:NAME=TYPE,...` (a name is a parameter's, or a
    /// TypeVar's: `add:T=f32`, `scale:x=Array2D[f32],k=f32`); repeat for more
    /// specializations.
    #[arg(long, value_name = "KERNEL:NAME=TYPE,...")]
    types: Vec<String>,
    /// What to produce.
    #[arg(long, value_enum, default_value = "spv")]
    emit: Emit,
    /// Skip the in-process naga validation of the result.
    #[arg(long)]
    no_validate: bool,
    /// Leave out OpName debug names.
    #[arg(long)]
    strip: bool,
    /// How to print errors.
    #[arg(long, value_enum, default_value = "human")]
    error_format: ErrorFormat,
    /// Checked mode: bounds checks on every array access, division-by-zero checks and
    /// `assert`, reported through a hidden error buffer (set 1, binding 0).
    #[arg(long)]
    checked: bool,
    /// Use the device's math functions instead of the module's own (the list: `--help`).
    #[arg(long)]
    fast_math: bool,
    /// The file is a program, not only a kernel file: its imports of other modules
    /// (`import numpy as np`) are the CPU side's, as when `kernel.launch` compiles it.
    #[arg(long)]
    program: bool,
}

/// `--fast-math`'s long help, from the built-in table: the functions it hands to the device.
fn fast_math_help() -> String {
    use spirthon_ir::library::{with_precision, Module, Precision};
    let names: Vec<&str> = with_precision(Module::Math, Precision::Own).collect();
    let always: Vec<&str> = with_precision(Module::Math, Precision::OwnAlways).collect();
    format!(
        "Use the device's own {} (GLSL.std.450: Vulkan allows some of them thousands of ULP of \
         error) instead of the module's, which stay within a few ULP; OpFRem for fmod, float % \
         and // instead of the module's exact remainder; and let the driver fuse a * b + c (no \
         NoContraction). The module's own {} stay, as the device has no instruction for them.",
        english_list(&names),
        english_list(&always)
    )
}

/// `a, b and c`.
fn english_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Runs a kernel on a Vulkan (or Metal) device with a run-JSON file.
#[derive(Parser, Debug)]
#[command(name = "spirthon run", version, after_help = RUN_EXAMPLES)]
struct RunCli {
    /// The kernel file.
    file: PathBuf,
    /// The run JSON: {"kernel": ..., "threads": [...], "args": {...}}.
    #[arg(long)]
    inputs: PathBuf,
    /// The kernel to run (default: the input's "kernel", or the file's only kernel).
    #[arg(long)]
    kernel: Option<String>,
    /// Write the output JSON here instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Use the first adapter whose name contains this (also SPIRTHON_ADAPTER).
    #[arg(long, env = "SPIRTHON_ADAPTER")]
    adapter: Option<String>,
    /// Print the adapter on stderr.
    #[arg(short, long)]
    verbose: bool,
    /// Checked mode: a failing bounds, division or `assert` check stops with Python's error
    /// and its line (exit status 1).
    #[arg(long)]
    checked: bool,
    /// The device's own math functions (see `spirthon --help`).
    #[arg(long)]
    fast_math: bool,
    /// The file is a program, not only a kernel file: its imports of other modules
    /// (`import numpy as np`) are the CPU side's, as when `kernel.launch` compiles it.
    #[arg(long)]
    program: bool,
    /// Give up when the device has not finished (the driver's compile and the dispatch)
    /// after this many seconds; 0 waits forever (also SPIRTHON_TIMEOUT).
    #[arg(
        long,
        env = "SPIRTHON_TIMEOUT",
        default_value_t = 60,
        value_name = "SECONDS"
    )]
    timeout: u64,
}

const RUN_EXAMPLES: &str = "\
Examples:
  spirthon run shaders/saxpy.py --inputs shaders/saxpy.inputs.json
  spirthon run blur.py --inputs in.json --out out.json -v
  python3 -m spirthon run shaders/saxpy.py --inputs shaders/saxpy.inputs.json   (CPython)

The first hardware GPU is used, else a CPU Vulkan implementation (Mesa's lavapipe).";

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        say!("error: internal compiler error: {info}");
        say!("note: this is a bug in spirthon; please report it with the input file");
    }));
    // Arguments are OS strings throughout: a path need not be valid UTF-8.
    if std::env::args_os().nth(1).is_some_and(|a| a == "run") {
        spirthon_runtime::quiet_vulkan_loader();
        return match RunCli::try_parse_from(std::env::args_os().skip(1)) {
            Ok(cli) => on_big_stack(move || run_kernel(&cli)),
            Err(e) => usage_error(e),
        };
    }
    let command = Cli::command().mut_arg("fast_math", |a| a.long_help(fast_math_help()));
    match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => on_big_stack(move || run(&cli)),
        Err(e) => usage_error(e),
    }
}

/// Prints clap's message; `--help` and `--version` are successes, the rest usage errors.
fn usage_error(e: clap::Error) -> ExitCode {
    let _ = e.print();
    ExitCode::from(if e.use_stderr() { 2 } else { 0 })
}

/// Runs `job` on a thread with a large stack: deeply nested input is bounded by the parser's
/// nesting limits, and the stack keeps the third-party parser safe on it as well. A panic
/// (reported by the hook as an internal compiler error) exits 101.
fn on_big_stack(job: impl FnOnce() -> u8 + Send + 'static) -> ExitCode {
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(job);
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(101),
    }
}

/// Reads a kernel file (see [`spirthon::read_source`]), printing what is wrong; `Err` is the
/// exit code.
fn read_source(file: &Path, path: &str, json_errors: bool) -> Result<String, u8> {
    match spirthon::read_source(file, path) {
        Ok(s) => Ok(s),
        Err(spirthon::ReadError::Io(m)) => {
            say!("error: {m}");
            Err(2)
        }
        Err(spirthon::ReadError::NotUtf8 { shown, diagnostic }) => {
            if json_errors {
                say_raw!(
                    "{}",
                    spirthon::diagnostics_json(&[*diagnostic], &shown, path)
                );
            } else {
                let color =
                    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                say_raw!(
                    "{}",
                    spirthon::render_diagnostics(&[*diagnostic], &shown, path, color)
                );
            }
            Err(1)
        }
    }
}

fn compile_file(
    file: &Path,
    opts: &CompileOptions,
    json_errors: bool,
) -> Result<(spirthon::Compiled, String), u8> {
    let path = file.display().to_string();
    let source = read_source(file, &path, json_errors)?;
    match spirthon::compile(&source, &path, opts) {
        Ok(c) => {
            if !c.warnings.is_empty() {
                if json_errors {
                    say_raw!(
                        "{}",
                        spirthon::diagnostics_json(&c.warnings, &source, &path)
                    );
                } else {
                    let color =
                        std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                    say_raw!(
                        "{}",
                        spirthon::render_diagnostics(&c.warnings, &source, &path, color)
                    );
                }
            }
            Ok((c, source))
        }
        Err(CompileError::Source(diags)) => {
            if json_errors {
                say_raw!("{}", spirthon::diagnostics_json(&diags, &source, &path));
            } else {
                let color =
                    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                say_raw!(
                    "{}",
                    spirthon::render_failure(&diags, &source, &path, color)
                );
            }
            Err(1)
        }
        Err(CompileError::Internal(e)) => {
            say_raw!("{}", spirthon::internal_error_text(&e));
            Err(101)
        }
    }
}

fn run_kernel(cli: &RunCli) -> u8 {
    for input in [&cli.file, &cli.inputs] {
        if cli.out.as_deref().is_some_and(|o| overwrites(o, input)) {
            say!(
                "error: --out {} is an input of the run; nothing was written",
                input.display()
            );
            return 2;
        }
    }
    // A generic kernel's types come from the run JSON's "types" (then only the kernel it
    // names is compiled). The file's errors come before the inputs' (exit status 1, then 2).
    let inputs = read_inputs(&cli.inputs).and_then(|v| {
        let wanted = spirthon::run::wanted_types(&v, cli.kernel.as_deref())?;
        Ok((v, wanted))
    });
    let (kernel, types) = match &inputs {
        Ok((_, wanted)) => wanted.clone(),
        Err(_) => (None, Vec::new()),
    };
    let opts = CompileOptions {
        checked: cli.checked,
        fast_math: cli.fast_math,
        host_imports: cli.program,
        kernel,
        types,
        ..CompileOptions::default()
    };
    let (compiled, source) = match compile_file(&cli.file, &opts, false) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let inputs = match inputs {
        Ok((v, _)) => v,
        Err(message) => {
            say!("error: {message}");
            return 2;
        }
    };
    // Check the inputs before touching the GPU stack.
    let plan = match spirthon::run::plan(&compiled, &inputs, cli.kernel.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            say!("error: {e}");
            return 2;
        }
    };
    // The device work runs on its own thread so that a driver that never finishes (a
    // compiler bug, an endless kernel) costs `--timeout` seconds, not the terminal.
    let (tx, rx) = std::sync::mpsc::channel();
    let adapter = cli.adapter.clone();
    let verbose = cli.verbose;
    let worker = std::thread::Builder::new()
        .name("device".into())
        .spawn(move || {
            let _ = tx.send(on_device(adapter.as_deref(), verbose, &compiled, plan));
        });
    if let Err(e) = worker {
        say!("error: cannot start the device thread: {e}");
        return 2;
    }
    let received = match cli.timeout {
        0 => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        secs => rx.recv_timeout(Duration::from_secs(secs)),
    };
    let ran = match received {
        Ok(Ok(ran)) => ran,
        Ok(Err((code, msg))) => {
            say!("error: {msg}");
            return code;
        }
        Err(RecvTimeoutError::Timeout) => {
            say!(
                "error: the device did not finish within {} s (the driver compiling the kernel, or the kernel running)",
                cli.timeout
            );
            say!("help: a kernel that loops forever never finishes; give it more time with --timeout SECONDS (0 waits forever)");
            return 1;
        }
        Err(RecvTimeoutError::Disconnected) => {
            say!("error: internal compiler error: the device thread stopped without a result");
            return 101;
        }
    };
    // What the kernel printed comes first, as under CPython, where it prints as it runs.
    if let Some(p) = &ran.printed {
        let code = write_output(Path::new("-"), p.output().as_bytes());
        if code != 0 {
            return code;
        }
    }
    if let Some(report) = ran.failure_report(&cli.file.display().to_string(), &source) {
        say!("{report}");
        return 1;
    }
    let text = format!("{}\n", spirthon_runtime::json::text(&ran.output));
    match &cli.out {
        Some(p) => write_output(p, text.as_bytes()),
        None => write_output(Path::new("-"), text.as_bytes()),
    }
}

/// Reads and parses a run-JSON file: at most [`spirthon_runtime::json::MAX_BYTES`] bytes
/// (`/dev/zero` stops there), UTF-8, and JSON as `spirthon_runtime::json` reads it. The
/// messages are those of `python3 -m spirthon run`.
fn read_inputs(path: &Path) -> Result<serde_json::Value, String> {
    use spirthon_runtime::json;
    let shown = path.display();
    let bytes =
        spirthon::read_bounded(path, &shown.to_string(), json::MAX_BYTES, "a run's inputs")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!(
            "{shown} is not UTF-8 text (byte 0x{:02x} at offset {at})",
            e.as_bytes()[at]
        )
    })?;
    json::parse(&text).map_err(|e| format!("{shown} is not valid JSON: {e}"))
}

/// Opens the device and runs `plan` on it: the run's result, or an exit code and message.
fn on_device(
    adapter: Option<&str>,
    verbose: bool,
    compiled: &spirthon::Compiled,
    plan: spirthon_runtime::inputs::Plan,
) -> Result<spirthon::run::Ran, (u8, String)> {
    let gpu = spirthon::run::Gpu::open(adapter).map_err(|e| (2, e.to_string()))?;
    if verbose {
        say!("adapter: {}", gpu.describe());
    }
    spirthon::run::run_plan(&gpu, compiled, plan, 0).map_err(|e| (1, e.to_string()))
}

fn run(cli: &Cli) -> u8 {
    let mut types = Vec::new();
    for spec in &cli.types {
        match spirthon::parse_types(spec) {
            Ok(t) => types.push(t),
            Err(e) => {
                say!("error: --types {spec:?}: {e}");
                return 2;
            }
        }
    }
    let opts = CompileOptions {
        kernel: cli.kernel.clone(),
        validate: !cli.no_validate,
        names: !cli.strip,
        keep_cfg: cli.emit == Emit::Cfg,
        checked: cli.checked,
        host_imports: cli.program,
        fast_math: cli.fast_math,
        cpython: false,
        types,
        only_reached: false,
        workgroup_size: None,
    };
    let (compiled, source) =
        match compile_file(&cli.file, &opts, cli.error_format == ErrorFormat::Json) {
            Ok(c) => c,
            Err(code) => return code,
        };
    let bytes: Vec<u8> = match cli.emit {
        Emit::Spv => compiled
            .words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
        Emit::Spvasm => match spirthon_spirv::disassemble(&compiled.words) {
            Ok(t) => t.into_bytes(),
            Err(e) => {
                say!("error: internal compiler error: cannot disassemble: {e}");
                return 101;
            }
        },
        Emit::Reflect => spirthon::reflect_json(&compiled.module, &source).into_bytes(),
        Emit::Wgsl | Emit::Msl | Emit::Hlsl | Emit::Glsl => {
            use spirthon::translate::Target;
            let target = match cli.emit {
                Emit::Wgsl => Target::Wgsl,
                Emit::Msl => Target::Msl,
                Emit::Hlsl => Target::Hlsl,
                _ => Target::Glsl,
            };
            let kernels = compiled.module.kernel_names();
            let path = cli.file.display().to_string();
            let origin = Some((&compiled.module, source.as_str(), path.as_str()));
            match spirthon::translate::translate(&compiled.words, target, &kernels, origin) {
                Ok(t) => {
                    if target == Target::Wgsl {
                        for k in &kernels {
                            let entry = spirthon::translate::wgsl_entry_name(k);
                            if entry != *k {
                                say!("note: kernel `{k}` is the entry point `{entry}` in this WGSL: `{k}` is a WGSL keyword or built-in name");
                            }
                        }
                    }
                    t.into_bytes()
                }
                Err(spirthon::translate::TranslateError::Unsupported(text)) => {
                    say_raw!("{text}");
                    return 1;
                }
                Err(spirthon::translate::TranslateError::Internal(e)) => {
                    say_raw!("{}", spirthon::internal_error_text(&e));
                    return 101;
                }
            }
        }
        Emit::Ast => spirthon_frontend::ast::dump(&compiled.ast).into_bytes(),
        Emit::Cfg => compiled.cfg_text.join("\n").into_bytes(),
        Emit::Ssa => spirthon::ssa_text(&compiled.module).into_bytes(),
        Emit::CfgDot => spirthon::cfg_dot(&compiled.module).into_bytes(),
    };
    let out = match (&cli.output, cli.emit) {
        (Some(p), _) => p.clone(),
        (None, Emit::Spv) => cli.file.with_extension("spv"),
        (None, _) => PathBuf::from("-"),
    };
    if overwrites(&out, &cli.file) {
        say!(
            "error: the output {} is the kernel file itself; nothing was written",
            out.display()
        );
        return 2;
    }
    write_output(&out, &bytes)
}

/// Whether writing `out` would overwrite the file `input`: the same file by any path, a
/// symbolic link or a hard link to it (the same device and inode).
fn overwrites(out: &Path, input: &Path) -> bool {
    if out == Path::new("-") {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(out), std::fs::metadata(input)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    match (std::fs::canonicalize(out), std::fs::canonicalize(input)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn write_output(out: &Path, bytes: &[u8]) -> u8 {
    if out == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        return match stdout.write_all(bytes).and_then(|_| stdout.flush()) {
            Ok(()) => 0,
            // The reader went away (`| head`): it wanted no more, as with any Unix tool.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                say!("error: cannot write to stdout: {e}");
                2
            }
        };
    }
    match spirthon::output::write_whole(out, bytes) {
        Ok(()) => 0,
        Err(e) => {
            say!("error: cannot write {}: {e}", out.display());
            2
        }
    }
}

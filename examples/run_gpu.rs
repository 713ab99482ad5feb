//! `cargo xtask run-gpu [--checked] [--bench] [--only NAME] [--adapter NAME]`: compiles every kernel of
//! `shaders/`, runs it on the GPU with its `NAME.inputs.json`, checks the result against the
//! CPython reference executor, and prints a table. Exits non-zero on any mismatch. With
//! `--checked` the kernels are compiled in checked mode, and a failed check is a failure.
//!
//! With `--bench`, each kernel and its hand-written WGSL twin (same bindings, through wgpu's
//! WGSL path) are timed on the same data and device (1000 dispatches per submission, the
//! fastest of 9 alternating rounds, per dispatch), and the table gains both times and their ratio
//! (target <= 1.05). With `--bench --checked` the comparison is checked mode against the
//! unchecked module instead: the dispatch-time cost of the checks.

/// The differential tests' comparison (test support, shared).
#[path = "../tests/common/compare.rs"]
mod compare;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use spirthon::run::{Gpu, Shader};

/// When timing (`--bench`): dispatches per submission, and rounds (each times both
/// shaders, alternating; the fastest round of each counts).
const PER_SUBMIT: u32 = 1000;
const ROUNDS: usize = 9;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bench = args.iter().any(|a| a == "--bench");
    let checked = args.iter().any(|a| a == "--checked");
    // `--only NAME`: the kernels whose file name contains NAME.
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let adapter = args
        .iter()
        .position(|a| a == "--adapter")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .or_else(|| std::env::var("SPIRTHON_ADAPTER").ok());
    spirthon_runtime::quiet_vulkan_loader();
    let gpu = match Gpu::open(adapter.as_deref()) {
        Ok(g) => {
            if let Some(n) = g.subgroup_size() {
                let _ = compare::SUBGROUP_SIZE.set(n);
            }
            g
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("shaders"))
        .expect("shaders/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .filter(|p| {
            only.as_deref().is_none_or(|o| {
                p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| s.contains(o))
            })
        })
        .collect();
    files.sort();
    if bench && checked {
        println!("| kernel | device | compile µs | unchecked dispatch ms | checked dispatch ms | ratio | max error | result |");
        println!("|---|---|---:|---:|---:|---:|---:|---|");
    } else if bench {
        println!("| kernel | device | compile µs | spirthon dispatch ms | WGSL dispatch ms | ratio | max error | result |");
        println!("|---|---|---:|---:|---:|---:|---:|---|");
    } else {
        println!("| kernel | device | compile µs | dispatch ms | max error | result |");
        println!("|---|---|---:|---:|---:|---|");
    }
    let mut failed = 0;
    let mut ratios = Vec::new();
    for py in &files {
        match one(&gpu, &root, py, bench, checked) {
            Ok(row) => {
                if let Some(r) = row.ratio {
                    ratios.push(r);
                }
                println!("{}", row.text);
            }
            Err(e) => {
                failed += 1;
                println!(
                    "| {} | | | | FAIL: {e} |",
                    py.file_stem().and_then(|s| s.to_str()).unwrap_or("?")
                );
            }
        }
    }
    if bench && !ratios.is_empty() {
        let geo = (ratios.iter().map(|r: &f64| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let worst = ratios.iter().cloned().fold(0.0, f64::max);
        if checked {
            println!("dispatch time checked/unchecked: geometric mean {geo:.3}, worst {worst:.3}");
        } else {
            println!("dispatch time spirthon/WGSL: geometric mean {geo:.3}, worst {worst:.3} (target <= 1.05 per kernel)");
        }
    }
    if failed > 0 {
        eprintln!("{failed} kernel(s) failed");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

struct Row {
    text: String,
    ratio: Option<f64>,
}

fn one(gpu: &Gpu, root: &Path, py: &Path, bench: bool, checked: bool) -> Result<Row, String> {
    let name = py
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_string();
    let source = std::fs::read_to_string(py).map_err(|e| e.to_string())?;
    let inputs_path = py.with_file_name(format!("{name}.inputs.json"));
    let inputs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&inputs_path).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let opts = spirthon::CompileOptions {
        checked,
        ..Default::default()
    };
    let t = Instant::now();
    let compiled = spirthon::compile(&source, &name, &opts).map_err(|e| format!("{e:?}"))?;
    let compile_us = t.elapsed().as_secs_f64() * 1e6;
    let ran =
        spirthon::run::run_compiled(gpu, &compiled, &inputs, None, 0).map_err(|e| e.to_string())?;
    if let Some(report) = ran.failure_report(&name, &source) {
        return Err(report.replace('\n', " "));
    }
    let reference = compare::cpython(&root.join("python"), py, &inputs_path)?;
    let tol = compare::Tolerance::for_source(&source);
    let err = compare::outputs(&ran.output, &reference, tol)?;
    let err = match tol {
        compare::Tolerance::Ulps(_) => format!("{err} ULP"),
        compare::Tolerance::Relative => format!("{err:.2e} rel"),
    };
    if !bench {
        let ms = ran.dispatch.as_secs_f64() * 1e3;
        return Ok(Row {
            text: format!(
                "| {name} | {} | {compile_us:.0} | {ms:.3} | {err} | pass |",
                gpu.name()
            ),
            ratio: None,
        });
    }
    if checked {
        return checked_cost(gpu, &source, &name, &compiled, &ran, compile_us, err);
    }
    let wgsl = std::fs::read_to_string(py.with_extension("wgsl")).map_err(|e| e.to_string())?;
    let launch = &ran.plan.launch;
    // Alternate the two so that drift in the machine's load affects both alike.
    let (mut ours, mut twin) = (std::time::Duration::MAX, std::time::Duration::MAX);
    for _ in 0..ROUNDS {
        let t = gpu.time(Shader::SpirV(&compiled.words), launch, PER_SUBMIT, 1);
        ours = ours.min(t.map_err(|e| e.to_string())?);
        let t = gpu.time(Shader::Wgsl(&wgsl), launch, PER_SUBMIT, 1);
        twin = twin.min(t.map_err(|e| format!("WGSL twin: {e}"))?);
    }
    let (ms, wms) = (ours.as_secs_f64() * 1e3, twin.as_secs_f64() * 1e3);
    let ratio = ms / wms;
    Ok(Row {
        text: format!(
            "| {name} | {} | {compile_us:.0} | {ms:.4} | {wms:.4} | {ratio:.2} | {err} | pass |",
            gpu.name()
        ),
        ratio: Some(ratio),
    })
}

/// `--bench --checked`: the checked module's dispatch time against the unchecked one's.
fn checked_cost(
    gpu: &Gpu,
    source: &str,
    name: &str,
    compiled: &spirthon::Compiled,
    ran: &spirthon::run::Ran,
    compile_us: f64,
    err: String,
) -> Result<Row, String> {
    let plain =
        spirthon::compile(source, name, &Default::default()).map_err(|e| format!("{e:?}"))?;
    let launch = &ran.plan.launch;
    let unchecked_launch = spirthon_runtime::Launch {
        checked: false,
        ..launch.clone()
    };
    let (mut ours, mut base) = (std::time::Duration::MAX, std::time::Duration::MAX);
    for _ in 0..ROUNDS {
        let t = gpu.time(Shader::SpirV(&compiled.words), launch, PER_SUBMIT, 1);
        ours = ours.min(t.map_err(|e| e.to_string())?);
        let t = gpu.time(
            Shader::SpirV(&plain.words),
            &unchecked_launch,
            PER_SUBMIT,
            1,
        );
        base = base.min(t.map_err(|e| format!("unchecked: {e}"))?);
    }
    let (ms, bms) = (ours.as_secs_f64() * 1e3, base.as_secs_f64() * 1e3);
    let ratio = ms / bms;
    Ok(Row {
        text: format!(
            "| {name} | {} | {compile_us:.0} | {bms:.4} | {ms:.4} | {ratio:.2} | {err} | pass |",
            gpu.name()
        ),
        ratio: Some(ratio),
    })
}

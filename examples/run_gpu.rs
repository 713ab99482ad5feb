//! `cargo xtask run-gpu [--checked] [--bench] [--only NAME] [--adapter NAME]`: compiles every kernel of
//! `shaders/`, runs it on the GPU with its `NAME.inputs.json`, checks the result against the
//! CPython reference executor, and prints a table. Exits non-zero on any mismatch. With
//! `--checked` the kernels are compiled in checked mode, and a failed check is a failure.
//!
//! With `--bench`, each kernel and its hand-written WGSL twin (same bindings, through wgpu's
//! WGSL path) are timed on the same data and device at the size of `NAME.bench.json` (see
//! [`Bench`]; large enough that a dispatch takes milliseconds on lavapipe, so that the code's
//! speed is measured, not the launch), as many dispatches per submission as fill about 50 ms,
//! the fastest of 5 alternating rounds, per dispatch; the table gains both times, their ratio
//! (target <= 1.05), and each one's rate: GB/s for memory-bound kernels, GFLOP/s for
//! compute-bound ones with a known operation count, G items/s for the others, and for GB/s
//! the share of the `copy` kernel's bandwidth (the ceiling). With `--bench --checked` the
//! comparison is checked mode against the unchecked module instead, at the small size: the
//! dispatch-time cost of the checks.

/// The differential tests' comparison (test support, shared).
#[path = "../tests/common/compare.rs"]
mod compare;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use spirthon::run::{Gpu, Shader};
use spirthon_runtime::ArrayData;

/// When timing (`--bench --checked`): dispatches per submission, and rounds (each times
/// both shaders, alternating; the fastest round of each counts).
const PER_SUBMIT: u32 = 1000;
const ROUNDS: usize = 9;
/// When timing at the bench size: the device time a submission aims at, the most
/// dispatches in one, and the rounds.
const SUBMIT_TIME: f64 = 0.05;
const MAX_PER_SUBMIT: u32 = 1000;
const BENCH_ROUNDS: usize = 5;

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
        println!("| kernel | device | threads | compile µs | spirthon dispatch ms | WGSL dispatch ms | ratio | spirthon rate | WGSL rate | of copy | max error | result |");
        println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    } else {
        println!("| kernel | device | compile µs | dispatch ms | max error | result |");
        println!("|---|---|---:|---:|---:|---|");
    }
    let mut failed = 0;
    let mut ratios = Vec::new();
    // The bandwidth ceiling the memory-bound kernels are compared with: the `copy` kernel's
    // (the faster of it and its twin).
    // Its row comes first; the rows after it give their share of its bandwidth.
    let ceiling = match bench && !checked {
        true => match one(
            &gpu,
            &root,
            &root.join("shaders/copy_buffer.py"),
            true,
            false,
            None,
        ) {
            Ok(row) => {
                println!("{}", row.text);
                row.bandwidth
            }
            Err(e) => {
                eprintln!("error: the copy kernel's bench: {e}");
                return ExitCode::FAILURE;
            }
        },
        false => None,
    };
    let copy = root.join("shaders/copy_buffer.py");
    for py in files.iter().filter(|p| ceiling.is_none() || **p != copy) {
        match one(&gpu, &root, py, bench, checked, ceiling) {
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
    println!("floats on {}: {}", gpu.name(), gpu.describe_floats());
    if let Some(c) = ceiling {
        println!(
            "bandwidth ceiling: the copy kernel moves {:.2} GB/s on this device",
            c / 1e9
        );
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
    /// At the bench size, a memory-bound kernel's bytes per second (the faster shader's).
    bandwidth: Option<f64>,
}

fn one(
    gpu: &Gpu,
    root: &Path,
    py: &Path,
    bench: bool,
    checked: bool,
    ceiling: Option<f64>,
) -> Result<Row, String> {
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
            bandwidth: None,
        });
    }
    if checked {
        return checked_cost(gpu, &source, &name, &compiled, &ran, compile_us, err);
    }
    let wgsl = std::fs::read_to_string(py.with_extension("wgsl")).map_err(|e| e.to_string())?;
    let spec = Bench::read(&py.with_extension("bench.json"))?;
    let plan = spec.plan(&compiled, &inputs, &ran.plan)?;
    let (ours, twin) = time_pair(
        gpu,
        Shader::SpirV(&compiled.words),
        Shader::Wgsl(&wgsl),
        &plan.launch,
    )?;
    let (ms, wms) = (ours * 1e3, twin * 1e3);
    let ratio = ours / twin;
    let work = spec.work.amount(&plan)?;
    let rate = |t: f64| spec.work.rate(work / t);
    let share = match (&spec.work, ceiling) {
        (Work::Bytes { .. }, Some(c)) => format!("{:.0}%", work / ours / c * 100.0),
        _ => String::new(),
    };
    let size = plan.launch.threads.map(|t| t.to_string()).join("×");
    Ok(Row {
        text: format!(
            "| {name} | {} | {size} | {compile_us:.0} | {ms:.3} | {wms:.3} | {ratio:.2} | {} | {} | {share} | {err} | pass |",
            gpu.name(),
            rate(ours),
            rate(twin),
        ),
        ratio: Some(ratio),
        bandwidth: matches!(spec.work, Work::Bytes { .. }).then(|| work / ours.min(twin)),
    })
}

/// The per-dispatch device times (seconds) of `ours` and `twin` on `launch`: as many
/// dispatches per submission as take about [`SUBMIT_TIME`], the fastest of
/// [`BENCH_ROUNDS`] rounds that alternate the two, so that drift in the machine's load
/// affects both alike.
fn time_pair(
    gpu: &Gpu,
    ours: Shader<'_>,
    twin: Shader<'_>,
    launch: &spirthon_runtime::Launch,
) -> Result<(f64, f64), String> {
    let ours = gpu.timer(ours, launch).map_err(|e| e.to_string())?;
    let twin = gpu
        .timer(twin, launch)
        .map_err(|e| format!("WGSL twin: {e}"))?;
    // A warm-up submission of each; the second of ours sets the submissions' size.
    gpu.time_submission(&twin, 1)
        .map_err(|e| format!("WGSL twin: {e}"))?;
    gpu.time_submission(&ours, 1).map_err(|e| e.to_string())?;
    let once = gpu.time_submission(&ours, 1).map_err(|e| e.to_string())?;
    let per_submit = (SUBMIT_TIME / once.as_secs_f64().max(1e-7)).ceil() as u32;
    let per_submit = per_submit.clamp(1, MAX_PER_SUBMIT);
    let (mut a, mut b) = (f64::MAX, f64::MAX);
    for _ in 0..BENCH_ROUNDS {
        let t = gpu.time_submission(&ours, per_submit);
        a = a.min(t.map_err(|e| e.to_string())?.as_secs_f64());
        let t = gpu.time_submission(&twin, per_submit);
        b = b.min(t.map_err(|e| format!("WGSL twin: {e}"))?.as_secs_f64());
    }
    Ok((a, b))
}

/// A kernel's bench size, `NAME.bench.json` beside it:
/// `{"threads": [...], "args": {...}, "work": {...}}`. `args` overrides the small inputs of
/// `NAME.inputs.json`: a number or list is a scalar's value, `{"tile": N}` (or a shape,
/// `{"tile": [h, w]}`) an array of that many elements holding the small input's elements
/// over and over (data a kernel indexes by stays in range). `work` is what one dispatch
/// does: `{"read": [arrays], "write": [arrays]}` moves each named array's bytes once per
/// list (GB/s), `{"flops": N}` is N floating-point operations (GFLOP/s), `{"items": N}` N
/// items of a kernel whose work per item depends on its data (G items/s).
struct Bench {
    threads: serde_json::Value,
    args: serde_json::Map<String, serde_json::Value>,
    work: Work,
}

enum Work {
    Bytes {
        read: Vec<String>,
        write: Vec<String>,
    },
    Flops(f64),
    Items(f64),
}

impl Bench {
    fn read(path: &Path) -> Result<Bench, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e} (every kernel has a bench size)", path.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = |what: &str| format!("{}: {what}", path.display());
        let args = v["args"].as_object().cloned().unwrap_or_default();
        let names = |key: &str| -> Vec<String> {
            v["work"][key]
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(|n| n.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let work = if let Some(f) = v["work"]["flops"].as_f64() {
            Work::Flops(f)
        } else if let Some(n) = v["work"]["items"].as_f64() {
            Work::Items(n)
        } else if v["work"].get("read").is_some() || v["work"].get("write").is_some() {
            Work::Bytes {
                read: names("read"),
                write: names("write"),
            }
        } else {
            return Err(bad(
                "\"work\" is {\"read\": [...], \"write\": [...]}, {\"flops\": N} or {\"items\": N}",
            ));
        };
        Ok(Bench {
            threads: v["threads"].clone(),
            args,
            work,
        })
    }

    /// The launch at this size: the small `inputs` with the overrides, each tiled array
    /// filled from the small run's `small` plan.
    fn plan(
        &self,
        compiled: &spirthon::Compiled,
        inputs: &serde_json::Value,
        small: &spirthon_runtime::inputs::Plan,
    ) -> Result<spirthon_runtime::inputs::Plan, String> {
        let mut big = inputs.clone();
        big["threads"] = self.threads.clone();
        let mut tiled = Vec::new();
        for (name, v) in &self.args {
            let value = match v.get("tile") {
                Some(shape) => {
                    tiled.push(name.as_str());
                    serde_json::json!({ "zeros": shape })
                }
                None => v.clone(),
            };
            big["args"][name] = value;
        }
        let mut plan = spirthon::run::plan(compiled, &big, None).map_err(|e| e.to_string())?;
        for name in tiled {
            let find =
                |p: &spirthon_runtime::inputs::Plan| p.arrays.iter().position(|a| a.0 == name);
            let (Some(k), Some(from)) = (find(&plan), find(small)) else {
                return Err(format!("bench: `{name}` is not an array of the kernel"));
            };
            if let ArrayData::Bytes(b) = &small.launch.arrays[from].data {
                let len = plan.launch.arrays[k].data.len() as usize;
                let bytes = b.iter().copied().cycle().take(len).collect();
                plan.launch.arrays[k].data = ArrayData::Bytes(bytes);
            }
        }
        Ok(plan)
    }
}

impl Work {
    /// The amount of work of one dispatch of `plan`.
    fn amount(&self, plan: &spirthon_runtime::inputs::Plan) -> Result<f64, String> {
        match self {
            Work::Flops(n) | Work::Items(n) => Ok(*n),
            Work::Bytes { read, write } => {
                let mut bytes = 0.0;
                for name in read.iter().chain(write) {
                    let Some(k) = plan.arrays.iter().position(|a| a.0 == *name) else {
                        return Err(format!("bench: `{name}` is not an array of the kernel"));
                    };
                    bytes += plan.launch.arrays[k].data.len() as f64;
                }
                Ok(bytes)
            }
        }
    }

    /// `per_second` of this work, with its unit: `412 GB/s`, `9.27 GFLOP/s`, `3.10 M items/s`.
    fn rate(&self, per_second: f64) -> String {
        let (unit, what) = match self {
            Work::Bytes { .. } => ("B/s", ""),
            Work::Flops(_) => ("FLOP/s", ""),
            Work::Items(_) => ("", " items/s"),
        };
        let (scale, prefix) = match per_second {
            r if r >= 1e12 => (1e12, "T"),
            r if r >= 1e9 => (1e9, "G"),
            r if r >= 1e6 => (1e6, "M"),
            _ => (1e3, "k"),
        };
        let v = per_second / scale;
        let digits = if v >= 100.0 {
            0
        } else if v >= 10.0 {
            1
        } else {
            2
        };
        format!("{v:.digits$} {prefix}{unit}{what}")
    }
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
    let checked_timer = gpu
        .timer(Shader::SpirV(&compiled.words), launch)
        .map_err(|e| e.to_string())?;
    let plain_timer = gpu
        .timer(Shader::SpirV(&plain.words), &unchecked_launch)
        .map_err(|e| format!("unchecked: {e}"))?;
    let (mut ours, mut base) = (std::time::Duration::MAX, std::time::Duration::MAX);
    // One round more than counted, as `Gpu::time` has: the first warms up (the fastest counts).
    for _ in 0..ROUNDS + 1 {
        let t = gpu.time_submission(&checked_timer, PER_SUBMIT);
        ours = ours.min(t.map_err(|e| e.to_string())?);
        let t = gpu.time_submission(&plain_timer, PER_SUBMIT);
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
        bandwidth: None,
    })
}

//! Differential tests: every kernel of `shaders/` and every case of `tests/run/` is compiled,
//! run on a Vulkan device (lavapipe in CI), run under CPython by the reference executor
//! (`python3 -m spirthon run`), and the two outputs compared: ints exactly, floats within 4
//! float32 ULPs, or, for kernels that call functions computed to the device's precision
//! (`compare::Tolerance::for_source`), within relative 1e-4 (absolute floor 1e-5).
//!
//! A second test does the same on random kernels from `tests/fuzz/gen_kernel.py`.
//!
//! Every module also goes through `spirv-val` before it runs.
//!
//! Without a Vulkan adapter the tests skip with a note, unless `SPIRTHON_REQUIRE_GPU=1`
//! (CI sets it), when it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::compare::Tolerance;
use common::*;
use spirthon::run::{Gpu, RunError, Shader};

/// Every float control a Vulkan device may support (module `floats` of the runtime).
const ALL_FLOAT_CONTROLS: spirthon_runtime::FloatControls = spirthon_runtime::FloatControls {
    denorm_preserve: [true; 3],
    signed_zero_inf_nan_preserve: [true; 3],
};

fn require_gpu() -> bool {
    std::env::var("SPIRTHON_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

fn inputs_of(py: &Path) -> PathBuf {
    let stem = py.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    py.with_file_name(format!("{stem}.inputs.json"))
}

/// The device, or `None` when there is none and none is required (the test then skips).
fn gpu() -> Option<Gpu> {
    spirthon_runtime::quiet_vulkan_loader();
    match Gpu::open(std::env::var("SPIRTHON_ADAPTER").ok().as_deref()) {
        Ok(g) => {
            if let Some(n) = g.subgroup_size() {
                let _ = compare::SUBGROUP_SIZE.set(n);
            }
            Some(g)
        }
        Err(e @ RunError::NoAdapter(_)) if !require_gpu() => {
            // Straight to the process's stderr, past the harness's capture, so that the skip
            // shows beside the "ok" the harness prints for a test that returns early.
            use std::io::Write;
            let name = std::thread::current()
                .name()
                .unwrap_or("a GPU test")
                .to_string();
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {name}: {e} (set SPIRTHON_REQUIRE_GPU=1 to make this a failure)"
            );
            None
        }
        Err(e) => panic!("SPIRTHON_REQUIRE_GPU=1 but no device could be opened: {e}"),
    }
}

/// Compiles, runs on the GPU and under CPython, and compares; the failure, if any.
fn check(gpu: &Gpu, py: &Path) -> Result<(), String> {
    let shown = display_path(py);
    let inputs_path = inputs_of(py);
    let inputs: serde_json::Value =
        match std::fs::read_to_string(&inputs_path).map(|t| serde_json::from_str(&t)) {
            Ok(Ok(v)) => v,
            _ => {
                return Err(format!(
                    "{shown}: no readable {}",
                    display_path(&inputs_path)
                ))
            }
        };
    let source = std::fs::read_to_string(py).map_err(|e| format!("{shown}: {e}"))?;
    let opts = run_options(&inputs, &shown)?;
    let compiled = match spirthon::compile(&source, &shown, &opts) {
        Ok(c) => c,
        Err(spirthon::CompileError::Source(d)) => {
            return Err(format!(
                "{shown} does not compile:\n{}",
                spirthon::render_diagnostics(&d, &source, &shown, false)
            ))
        }
        Err(e) => return Err(format!("{shown} does not compile: {e:?}")),
    };
    spirv_val(&compiled.words, &shown)?;
    // What the driver is given: the module with every float control a device may support.
    let controlled = spirthon_runtime::with_float_controls(&compiled.words, &ALL_FLOAT_CONTROLS);
    spirv_val(&controlled, &format!("{shown} (with float controls)"))?;
    portable(&compiled.words, &shown)?;
    let ran = spirthon::run::run_compiled(gpu, &compiled, &inputs, None, 0)
        .map_err(|e| format!("{shown}: the GPU run failed: {e}"))?;
    let (reference, printed) = compare::cpython_printed(&root().join("python"), py, &inputs_path)?;
    let tol = Tolerance::for_source(&source);
    let worst = compare::outputs(&ran.output, &reference, tol)
        .map_err(|e| format!("{shown}: GPU and CPython disagree ({tol:?}): {e}"))?;
    // What the kernel printed: the same text, line for line.
    let gpu_printed = ran.printed.as_ref().map(|p| p.output()).unwrap_or_default();
    if gpu_printed != printed {
        return Err(format!(
            "{shown}: the GPU printed\n{gpu_printed}\nbut CPython printed\n{printed}"
        ));
    }
    if std::env::var_os("SPIRTHON_SHOW_ERRORS").is_some() {
        eprintln!("{shown}: {tol:?}, worst {worst}");
    }
    // Checked mode: a valid module, no failure, the same results.
    let ran = checked_run(gpu, &source, &shown, &inputs)?
        .ok_or_else(|| format!("{shown} does not compile with --checked"))?;
    if let Some(report) = ran.failure_report(&shown, &source) {
        return Err(format!(
            "{shown}: a check failed in checked mode:\n{report}"
        ));
    }
    compare::outputs(&ran.output, &reference, tol)
        .map_err(|e| format!("{shown}: checked mode and CPython disagree: {e}"))?;
    let checked_printed = ran.printed.as_ref().map(|p| p.output()).unwrap_or_default();
    if checked_printed != printed {
        return Err(format!(
            "{shown}: in checked mode the GPU printed\n{checked_printed}\nbut CPython printed\n{printed}"
        ));
    }
    Ok(())
}

/// Compiles `source` in checked mode (spirv-val checks the module) and runs it with
/// `inputs`; `None` when it has source errors.
/// The options `spirthon run` compiles a run case with: a generic kernel's types from its
/// run JSON (and then that kernel alone).
fn run_options(
    inputs: &serde_json::Value,
    shown: &str,
) -> Result<spirthon::CompileOptions, String> {
    let (kernel, types) =
        spirthon::run::wanted_types(inputs, None).map_err(|e| format!("{shown}: {e}"))?;
    Ok(spirthon::CompileOptions {
        kernel,
        types,
        ..Default::default()
    })
}

fn checked_run(
    gpu: &Gpu,
    source: &str,
    shown: &str,
    inputs: &serde_json::Value,
) -> Result<Option<spirthon::run::Ran>, String> {
    let opts = spirthon::CompileOptions {
        checked: true,
        ..run_options(inputs, shown)?
    };
    let compiled = match spirthon::compile(source, shown, &opts) {
        Ok(c) => c,
        Err(spirthon::CompileError::Source(_)) => return Ok(None),
        Err(e) => return Err(format!("{shown}: internal error with --checked: {e:?}")),
    };
    spirv_val(&compiled.words, shown)?;
    spirthon::run::run_compiled(gpu, &compiled, inputs, None, 0)
        .map(Some)
        .map_err(|e| format!("{shown}: the checked GPU run failed: {e}"))
}

/// What the CPython runner printed on stderr after the compiler's warnings (which it prints
/// first, as `spirthon run` does) and its note that the native module is not built (plain
/// `cargo test` on a fresh clone; `cargo xtask test` builds the module first).
fn runner_report(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stderr: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("note: the native module is not built"))
        .collect();
    let stderr = stderr.join("\n").trim_end().to_string();
    match stderr.rfind("\n\n") {
        Some(at) if stderr[..at].starts_with("warning:") && !stderr[..at].contains("\nerror") => {
            stderr[at + 2..].to_string()
        }
        _ => stderr,
    }
}

/// `python3 -m spirthon run PY --checked` from the repository root.
fn cpython_checked(py: &str, inputs: &Path) -> Result<std::process::Output, String> {
    Command::new("python3")
        .args(["-m", "spirthon", "run", py, "--checked", "--inputs"])
        .arg(inputs)
        .current_dir(root())
        .env("PYTHONPATH", root().join("python"))
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))
}

/// A `tests/checked/` case: `spirthon run --checked` on the GPU and the reference executor's
/// `--checked` report the same first failure, as the case's `.expected` file words it.
fn check_failure(gpu: &Gpu, py: &Path) -> Result<(), String> {
    let shown = display_path(py);
    let inputs_path = inputs_of(py);
    let inputs: serde_json::Value = std::fs::read_to_string(&inputs_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| format!("{shown}: no readable inputs"))?;
    let expected = std::fs::read_to_string(py.with_extension("expected"))
        .map_err(|e| format!("{shown}: no .expected report: {e}"))?;
    let source = std::fs::read_to_string(py).map_err(|e| format!("{shown}: {e}"))?;
    let ran = checked_run(gpu, &source, &shown, &inputs)?
        .ok_or_else(|| format!("{shown} does not compile with --checked"))?;
    let gpu_report = ran
        .failure_report(&shown, &source)
        .ok_or_else(|| format!("{shown}: no check failed on the GPU"))?;
    let out = cpython_checked(&shown, &inputs_path)?;
    let cpython_report = runner_report(&out);
    if out.status.code() != Some(1) {
        return Err(format!(
            "{shown}: the reference executor exited with {:?}, not 1:\n{cpython_report}",
            out.status.code()
        ));
    }
    let expected = expected.trim_end();
    if gpu_report != expected || cpython_report != expected {
        return Err(format!(
            "{shown}: the reports differ\nexpected:\n{expected}\nGPU:\n{gpu_report}\nCPython:\n{cpython_report}"
        ));
    }
    Ok(())
}

#[test]
fn checked_failures_report_like_cpython() {
    let Some(gpu) = gpu() else { return };
    let cases = kernels("tests/checked");
    assert!(
        cases.len() >= 10,
        "expected the checked cases, found {}",
        cases.len()
    );
    check_all(&cases, |py| check_failure(&gpu, py));
}

/// `--emit wgsl` of a kernel re-parses in naga and, run through wgpu's WGSL path with the
/// same launch, gives the SPIR-V path's results.
fn check_wgsl(gpu: &Gpu, py: &Path) -> Result<(), String> {
    let shown = display_path(py);
    let inputs: serde_json::Value = std::fs::read_to_string(inputs_of(py))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| format!("{shown}: no readable inputs"))?;
    let source = std::fs::read_to_string(py).map_err(|e| format!("{shown}: {e}"))?;
    let compiled = spirthon::compile(&source, &shown, &Default::default())
        .map_err(|e| format!("{shown} does not compile: {e:?}"))?;
    let kernels = compiled.module.kernel_names();
    let wgsl = match spirthon::translate::translate(
        &compiled.words,
        spirthon::translate::Target::Wgsl,
        &kernels,
        Some((&compiled.module, &source, &shown)),
    ) {
        Ok(w) => w,
        // What WGSL cannot express (64-bit ints) is refused, located, as the CLI refuses it.
        Err(spirthon::translate::TranslateError::Unsupported(_)) => return Ok(()),
        Err(e) => return Err(format!("{shown}: --emit wgsl failed: {e:?}")),
    };
    naga::front::wgsl::parse_str(&wgsl).map_err(|e| {
        format!(
            "{shown}: the WGSL does not re-parse: {}",
            e.emit_to_string(&wgsl)
        )
    })?;
    let spv = spirthon::run::run_compiled(gpu, &compiled, &inputs, None, 0)
        .map_err(|e| format!("{shown}: the SPIR-V run failed: {e}"))?;
    let outcome = gpu
        .run(spirthon_runtime::Shader::Wgsl(&wgsl), &spv.plan.launch, 0)
        .map_err(|e| format!("{shown}: the WGSL run failed: {e}"))?;
    let from_wgsl = spirthon_runtime::inputs::output(&spv.plan, &outcome);
    compare::outputs(&from_wgsl, &spv.output, Tolerance::for_source(&source))
        .map_err(|e| format!("{shown}: the WGSL and SPIR-V paths disagree: {e}"))?;
    Ok(())
}

#[test]
fn emitted_wgsl_runs_like_the_spirv() {
    let Some(gpu) = gpu() else { return };
    let cases = kernels("shaders");
    assert!(
        cases.len() >= 20,
        "expected the corpus, found {}",
        cases.len()
    );
    check_all(&cases, |py| check_wgsl(&gpu, py));
}

/// Runs `check` on every case; fails with every failure.
fn check_all(cases: &[PathBuf], check: impl Fn(&Path) -> Result<(), String>) {
    let failures: Vec<String> = cases.iter().filter_map(|py| check(py).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} kernels failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn gpu_agrees_with_cpython_on_every_kernel() {
    let Some(gpu) = gpu() else { return };
    eprintln!(
        "GPU tests on {} ({})",
        gpu.describe(),
        gpu.describe_floats()
    );
    let mut cases = kernels("shaders");
    let run_cases = kernels("tests/run");
    assert!(
        run_cases.len() >= 10,
        "expected at least 10 run cases, found {}",
        run_cases.len()
    );
    cases.extend(run_cases);
    check_all(&cases, |py| check(&gpu, py));
}

/// Whether `python3` here can run a file of `tests/modern/`: it is as new as the file's
/// first line asks (`# requires Python 3.N`), and has NumPy when the file imports it.
fn python3_runs(source: &str) -> Result<bool, String> {
    let minor: u32 = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# requires Python 3."))
        .and_then(|m| m.trim().parse().ok())
        .ok_or("the first line must be '# requires Python 3.N'")?;
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.version_info[1])"])
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    let have: u32 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| "python3 did not say its version")?;
    let numpy = || {
        Command::new("python3")
            .args(["-c", "import numpy"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    Ok(have >= minor && (!source.contains("import numpy") || numpy()))
}

/// A file of `tests/modern/` (today's Python around its kernels) compiled as a program,
/// as `kernel.launch` and `--program` compile it, run on the device, and compared with its
/// `.expected.json`, and with the CPython executor where `python3` can run the file.
fn check_modern(gpu: &Gpu, py: &Path) -> Result<(), String> {
    let shown = display_path(py);
    let source = std::fs::read_to_string(py).map_err(|e| format!("{shown}: {e}"))?;
    let read = |path: PathBuf| -> Result<serde_json::Value, String> {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", display_path(&path)))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", display_path(&path)))
    };
    let inputs_path = inputs_of(py);
    let inputs = read(inputs_path.clone())?;
    let expected = read(py.with_extension("expected.json"))?;
    // A generic kernel's types come from the run JSON, as `spirthon run` takes them.
    let opts = spirthon::CompileOptions {
        host_imports: true,
        ..run_options(&inputs, &shown)?
    };
    let compiled = spirthon::compile(&source, &shown, &opts).map_err(|e| match e {
        spirthon::CompileError::Source(d) => format!(
            "{shown} does not compile:\n{}",
            spirthon::render_diagnostics(&d, &source, &shown, false)
        ),
        e => format!("{shown} does not compile: {e:?}"),
    })?;
    spirv_val(&compiled.words, &shown)?;
    let ran = spirthon::run::run_compiled(gpu, &compiled, &inputs, None, 0)
        .map_err(|e| format!("{shown}: the GPU run failed: {e}"))?;
    let tol = Tolerance::for_source(&source);
    compare::outputs(&ran.output, &expected, tol)
        .map_err(|e| format!("{shown}: the GPU and the expected output disagree: {e}"))?;
    if python3_runs(&source).map_err(|e| format!("{shown}: {e}"))? {
        let reference =
            compare::cpython_with(&root().join("python"), py, &inputs_path, &["--program"])?;
        compare::outputs(&ran.output, &reference, tol)
            .map_err(|e| format!("{shown}: GPU and CPython disagree: {e}"))?;
    }
    Ok(())
}

#[test]
fn modern_files_run_on_the_device() {
    let Some(gpu) = gpu() else { return };
    let cases = kernels("tests/modern");
    assert!(cases.len() >= 6, "expected the corpus in tests/modern");
    check_all(&cases, |py| check_modern(&gpu, py));
}

/// Random kernels (`tests/fuzz/gen_kernel.py`): integer expressions with Python's `//`, `%`,
/// shifts, `and`/`or` values and chained comparisons, and nested control flow with `break`,
/// `continue`, loop `else` and early returns. `SPIRTHON_FUZZ_CASES` sets how many (default
/// 40), `SPIRTHON_FUZZ_SEED` the first seed.
#[test]
fn random_kernels_agree_with_cpython() {
    let Some(gpu) = gpu() else { return };
    let cases: u64 = std::env::var("SPIRTHON_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let first: u64 = std::env::var("SPIRTHON_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let dir = std::env::temp_dir().join(format!("spirthon-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for seed in first..first + cases {
        let status = Command::new("python3")
            .arg(root().join("tests/fuzz/gen_kernel.py"))
            .arg(seed.to_string())
            .arg(&dir)
            .status()
            .expect("python3 runs the generator");
        assert!(status.success(), "the generator failed for seed {seed}");
        if let Err(e) = check(&gpu, &dir.join(format!("k{seed}.py"))) {
            failures.push(format!(
                "seed {seed} (kernel kept in {}):\n{e}",
                dir.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} random kernels failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `spirthon run --checked` prints the report on stderr and exits 1 with no output; without
/// `--checked` the same run succeeds.
#[test]
fn run_checked_exits_1_with_the_report() {
    if gpu().is_none() {
        return;
    }
    let py = "tests/checked/store.py";
    let inputs = "tests/checked/store.inputs.json";
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_spirthon"))
            .args(["run", py, "--inputs", inputs])
            .args(extra)
            .current_dir(root())
            .output()
            .expect("spirthon runs")
    };
    let out = run(&["--checked"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    let expected = std::fs::read_to_string(root().join("tests/checked/store.expected")).unwrap();
    assert_eq!(stderr.trim_end(), expected.trim_end());
    let out = run(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Random integer kernels whose divisors may be zero and whose indices may leave the arrays
/// (`gen_kernel.py SEED DIR faulty`), in checked mode: the GPU and the reference executor
/// report the same first failure and count, or both finish with the same results. Kernels
/// whose divisor is zero at compile time are compile errors and are skipped.
/// `SPIRTHON_FUZZ_CASES` sets how many (default 40).
#[test]
fn random_faulty_kernels_report_like_cpython() {
    let Some(gpu) = gpu() else { return };
    let cases: u64 = std::env::var("SPIRTHON_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let dir = std::env::temp_dir().join(format!("spirthon-faulty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (mut failures, mut failed_runs, mut skipped) = (Vec::new(), 0, 0);
    for seed in 1..=cases {
        let status = Command::new("python3")
            .arg(root().join("tests/fuzz/gen_kernel.py"))
            .args([&seed.to_string(), dir.to_str().unwrap(), "faulty"])
            .status()
            .expect("python3 runs the generator");
        assert!(status.success(), "the generator failed for seed {seed}");
        let py = dir.join(format!("k{seed}.py"));
        match faulty_case(&gpu, &py) {
            Ok(Some(true)) => failed_runs += 1,
            Ok(Some(false)) => {}
            Ok(None) => skipped += 1,
            Err(e) => failures.push(format!("seed {seed} (kept in {}): {e}", dir.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} faulty kernels disagree:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("faulty kernels: {failed_runs} failed a check alike, {skipped} did not compile");
    assert!(
        failed_runs * 4 >= cases,
        "too few runs failed a check: {failed_runs} of {cases}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One faulty kernel: `Some(whether a check failed)` when both sides agree, `None` when it
/// does not compile.
fn faulty_case(gpu: &Gpu, py: &Path) -> Result<Option<bool>, String> {
    let inputs_path = inputs_of(py);
    let inputs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&inputs_path).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let source = std::fs::read_to_string(py).map_err(|e| e.to_string())?;
    let shown = py.display().to_string();
    let Some(ran) = checked_run(gpu, &source, &shown, &inputs)? else {
        return Ok(None);
    };
    let out = cpython_checked(&shown, &inputs_path)?;
    let cpython = runner_report(&out);
    match ran.failure_report(&shown, &source) {
        Some(report) => {
            if out.status.code() != Some(1) || cpython != report {
                return Err(format!(
                    "GPU:\n{report}\nCPython (exit {:?}):\n{cpython}",
                    out.status.code()
                ));
            }
            Ok(Some(true))
        }
        None => {
            if !out.status.success() {
                return Err(format!("no check failed on the GPU; CPython:\n{cpython}"));
            }
            let reference: serde_json::Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("the reference executor printed bad JSON: {e}"))?;
            compare::outputs(&ran.output, &reference, Tolerance::for_source(&source))
                .map_err(|e| format!("GPU and CPython disagree: {e}"))?;
            Ok(Some(false))
        }
    }
}

/// A launch of more threads than a launch can have is a clear error, not a validation panic.
#[test]
fn oversized_launch_is_a_clear_error() {
    let Some(gpu) = gpu() else { return };
    let py = root().join("shaders/saxpy.py");
    let source = std::fs::read_to_string(&py).expect("saxpy");
    let compiled = spirthon::compile(&source, "saxpy.py", &Default::default()).expect("compiles");
    let inputs =
        serde_json::json!({"threads": [u32::MAX], "args": {"a": 1.0, "x": [1.0], "y": [1.0]}});
    match spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0) {
        Err(e) => assert!(e.to_string().contains("at most 2147483647"), "{e}"),
        Ok(_) => panic!("a launch of 2**32 - 1 threads should be refused"),
    }
}

/// A launch with more workgroups on an axis than the device dispatches at once (lavapipe:
/// 65,535) runs as several dispatches, and `global_id()`, `workgroup_id()`,
/// `num_workgroups()` and `num_threads()` are the whole launch's, on x and on y, in checked
/// mode's report too.
#[test]
fn launches_past_the_workgroup_limit_take_several_dispatches() {
    let Some(gpu) = gpu() else { return };
    let source = "from spirthon import kernel, Array, global_id, workgroup_id, num_workgroups, num_threads\n\n\n\
        @kernel(workgroup_size=(1, 1))\n\
        def ids(g: Array[int], w: Array[int], n: Array[int], limit: int):\n    \
        i = global_id().y * num_threads().x + global_id().x\n    \
        g[2 * i] = global_id().x\n    \
        g[2 * i + 1] = global_id().y\n    \
        w[2 * i] = workgroup_id().x\n    \
        w[2 * i + 1] = workgroup_id().y\n    \
        n[2 * i] = num_workgroups().x\n    \
        n[2 * i + 1] = num_workgroups().y\n    \
        assert i < limit\n";
    for threads in [[140_000u32, 1], [3, 70_000]] {
        let count = (threads[0] * threads[1]) as usize;
        let inputs = serde_json::json!({"threads": threads, "args": {"g": {"zeros": 2 * count}, "w": {"zeros": 2 * count}, "n": {"zeros": 2 * count}, "limit": count}});
        for checked in [false, true] {
            let opts = spirthon::CompileOptions {
                checked,
                ..Default::default()
            };
            let compiled = spirthon::compile(source, "ids.py", &opts).expect("compiles");
            let ran = spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0)
                .unwrap_or_else(|e| panic!("{threads:?}: {e}"));
            assert!(ran.failure.is_none(), "{threads:?}: a check failed");
            let column = |name: &str| -> Vec<i64> {
                ran.output["args"][name]
                    .as_array()
                    .expect("an array")
                    .iter()
                    .map(|v| v.as_i64().expect("an int"))
                    .collect()
            };
            let (g, w, n) = (column("g"), column("w"), column("n"));
            let want_n = [i64::from(threads[0]), i64::from(threads[1])];
            for i in 0..count {
                let xy = [
                    (i as u32 % threads[0]) as i64,
                    (i as u32 / threads[0]) as i64,
                ];
                let at = |a: &[i64]| [a[2 * i], a[2 * i + 1]];
                assert_eq!(
                    (at(&g), at(&w), at(&n)),
                    (xy, xy, want_n),
                    "{threads:?}, thread {i}"
                );
            }
        }
        // A failure in a later dispatch names the invocation of the whole launch.
        let compiled = spirthon::compile(
            source,
            "ids.py",
            &spirthon::CompileOptions {
                checked: true,
                ..Default::default()
            },
        )
        .expect("compiles");
        let mut inputs = inputs.clone();
        inputs["args"]["limit"] = serde_json::json!(count - 2);
        let ran = spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0).expect("runs");
        let report = ran.failure_report("ids.py", source).expect("a failure");
        let (x, y) = (
            (count as u32 - 2) % threads[0],
            (count as u32 - 2) / threads[0],
        );
        assert!(
            report.contains(&format!("global_id ({x}, {y}, 0)")),
            "{report}"
        );
        assert!(
            report.contains("the first of 2 failing invocations"),
            "{report}"
        );
    }
}

/// `spirthon run` gives up on a device that does not finish: this kernel, reduced from a
/// random one, sends Mesa 22.3's lavapipe compiler into an endless recursion. On a device
/// that compiles it, the run simply succeeds; either way the command ends, promptly.
#[test]
fn run_gives_up_after_its_timeout() {
    if gpu().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("spirthon-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let py = dir.join("stuck.py");
    std::fs::write(
        &py,
        "from math import fmod\nfrom spirthon import Array, f32, global_id, i32, kernel\n\n\
         @kernel(workgroup_size=7)\ndef crunch(res: Array[i32], factor: f32, count: i32):\n    \
         i = global_id().x\n    depth = 0\n    for row in range(9):\n        \
         factor = factor * 2.0 % 1.0\n        if -factor:\n            if count:\n                \
         if fmod(factor, 0.5):\n                    depth = (8 - count) & 0x7FFF\n    \
         res[i] = depth\n",
    )
    .expect("write kernel");
    let inputs = dir.join("stuck.json");
    std::fs::write(
        &inputs,
        r#"{"threads": [1], "args": {"res": [0], "factor": 1.5625, "count": 1}}"#,
    )
    .expect("write inputs");
    let start = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_spirthon"))
        .arg("run")
        .arg(&py)
        .arg("--inputs")
        .arg(&inputs)
        .args(["--timeout", "2"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the spirthon binary runs");
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("`spirthon run --timeout 2` was still running after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => {
            let v: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("the output is JSON");
            assert_eq!(v["args"]["res"], serde_json::json!([7]), "{v}");
        }
        Some(1) => assert!(
            stderr.contains("did not finish within 2 s"),
            "unexpected failure: {stderr}"
        ),
        code => panic!("exit {code:?}: {stderr}"),
    }
}

/// docs/language.md's "Known driver limit": lavapipe ends an invocation's loops once it has
/// taken 65,535 loop trips in all; other devices run every trip. If this fails on lavapipe,
/// the driver changed and the docs are out of date.
#[test]
fn lavapipe_caps_an_invocations_loop_trips_as_documented() {
    let Some(gpu) = gpu() else { return };
    let source = "from spirthon import kernel, Array, i32, global_id\n\n\
                  @kernel\ndef count(x: Array[i32], n: i32):\n    i = global_id().x\n    \
                  while x[i] < n:\n        x[i] += 1\n";
    let compiled = spirthon::compile(source, "count.py", &Default::default()).expect("compiles");
    let inputs = serde_json::json!({"threads": [2], "args": {"x": {"zeros": 2}, "n": 100_000}});
    let ran = spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0).expect("runs");
    let counted = ran.output["args"]["x"][0].as_i64().expect("a count");
    if gpu.name().contains("llvmpipe") {
        assert_eq!(
            counted, 65_535,
            "lavapipe's loop limit changed: update docs/language.md"
        );
    } else {
        assert_eq!(counted, 100_000);
    }
}

/// `acos` and `atan2` call the module's `asin` and `atan` helpers when the kernel uses those
/// too, and carry their own copy of the polynomial otherwise: both forms give the same bits.
#[test]
fn shared_math_helpers_give_the_same_bits_as_standalone_ones() {
    let Some(gpu) = gpu() else { return };
    let head = "import math\nfrom spirthon import kernel, Array, f32, global_id\n\n@kernel\n\
                def trig(x: Array[f32], y: Array[f32], a: Array[f32], b: Array[f32], \
                c: Array[f32], d: Array[f32]):\n    i = global_id().x\n    \
                a[i] = math.acos(x[i])\n    b[i] = math.atan2(x[i], y[i])\n";
    let shared = format!("{head}    c[i] = math.asin(x[i])\n    d[i] = math.atan(y[i])\n");
    let mut xs: Vec<serde_json::Value> = Vec::new();
    let mut ys: Vec<serde_json::Value> = Vec::new();
    for k in 0..=400 {
        let t = k as f64 / 200.0 - 1.0;
        xs.push(t.into());
        ys.push((t * 40.0).into());
    }
    for s in ["inf", "-inf", "nan"] {
        xs.push(s.into());
        ys.push(s.into());
    }
    for v in [0.0, -0.0, 0.5, -0.5, 1e-30, -1e30, 0.4999999, 0.5000001] {
        xs.push(v.into());
        ys.push((-v).into());
    }
    let n = xs.len();
    let inputs = serde_json::json!({"threads": [n], "args": {
        "x": xs, "y": ys, "a": {"zeros": n}, "b": {"zeros": n}, "c": {"zeros": n}, "d": {"zeros": n}}});
    let run = |src: &str| {
        let compiled = spirthon::compile(src, "trig.py", &Default::default()).expect("compiles");
        let text = spirthon_spirv::disassemble(&compiled.words).expect("disassembles");
        let calls = text.matches("OpFunctionCall").count();
        let out = spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0).expect("runs");
        (
            calls,
            out.output["args"]["a"].clone(),
            out.output["args"]["b"].clone(),
        )
    };
    let (alone_calls, a1, b1) = run(head);
    let (shared_calls, a2, b2) = run(&shared);
    // Standalone: the kernel calls acos and atan2; shared: also asin and atan, twice each.
    assert_eq!((alone_calls, shared_calls), (2, 6));
    assert_eq!(a1, a2, "acos differs when it shares asin's helper");
    assert_eq!(b1, b2, "atan2 differs when it shares atan's helper");
}

/// A device's thread ends with its queue: dropping it (what the library does as the process
/// exits) waits for the work queued before, so the device is released by the dropping
/// thread and not while the process tears down its driver.
#[test]
fn dropping_a_device_thread_waits_for_its_queued_work() {
    let Some(gpu) = gpu() else { return };
    let thread = spirthon_runtime::worker::DeviceThread::start(gpu).expect("device thread");
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for _ in 0..3 {
        let done = std::sync::Arc::clone(&done);
        thread.post(move |_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
    }
    drop(thread);
    assert_eq!(done.load(std::sync::atomic::Ordering::SeqCst), 3);
}

/// The saxpy corpus kernel ready on `gpu`: its pipeline, uniform block, launch size, and
/// its `x` and `y` uploaded.
fn saxpy_on(
    gpu: &Gpu,
) -> (
    spirthon_runtime::resident::Pipeline,
    Vec<u8>,
    [u32; 3],
    spirthon_runtime::resident::DeviceBuffer,
    spirthon_runtime::resident::DeviceBuffer,
) {
    let py = root().join("shaders/saxpy.py");
    let source = std::fs::read_to_string(&py).expect("saxpy.py");
    let compiled = spirthon::compile(&source, "saxpy.py", &Default::default()).expect("compiles");
    let inputs: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(py.with_extension("inputs.json")).expect("inputs"),
    )
    .expect("json");
    let plan = spirthon::run::plan(&compiled, &inputs, None).expect("plan");
    let l = &plan.launch;
    let uniform = l.uniform.clone().expect("a uniform block");
    let p = gpu
        .prepare(
            Shader::SpirV(&compiled.words),
            l.interface(),
            l.workgroup_size,
            uniform.len() as u64,
        )
        .expect("pipeline");
    let bytes = |k: usize| match &l.arrays[k].data {
        spirthon_runtime::ArrayData::Bytes(b) => b.clone(),
        spirthon_runtime::ArrayData::Zeros(n) => vec![0; *n as usize],
    };
    let (x, y) = (
        gpu.upload(&bytes(0)).unwrap(),
        gpu.upload(&bytes(1)).unwrap(),
    );
    (p, uniform, l.threads, x, y)
}

/// A batch the device rejects names the launch it rejected and where it was made: the
/// runtime takes any buffers (the library refuses this aliasing before it records; the
/// runtime's own API does not), and `x` as both saxpy's read-only `x` and its written `y`
/// is a usage the device's validation rejects in a dispatch.
#[test]
fn a_rejected_batch_names_the_launch_the_device_rejected() {
    let Some(gpu) = gpu() else { return };
    let (p, uniform, threads, x, y) = saxpy_on(&gpu);
    for (arrays, site) in [
        ([&x, &y], "good.py:1"),
        ([&x, &x], "bad.py:2"),
        ([&x, &y], "good.py:3"),
    ] {
        gpu.launch(&p, &uniform, &arrays, threads, Some(site))
            .expect("recorded, not yet validated");
    }
    let e = gpu
        .flush()
        .expect_err("the device rejects the batch")
        .to_string();
    assert!(
        e.contains(
            "the launch of `saxpy` at bad.py:2 (launch 2 of a batch of 3, none of which ran)"
        ),
        "{e}"
    );
    // The device goes on: a batch of good launches runs.
    gpu.launch(&p, &uniform, &[&x, &y], threads, Some("good.py:4"))
        .unwrap();
    gpu.finish().expect("a good batch");
}

/// A device copy holds the contents after the launches recorded before it (still in the
/// batch) and not those of launches after it: what a tape keeps of an array a later launch
/// overwrites.
#[test]
fn a_device_copy_is_taken_in_launch_order() {
    let Some(gpu) = gpu() else { return };
    let (p, uniform, threads, x, y) = saxpy_on(&gpu);
    let before = gpu.read(&y).unwrap();
    gpu.launch(&p, &uniform, &[&x, &y], threads, Some("t.py:1"))
        .unwrap();
    let kept = gpu.alloc(y.len()).unwrap();
    gpu.copy(&y, &kept).unwrap();
    gpu.launch(&p, &uniform, &[&x, &y], threads, Some("t.py:2"))
        .unwrap();
    let (once, twice) = (gpu.read(&kept).unwrap(), gpu.read(&y).unwrap());
    assert_ne!(once, before, "the first launch wrote y");
    assert_ne!(once, twice, "the second launch wrote y again");
    // saxpy adds a*x to y: twice - once == once - before, elementwise.
    let f = |b: &[u8]| -> Vec<f32> {
        b.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let (b, o, t) = (f(&before), f(&once), f(&twice));
    for k in 0..b.len() {
        assert!(
            ((t[k] - o[k]) - (o[k] - b[k])).abs() <= 1e-3 * (1.0 + t[k].abs()),
            "{k}"
        );
    }
    let short = gpu.alloc(y.len() - 4).unwrap();
    assert!(gpu.copy(&y, &short).is_err(), "lengths differ");
}

/// Outside checked mode an index past the end of a local, shared or constant-table array
/// touches its last element, never the memory beside it (the driver runs the module as it
/// is, and robust buffer access bounds storage buffers only).
#[test]
fn indices_past_a_private_or_shared_array_stay_inside_it() {
    let Some(gpu) = gpu() else { return };
    let source = "from spirthon import kernel, Array, global_id, local_id, shared_array, local_array, barrier\n\n\
        TABLE = (5, 6, 7)\n\n\n\
        @kernel(workgroup_size=8)\n\
        def past(k: Array[int], out: Array[int]):\n    \
        i = global_id().x\n    \
        a = local_array(int, 4)\n    \
        for j in range(4):\n        \
        a[j] = 10 + j\n    \
        s = shared_array(int, 4)\n    \
        if local_id().x < 4:\n        \
        s[local_id().x] = 20 + local_id().x\n    \
        barrier()\n    \
        a[k[i] + 4] = 99\n    \
        out[4 * i] = a[k[i]]\n    \
        out[4 * i + 1] = s[k[i]]\n    \
        out[4 * i + 2] = TABLE[k[i]]\n    \
        out[4 * i + 3] = a[3]\n";
    let compiled = spirthon::compile(source, "past.py", &Default::default()).expect("compiles");
    let ks = [0i64, 3, 4, 7, 1000, -1, -1000, 2_000_000_000];
    let inputs = serde_json::json!({"threads": [8], "args": {"k": ks, "out": {"zeros": 32}}});
    let ran = spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0).expect("runs");
    let out: Vec<i64> = ran.output["args"]["out"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_i64().expect("an int"))
        .collect();
    for (i, &k) in ks.iter().enumerate() {
        // `a[k + 4] = 99` stores into a[3] for every k here: past the end (clamped to the
        // last element), or a[3] itself for k = -1; the reads then see it.
        let last_a = 99;
        let inside = (0..4).contains(&k);
        let want_a = if inside && k < 3 { 10 + k } else { last_a };
        let want_s = if inside { 20 + k } else { 23 };
        let want_t = if (0..3).contains(&k) { 5 + k } else { 7 };
        assert_eq!(
            &out[4 * i..4 * i + 4],
            &[want_a, want_s, want_t, last_a],
            "k = {k}"
        );
    }
}

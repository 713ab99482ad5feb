//! Differential tests: every kernel of `shaders/` and every case of `tests/run/` is compiled,
//! run on a Vulkan device (lavapipe in CI), run under CPython by the reference executor
//! (`python3 -m spirthon run`), and the two outputs compared: ints exactly, floats within
//! docs/language.md's tolerance (relative 1e-4, absolute floor 1e-5).
//!
//! Without a Vulkan adapter the test skips with a note, unless `SPIRTHON_REQUIRE_GPU=1`
//! (CI sets it), when it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use spirthon::run::{Gpu, RunError};

fn require_gpu() -> bool {
    std::env::var("SPIRTHON_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

fn inputs_of(py: &Path) -> PathBuf {
    let stem = py.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    py.with_file_name(format!("{stem}.inputs.json"))
}

/// The reference executor's output for a kernel file and inputs file.
fn cpython(py: &Path, inputs: &Path) -> Result<serde_json::Value, String> {
    let out = Command::new("python3")
        .args(["-m", "spirthon", "run"])
        .arg(py)
        .arg("--inputs")
        .arg(inputs)
        .env("PYTHONPATH", root().join("python"))
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the reference executor failed on {}:\n{}",
            display_path(py),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("the reference executor printed bad JSON: {e}"))
}

#[test]
fn gpu_agrees_with_cpython_on_every_kernel() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // The Vulkan loader complains on stderr without it; it needs nothing from it.
        std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir());
    }
    let gpu = match Gpu::open(std::env::var("SPIRTHON_ADAPTER").ok().as_deref()) {
        Ok(g) => g,
        Err(e @ RunError::NoAdapter(_)) if !require_gpu() => {
            eprintln!(
                "skipping the GPU tests: {e}\n(set SPIRTHON_REQUIRE_GPU=1 to make this a failure)"
            );
            return;
        }
        Err(e) => panic!("SPIRTHON_REQUIRE_GPU=1 but no device could be opened: {e}"),
    };
    eprintln!("GPU tests on {}", gpu.describe());
    let mut cases = kernels("shaders");
    let run_cases = kernels("tests/run");
    assert!(
        run_cases.len() >= 10,
        "expected at least 10 run cases, found {}",
        run_cases.len()
    );
    cases.extend(run_cases);
    let mut failures = Vec::new();
    for py in &cases {
        let shown = display_path(py);
        let inputs_path = inputs_of(py);
        let inputs: serde_json::Value =
            match std::fs::read_to_string(&inputs_path).map(|t| serde_json::from_str(&t)) {
                Ok(Ok(v)) => v,
                _ => {
                    failures.push(format!(
                        "{shown}: no readable {}",
                        display_path(&inputs_path)
                    ));
                    continue;
                }
            };
        let source = std::fs::read_to_string(py).expect("kernel source");
        let compiled = match spirthon::compile(&source, &shown, &Default::default()) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{shown} does not compile: {e:?}"));
                continue;
            }
        };
        let ran = match spirthon::run::run_compiled(&gpu, &compiled, &inputs, None, 0) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{shown}: the GPU run failed: {e}"));
                continue;
            }
        };
        let reference = match cpython(py, &inputs_path) {
            Ok(v) => v,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        if let Err(e) = spirthon::compare::outputs(&ran.output, &reference) {
            failures.push(format!("{shown}: GPU and CPython disagree: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} kernels failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

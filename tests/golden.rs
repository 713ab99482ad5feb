//! File-driven golden tests.
//!
//! - `tests/kernels/ok/NAME.py` compiles; its SPIR-V disassembly must equal `NAME.spvasm` and
//!   its SSA form `NAME.ssa`; the module must pass naga (in the compiler) and `spirv-val`.
//! - `tests/kernels/err/NAME.py` fails to compile; the rendered errors must equal
//!   `NAME.stderr`.
//! - every kernel of `shaders/` compiles and passes naga and `spirv-val`.
//! - no module contains an instruction of `common::NONPORTABLE` (`OpSRem`, `OpSMod`).
//! - `only_reached` (a kernel's adjoint's compile) leaves the module as it was.
//!
//! `SPIRTHON_BLESS=1 cargo test --test golden` rewrites the expected files.

mod common;

use common::*;
use spirthon::{CompileError, CompileOptions};

fn compile(path: &std::path::Path) -> (String, Result<spirthon::Compiled, CompileError>) {
    let source = std::fs::read_to_string(path).expect("readable kernel");
    let shown = display_path(path);
    let r = spirthon::compile(&source, &shown, &CompileOptions::default());
    (source, r)
}

/// A kernel with a `NAME.checked.ssa` golden file is compiled in checked mode too: that SSA
/// text is compared, and the module goes through spirv-val.
fn checked_golden(path: &std::path::Path) -> Result<(), String> {
    let golden = path.with_extension("checked.ssa");
    if !golden.exists() {
        return Ok(());
    }
    let source = std::fs::read_to_string(path).expect("readable kernel");
    let shown = display_path(path);
    let opts = CompileOptions {
        checked: true,
        ..CompileOptions::default()
    };
    let c = spirthon::compile(&source, &shown, &opts)
        .map_err(|e| format!("{shown} does not compile with --checked: {e:?}"))?;
    check_golden(&golden, &spirthon::ssa_text(&c.module))?;
    spirv_val(&c.words, &shown).map(|_| ())
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn ok_kernels_match_their_golden_files() {
    let files = kernels("tests/kernels/ok");
    assert!(
        files.len() >= 10,
        "expected the ok corpus, found {} files",
        files.len()
    );
    let mut failures = Vec::new();
    let mut validated = 0;
    for path in files {
        let shown = display_path(&path);
        match compile(&path) {
            (_, Ok(c)) => {
                let asm = spirthon_spirv::disassemble(&c.words).expect("disassembles");
                if let Err(e) = check_golden(&path.with_extension("spvasm"), &asm) {
                    failures.push(e);
                }
                if let Err(e) =
                    check_golden(&path.with_extension("ssa"), &spirthon::ssa_text(&c.module))
                {
                    failures.push(e);
                }
                if let Err(e) = portable(&c.words, &shown) {
                    failures.push(e);
                }
                if let Err(e) = checked_golden(&path) {
                    failures.push(e);
                }
                match spirv_val(&c.words, &shown) {
                    Ok(true) => validated += 1,
                    Ok(false) => {}
                    Err(e) => failures.push(e),
                }
            }
            (source, Err(CompileError::Source(d))) => failures.push(format!(
                "{shown} should compile but has errors:\n{}",
                spirthon::render_diagnostics(&d, &source, &shown, false)
            )),
            (_, Err(CompileError::Internal(e))) => {
                failures.push(format!("{shown}: internal error: {e}"))
            }
        }
    }
    if validated == 0 {
        eprintln!("note: spirv-val not found, so only naga checked the modules; install spirv-tools (CI requires it)");
    }
    report(failures);
}

#[test]
fn err_kernels_match_their_golden_files() {
    let files = kernels("tests/kernels/err");
    assert!(
        files.len() >= 40,
        "expected at least 40 error cases, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in files {
        let shown = display_path(&path);
        match compile(&path) {
            (source, Err(CompileError::Source(d))) => {
                let text = spirthon::render_diagnostics(&d, &source, &shown, false);
                if let Err(e) = check_golden(&path.with_extension("stderr"), &text) {
                    failures.push(e);
                }
            }
            (_, Ok(_)) => failures.push(format!("{shown} should fail to compile but compiled")),
            (_, Err(CompileError::Internal(e))) => {
                failures.push(format!("{shown}: internal error: {e}"))
            }
        }
    }
    report(failures);
}

#[test]
fn corpus_kernels_pass_naga_and_spirv_val() {
    let files = kernels("shaders");
    assert!(
        files.len() >= 15,
        "expected at least 15 corpus kernels, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in files {
        let shown = display_path(&path);
        match compile(&path) {
            (_, Ok(c)) => {
                if let Err(e) = spirv_val(&c.words, &shown).and(portable(&c.words, &shown)) {
                    failures.push(e);
                }
            }
            (source, Err(CompileError::Source(d))) => failures.push(format!(
                "{shown}:\n{}",
                spirthon::render_diagnostics(&d, &source, &shown, false)
            )),
            (_, Err(CompileError::Internal(e))) => {
                failures.push(format!("{shown}: internal error: {e}"))
            }
        }
    }
    report(failures);
}

/// Every corpus kernel has a WGSL twin that naga accepts, and run inputs whose kernel exists
/// and whose arguments are exactly the kernel's parameters.
#[test]
fn corpus_kernels_have_twins_and_inputs() {
    let mut failures = Vec::new();
    for path in kernels("shaders") {
        let shown = display_path(&path);
        let twin = path.with_extension("wgsl");
        match std::fs::read_to_string(&twin) {
            Ok(src) => match naga::front::wgsl::parse_str(&src) {
                Ok(m) => {
                    // A twin of an `f64` (`u64`) kernel uses naga's `f64` (`u64`, 64-bit
                    // atomics); wgpu takes them on a device with SHADER_F64 (SHADER_INT64…).
                    let mut v = naga::valid::Validator::new(
                        naga::valid::ValidationFlags::all(),
                        naga::valid::Capabilities::default()
                            | naga::valid::Capabilities::FLOAT64
                            | naga::valid::Capabilities::SHADER_INT64
                            | naga::valid::Capabilities::SHADER_INT64_ATOMIC_ALL_OPS
                            | naga::valid::Capabilities::SUBGROUP,
                    );
                    v.subgroup_stages(naga::valid::ShaderStages::COMPUTE)
                        .subgroup_operations(naga::valid::SubgroupOperationSet::all());
                    if let Err(e) = v.validate(&m) {
                        failures.push(format!(
                            "{}: naga rejects the twin: {:?}",
                            display_path(&twin),
                            e.into_inner()
                        ));
                    }
                }
                Err(e) => failures.push(format!(
                    "{}: {}",
                    display_path(&twin),
                    e.emit_to_string(&src)
                )),
            },
            Err(_) => failures.push(format!("{shown} has no WGSL twin")),
        }
        let inputs = path.with_file_name(format!(
            "{}.inputs.json",
            path.file_stem().and_then(|s| s.to_str()).unwrap_or("")
        ));
        let Ok(text) = std::fs::read_to_string(&inputs) else {
            failures.push(format!("{shown} has no .inputs.json"));
            continue;
        };
        let v: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: {e}", display_path(&inputs)));
                continue;
            }
        };
        let source = std::fs::read_to_string(&path).expect("kernel");
        let Ok(c) = spirthon::compile(&source, &shown, &CompileOptions::default()) else {
            continue; // reported by the test above
        };
        let kernel = v["kernel"].as_str().unwrap_or("");
        let Some(ep) = c.module.entry_points.iter().find(|e| e.name == kernel) else {
            failures.push(format!(
                "{}: no kernel `{kernel}` in {shown}",
                display_path(&inputs)
            ));
            continue;
        };
        // A struct parameter's leaves (`w.dt`) are one argument (`w`).
        let mut want: Vec<String> = ep
            .uniform
            .params
            .iter()
            .map(|u| u.name.split('.').next().unwrap_or_default().to_string())
            .collect();
        want.extend(ep.arrays.iter().map(|a| c.module.arrays[*a].name.clone()));
        want.sort();
        want.dedup();
        let mut got: Vec<String> = v["args"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        got.sort();
        if want != got {
            failures.push(format!(
                "{}: arguments {got:?}, but `{kernel}` takes {want:?}",
                display_path(&inputs)
            ));
        }
    }
    report(failures);
}

/// `tests/kernels/host/NAME.py` is a program that launches its own kernels (the `spirthon`
/// package compiles it in-process, with other imports left to the CPU side): it compiles
/// that way and passes spirv-val, or its errors equal `NAME.stderr`. Compiled as a kernel
/// file (the CLI), its CPU-side imports are errors.
#[test]
fn host_programs_compile_with_their_cpu_side_imports() {
    let mut failures = Vec::new();
    for path in kernels("tests/kernels/host") {
        let source = std::fs::read_to_string(&path).expect("readable program");
        let shown = display_path(&path);
        let host = CompileOptions {
            host_imports: true,
            ..CompileOptions::default()
        };
        let expected = path.with_extension("stderr");
        let outcome = match spirthon::compile(&source, &shown, &host) {
            Ok(c) if !expected.exists() => spirv_val(&c.words, &shown).map(|_| ()),
            Ok(_) => Err(format!(
                "{shown} compiles, but {} expects errors",
                display_path(&expected)
            )),
            Err(CompileError::Source(d)) if expected.exists() => check_golden(
                &expected,
                &spirthon::render_diagnostics(&d, &source, &shown, false),
            ),
            Err(e) => Err(format!("{shown}: {e:?}")),
        };
        if let Err(e) = outcome {
            failures.push(e);
        }
        match spirthon::compile(&source, &shown, &CompileOptions::default()) {
            Err(CompileError::Source(d))
                if d.iter()
                    .any(|d| d.message.contains("cannot be imported in a kernel file")) => {}
            other => failures.push(format!(
                "{shown} as a kernel file: expected import errors, got {:?}",
                other.err()
            )),
        }
    }
    assert!(failures.len() < 100);
    report(failures);
}

#[test]
fn only_reached_diagnoses_what_the_kernel_reaches() {
    // A kernel's adjoint is compiled from its file with the adjoint appended, after the
    // file compiled: the file's other defs need no second diagnosis. The module is the same.
    let source = "from spirthon import kernel, func, Array, f32, global_id\n\n\
                  @func\ndef broken(x: f32) -> f32:\n    return x + undefined_name\n\n\
                  @kernel\ndef good(x: Array[f32]):\n    i = global_id().x\n    x[i] = x[i] * 2.0\n";
    let opts = |only_reached| CompileOptions {
        kernel: Some("good".into()),
        only_reached,
        ..CompileOptions::default()
    };
    assert!(
        matches!(
            spirthon::compile(source, "t.py", &opts(false)),
            Err(CompileError::Source(_))
        ),
        "the unreached func's error is reported by default"
    );
    let only = spirthon::compile(source, "t.py", &opts(true))
        .expect("only what `good` reaches is diagnosed");
    let fixed = source.replace(" + undefined_name", "");
    let whole = spirthon::compile(&fixed, "t.py", &opts(false)).expect("compiles");
    assert_eq!(only.words, whole.words);
}

#[test]
fn a_launch_gives_the_named_kernel_its_workgroup_size() {
    // A grid launch from Python (`kernel[griddim, blockdim]`) compiles a kernel that declares
    // no workgroup size for its blockdim; the file's other kernels keep theirs.
    let source = "from spirthon import kernel, Array, f32, global_id\n\n\
                  @kernel\ndef grid(x: Array[f32]):\n    x[global_id().x] = 1.0\n\n\
                  @kernel\ndef other(x: Array[f32]):\n    x[global_id().x] = 2.0\n";
    let opts = |kernel: Option<&str>, workgroup_size| CompileOptions {
        kernel: kernel.map(String::from),
        workgroup_size,
        ..CompileOptions::default()
    };
    let sizes = |c: &spirthon::Compiled| -> Vec<(String, serde_json::Value)> {
        let info: serde_json::Value =
            serde_json::from_str(&spirthon::reflect_json(&c.module, source)).expect("JSON");
        info["kernels"]
            .as_array()
            .expect("kernels")
            .iter()
            .map(|k| {
                (
                    k["name"].as_str().unwrap_or("").to_string(),
                    k["workgroup_size"].clone(),
                )
            })
            .collect()
    };
    let c =
        spirthon::compile(source, "t.py", &opts(Some("grid"), Some([16, 4, 1]))).expect("compiles");
    assert_eq!(
        sizes(&c),
        vec![("grid".to_string(), serde_json::json!([16, 4, 1]))]
    );
    let c = spirthon::compile(source, "t.py", &opts(None, None)).expect("compiles");
    assert_eq!(
        sizes(&c),
        vec![
            ("grid".to_string(), serde_json::json!([64, 1, 1])),
            ("other".to_string(), serde_json::json!([64, 1, 1]))
        ]
    );
    for (kernel, size) in [
        (Some("grid"), [64, 32, 1]),
        (Some("grid"), [0, 1, 1]),
        (None, [32, 1, 1]),
    ] {
        assert!(
            matches!(
                spirthon::compile(source, "t.py", &opts(kernel, Some(size))),
                Err(CompileError::Source(_))
            ),
            "{kernel:?} {size:?} is refused"
        );
    }
}

//! `--emit wgsl|glsl|hlsl|msl` through real front ends: every emitted unit of every corpus
//! kernel and run case must be accepted by a compiler of its language, or refused by
//! `translate` with a located reason that names the target.
//!
//! - WGSL: naga's WGSL front end and validator, with the capabilities WebGPU has (none of
//!   naga's extensions).
//! - GLSL: `glslangValidator` (Debian `glslang-tools`) on each kernel's translation unit, as
//!   OpenGL 4.30 compute shaders. Under CI a missing tool is a failure; locally the check
//!   skips with a note.
//! - HLSL, MSL: naga's writers must succeed (no HLSL or MSL compiler for Linux is installable
//!   here; glslang's HLSL front end rejects valid HLSL such as `(uint[16])0`, so it is no
//!   judge).

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use spirthon::translate::{translate, Target};

fn cases() -> Vec<std::path::PathBuf> {
    let mut all = kernels("shaders");
    all.extend(kernels("tests/run"));
    all.extend(kernels("tests/kernels/ok"));
    assert!(all.len() >= 90, "expected the corpus, found {}", all.len());
    all
}

/// A case compiled as `spirthon run` compiles it: a generic kernel with the types of its
/// run JSON.
fn compiled(py: &Path) -> Result<spirthon::Compiled, String> {
    let source = std::fs::read_to_string(py).map_err(|e| e.to_string())?;
    let inputs: Option<serde_json::Value> =
        std::fs::read_to_string(py.with_extension("inputs.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
    let mut opts = spirthon::CompileOptions::default();
    if let Some(v) = inputs {
        (opts.kernel, opts.types) = spirthon::run::wanted_types(&v, None)?;
    }
    spirthon::compile(&source, &display_path(py), &opts)
        .map_err(|e| format!("{} does not compile: {e:?}", display_path(py)))
}

/// The outcome of one target: the text, or the refusal (which must name the target and a
/// line of the source).
fn emit(py: &Path, c: &spirthon::Compiled, target: Target) -> Result<Option<String>, String> {
    let shown = display_path(py);
    let source = std::fs::read_to_string(py).map_err(|e| e.to_string())?;
    match translate(
        &c.words,
        target,
        &c.module.kernel_names(),
        Some((&c.module, &source, &shown)),
    ) {
        Ok(text) => Ok(Some(text)),
        Err(spirthon::translate::TranslateError::Unsupported(text)) => {
            let name = format!("{target:?}").to_uppercase();
            if !text.contains(&name) || !text.contains(&format!("{shown}:")) {
                return Err(format!(
                    "{shown}: a refusal must name {name} and the line:\n{text}"
                ));
            }
            Ok(None)
        }
        Err(spirthon::translate::TranslateError::Internal(e)) => {
            Err(format!("{shown}: {target:?}: {e}"))
        }
    }
}

/// Every case's text in `target` (by the file's shown path), and the failures on the way;
/// refusals are checked by `emit` and left out.
fn outputs(target: Target) -> (Vec<(String, String)>, Vec<String>) {
    let (mut texts, mut failures) = (Vec::new(), Vec::new());
    for py in cases() {
        match compiled(&py).and_then(|c| emit(&py, &c, target)) {
            Ok(Some(text)) => texts.push((display_path(&py), text)),
            Ok(None) => {}
            Err(e) => failures.push(e),
        }
    }
    (texts, failures)
}

#[test]
fn wgsl_passes_nagas_front_end_and_validator() {
    let (texts, mut failures) = outputs(Target::Wgsl);
    for (shown, text) in texts {
        let module = match naga::front::wgsl::parse_str(&text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{shown}: {}", e.emit_to_string(&text)));
                continue;
            }
        };
        // WGSL's `subgroups` extension (a device feature wgpu asks for).
        let mut v = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::SUBGROUP,
        );
        v.subgroup_stages(naga::valid::ShaderStages::COMPUTE)
            .subgroup_operations(naga::valid::SubgroupOperationSet::all());
        if let Err(e) = v.validate(&module) {
            failures.push(format!(
                "{shown}: naga's validator rejects the WGSL: {}",
                e.emit_to_string(&text)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A host finds each kernel of the WGSL by the kernel's name, also one that ends in a digit
/// (naga's namer writes `lbm_d2q9` as `lbm_d2q9_`: the translation takes the name back).
#[test]
fn wgsl_entry_points_keep_the_kernels_names() {
    let source = "from spirthon import kernel, Array, f32, global_id\n\n\n@kernel\ndef step2(x: Array[f32]):\n    x[global_id().x] += 1.0\n\n\n@kernel\ndef d2q9(x: Array[f32]):\n    x[global_id().x] *= 2.0\n";
    let c = spirthon::compile(source, "names.py", &Default::default()).expect("compiles");
    let wgsl =
        translate(&c.words, Target::Wgsl, &c.module.kernel_names(), None).expect("translates");
    let module = naga::front::wgsl::parse_str(&wgsl).expect("parses");
    let mut names: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    names.sort();
    assert_eq!(names, ["d2q9", "step2"], "{wgsl}");
    // A keyword or built-in name keeps naga's `_`, and `wgsl_entry_name` says so.
    let source = source
        .replace("def step2", "def step")
        .replace("def d2q9", "def filter");
    let c = spirthon::compile(&source, "names.py", &Default::default()).expect("compiles");
    let wgsl =
        translate(&c.words, Target::Wgsl, &c.module.kernel_names(), None).expect("translates");
    let module = naga::front::wgsl::parse_str(&wgsl).expect("parses");
    for k in c.module.kernel_names() {
        let entry = spirthon::translate::wgsl_entry_name(k);
        assert!(entry.ends_with('_'), "{k} is a WGSL name");
        assert!(
            module.entry_points.iter().any(|e| e.name == entry),
            "{entry}: {wgsl}"
        );
    }
}

/// Whether `glslangValidator` runs here (required under CI).
fn glslang() -> bool {
    match Command::new("glslangValidator").arg("--version").output() {
        Ok(o) if o.status.success() => true,
        _ if required() => {
            panic!("glslangValidator is required under CI (apt-get install glslang-tools)")
        }
        _ => {
            eprintln!(
                "note: glslangValidator not found: the GLSL is not checked (install glslang-tools)"
            );
            false
        }
    }
}

#[test]
fn glsl_passes_glslang() {
    if !glslang() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("spirthon-glsl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (texts, mut failures) = outputs(Target::Glsl);
    let mut units = 0;
    for (shown, text) in texts {
        // One translation unit per kernel, each headed by `// ---- kernel `name` ----`
        // when there are several.
        let parts: Vec<&str> = text
            .split("// ---- kernel `")
            .filter(|p| p.contains("#version"))
            .map(|p| &p[p.find("#version").unwrap_or(0)..])
            .collect();
        for (k, unit) in parts.iter().enumerate() {
            units += 1;
            let file = dir.join(format!("{}.{k}.comp", shown.replace(['/', '\\'], "_")));
            std::fs::write(&file, unit).expect("write unit");
            let out = Command::new("glslangValidator")
                .arg(&file)
                .output()
                .expect("glslangValidator runs");
            if !out.status.success() {
                failures.push(format!(
                    "{shown} (kernel {k}): glslang rejects the GLSL:\n{}",
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
    }
    assert!(units >= 90, "only {units} GLSL units checked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn hlsl_and_msl_are_written() {
    let mut failures = Vec::new();
    for py in cases() {
        for target in [Target::Hlsl, Target::Msl] {
            if let Err(e) = compiled(&py).and_then(|c| emit(&py, &c, target)) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

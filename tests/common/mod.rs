//! Helpers shared by the integration tests: golden files and the external validator.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod compare;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.py` files of a directory, sorted.
pub fn kernels(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

/// The path as the golden files print it: relative to the repository root, `/`-separated.
pub fn display_path(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Compares `actual` with the file `expected`, or rewrites it when `SPIRTHON_BLESS` is set.
/// Returns a description of the mismatch.
pub fn check_golden(expected: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("SPIRTHON_BLESS").is_some() {
        std::fs::write(expected, actual)
            .map_err(|e| format!("cannot bless {}: {e}", expected.display()))?;
        return Ok(());
    }
    let want = std::fs::read_to_string(expected).map_err(|_| {
        format!(
            "{} is missing: run with SPIRTHON_BLESS=1 to create it",
            display_path(expected)
        )
    })?;
    if want == actual {
        return Ok(());
    }
    let first = want
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| want.lines().count().min(actual.lines().count()));
    Err(format!(
        "{} differs from the compiler's output at line {}:\n  expected: {:?}\n  actual:   {:?}\n(run with SPIRTHON_BLESS=1 to accept the new output)",
        display_path(expected),
        first + 1,
        want.lines().nth(first).unwrap_or("<end of file>"),
        actual.lines().nth(first).unwrap_or("<end of file>"),
    ))
}

/// Whether missing tools must fail the run instead of skipping (CI).
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Runs `spirv-val --target-env vulkan1.1` over `words`. `Ok(false)` when the tool is absent
/// and not required.
pub fn spirv_val(words: &[u32], name: &str) -> Result<bool, String> {
    let dir = std::env::temp_dir().join(format!("spirthon-val-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join(format!("{}.spv", name.replace(['/', '\\'], "_")));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
    let out = match Command::new("spirv-val")
        .arg("--target-env")
        .arg("vulkan1.1")
        .arg(&file)
        .output()
    {
        Ok(o) => o,
        Err(_) if !required() => return Ok(false),
        Err(e) => {
            return Err(format!(
                "spirv-val is required under CI but could not run: {e} (install spirv-tools)"
            ))
        }
    };
    let _ = std::fs::remove_file(&file);
    if out.status.success() {
        Ok(true)
    } else {
        Err(format!(
            "spirv-val rejected {name}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// SPIR-V instructions that no module may contain: the Vulkan environment leaves `OpSRem`
/// and `OpSMod` undefined for negative operands (some drivers return wrong values), so
/// Python's `%` and `//` are built from `OpSDiv` instead.
pub const NONPORTABLE: &[&str] = &["OpSRem", "OpSMod"];

/// The first nonportable instruction in `words`, as an error naming the module.
pub fn portable(words: &[u32], name: &str) -> Result<(), String> {
    let asm = spirthon_spirv::disassemble(words).map_err(|e| format!("{name}: {e}"))?;
    match NONPORTABLE
        .iter()
        .find(|op| asm.split_whitespace().any(|w| w == **op))
    {
        Some(op) => Err(format!("{name} contains {op}, which is not portable")),
        None => Ok(()),
    }
}

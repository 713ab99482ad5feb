//! The Python side of the tests: the native module built into the package directory, and a
//! virtual environment with NumPy.
//!
//! `cargo xtask native [--release]` builds `crates/spirthon-py` and copies the library to
//! `python/spirthon/_native.abi3.so` (`.pyd` on Windows), where `import spirthon` finds it
//! with `python/` on `PYTHONPATH`; `pip install .` does the same through maturin.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{apt_install, ci, run, workspace_root};

/// The file cargo writes for the `_native` cdylib, and the name Python imports it by.
#[cfg(target_os = "windows")]
const NAMES: (&str, &str) = ("_native.dll", "_native.pyd");
#[cfg(target_os = "macos")]
const NAMES: (&str, &str) = ("lib_native.dylib", "_native.abi3.so");
#[cfg(not(any(target_os = "windows", target_os = "macos")))]
const NAMES: (&str, &str) = ("lib_native.so", "_native.abi3.so");

/// Builds the native module and puts it into `python/spirthon`.
pub fn native(release: bool) -> Result<(), String> {
    let mut args = vec!["build", "-p", "spirthon-py"];
    if release {
        args.push("--release");
    }
    run("cargo", &args)?;
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let built = target
        .join(if release { "release" } else { "debug" })
        .join(NAMES.0);
    let dest = root.join("python").join("spirthon").join(NAMES.1);
    // Replace, not overwrite: a running interpreter may have the old file mapped.
    let _ = std::fs::remove_file(&dest);
    std::fs::copy(&built, &dest)
        .map_err(|e| format!("cannot copy {} to {}: {e}", built.display(), dest.display()))?;
    eprintln!("native module: {}", dest.display());
    Ok(())
}

/// `cargo xtask native [--release]`.
pub fn native_command(args: &[String]) -> Result<(), String> {
    native(args.iter().any(|a| a == "--release"))
}

fn venv_python(dir: &Path) -> PathBuf {
    if cfg!(windows) {
        dir.join("Scripts").join("python.exe")
    } else {
        dir.join("bin").join("python")
    }
}

fn succeeds(program: &Path, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A Python with NumPy for the tests: `target/pyenv`, created (and NumPy installed with
/// pip) when missing. `None` when that cannot be done outside CI, where the tests that need
/// NumPy then skip.
pub fn python_with_numpy() -> Result<Option<PathBuf>, String> {
    venv_with_numpy("python3", &workspace_root().join("target").join("pyenv"))
}

/// The newest CPython on this machine when it is newer than `python3` (pyenv's versions,
/// or `python3.N` on the path), with a virtual environment with NumPy for it in
/// `target/pyenv-3.N`: the Python tests run there too, so that the library is tried on
/// current Python. `None` when there is none, or it cannot be set up (a warning).
pub fn newest_python_with_numpy() -> Option<PathBuf> {
    let version = |python: &str| -> Option<(u32, u32)> {
        let out = Command::new(python)
            .args(["-c", "import sys; print(*sys.version_info[:2])"])
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let mut parts = text.split_whitespace().map(|p| p.parse().ok());
        Some((parts.next()??, parts.next()??))
    };
    let default = version("python3")?;
    let pyenv = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".pyenv")))
        .map(|root| root.join("versions"));
    let mut candidates: Vec<String> = (default.1 + 1..=20)
        .map(|minor| format!("python3.{minor}"))
        .collect();
    if let Some(entries) = pyenv.and_then(|d| std::fs::read_dir(d).ok()) {
        for e in entries.flatten() {
            let python = e.path().join("bin").join("python3");
            candidates.push(python.to_string_lossy().to_string());
        }
    }
    let (newest, (major, minor)) = candidates
        .into_iter()
        .filter_map(|c| version(&c).map(|v| (c, v)))
        .filter(|(_, v)| *v > default)
        .max_by_key(|(_, v)| *v)?;
    let dir = workspace_root()
        .join("target")
        .join(format!("pyenv-{major}.{minor}"));
    match venv_with_numpy(&newest, &dir) {
        Ok(python) => python,
        Err(e) => {
            eprintln!("warning: Python {major}.{minor} is here but {e}; its tests are left out");
            None
        }
    }
}

/// A virtual environment made by `base` in `dir`, with NumPy.
fn venv_with_numpy(base: &str, dir: &Path) -> Result<Option<PathBuf>, String> {
    let python = venv_python(dir);
    let dir_text = dir.to_string_lossy().to_string();
    if !python.exists() {
        let make = || run(base, &["-m", "venv", &dir_text]);
        if make().is_err() {
            apt_install("python3-venv", "the NumPy tests")?;
            let _ = std::fs::remove_dir_all(dir);
            if let Err(e) = make() {
                return give_up(format!("cannot create a virtual environment: {e}"));
            }
        }
    }
    if !succeeds(&python, &["-c", "import numpy"]) {
        let py = python.to_string_lossy().to_string();
        if let Err(e) = run(&py, &["-m", "pip", "install", "-q", "numpy"]) {
            return give_up(format!("cannot install NumPy: {e}"));
        }
    }
    Ok(Some(python))
}

fn give_up(why: String) -> Result<Option<PathBuf>, String> {
    if ci() {
        return Err(format!("{why} (required under CI)"));
    }
    eprintln!("warning: {why}; the tests that need NumPy will skip");
    Ok(None)
}

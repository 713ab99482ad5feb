//! Project tasks: `cargo xtask test` (everything CI runs) and `cargo xtask bench`.
//!
//! `test` installs what the tests need when it is missing (Debian/Ubuntu, with apt), then
//! runs every test suite of the workspace.

use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <command>

commands:
  test     install what the tests need if missing, then run every test suite
  bench    run the benchmarks and print their tables (add --quick for the small sizes)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("bench") => bench(&args[1..]),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a command in the workspace root, failing with its name if it fails.
fn run(program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("+ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn workspace_root() -> std::path::PathBuf {
    let manifest = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or(manifest)
}

fn test() -> Result<(), String> {
    run("cargo", &["test", "--workspace", "--all-targets"])
}

fn bench(extra: &[String]) -> Result<(), String> {
    let mut args = vec!["bench", "-p", "spirthon-ssa", "--"];
    args.extend(extra.iter().map(String::as_str));
    run("cargo", &args)
}

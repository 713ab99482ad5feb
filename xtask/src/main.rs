//! Project tasks: `cargo xtask test` (everything CI runs) and `cargo xtask bench`.
//!
//! `test` installs what the tests need when it is missing (Debian/Ubuntu, with apt:
//! `spirv-tools` for `spirv-val`), then runs every test suite of the workspace. Under CI
//! (`CI` set) a tool that cannot be installed fails the run; locally the tests that need it
//! skip with a note.

use std::process::{Command, ExitCode};

mod python;
mod sizes;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  test     install what the tests need if missing, then run every test suite
  run-gpu  compile and run the kernel corpus on the GPU, check each against CPython,
           print a table (add --bench to time each kernel's WGSL twin too; --checked
           compiles in checked mode, and with --bench times it against unchecked)
  fuzz     mutate every kernel file of the project for --minutes N (default 10; --seed S)
           and fail on any panic, internal error, hang or module spirv-val rejects; with
           --kernels N, then run N random kernels on the GPU against CPython
  library  write python/spirthon/_library.py from the compiler's built-in table
  native   build the native Python module into python/spirthon (--release for speed)
  sizes    list the source files over 600 lines and the functions over 80 (of the
           workspace, or of the checkout given)
  bench    run the benchmarks and print their tables: SSA construction against
           cranelift-frontend, and compile time / SPIR-V size against naga on the corpus
           (add --quick for the small SSA sizes only)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("bench") => bench(&args[1..]),
        Some("run-gpu") => run_gpu(&args[1..]),
        Some("fuzz") => fuzz(&args[1..]),
        Some("native") => python::native_command(&args[1..]),
        Some("library") => write_library(),
        Some("sizes") => sizes::sizes(
            &args
                .get(1)
                .map_or_else(workspace_root, std::path::PathBuf::from),
        ),
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

/// Writes the Python package's copy of the built-in table (spirthon-ir's `library`), which
/// the reference executor and the package's exports read; spirthon-ir's tests fail while it
/// is stale.
fn write_library() -> Result<(), String> {
    let path = workspace_root().join("python/spirthon/_library.py");
    std::fs::write(&path, spirthon_ir::library::python_module())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
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

/// `cargo xtask fuzz [--minutes N] [--seed S]`: the mutation fuzzer (tests/fuzz.rs) for a
/// time budget instead of its fixed count, in release mode.
fn fuzz(args: &[String]) -> Result<(), String> {
    let mut minutes = 10u64;
    let mut kernels = 0u64;
    let mut seed: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--minutes" => {
                minutes = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--minutes needs a whole number")?;
            }
            "--kernels" => {
                kernels = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--kernels needs a whole number")?;
            }
            "--seed" => seed = Some(it.next().ok_or("--seed needs a number")?.clone()),
            other => return Err(format!("unknown fuzz option `{other}`\n\n{USAGE}")),
        }
    }
    ensure_tool("spirv-val", "spirv-tools")?;
    std::env::set_var("SPIRTHON_FUZZ_SECONDS", (minutes * 60).to_string());
    if let Some(s) = seed {
        std::env::set_var("SPIRTHON_FUZZ_SEED", s);
    }
    run(
        "cargo",
        &["test", "--release", "--test", "fuzz", "--", "--nocapture"],
    )?;
    if kernels > 0 {
        // Random kernels of tests/fuzz/gen_kernel.py on the device against CPython, each
        // module through spirv-val.
        ensure_lavapipe()?;
        std::env::set_var("SPIRTHON_FUZZ_CASES", kernels.to_string());
        run(
            "cargo",
            &[
                "test",
                "--release",
                "--test",
                "gpu",
                "random_kernels",
                "--",
                "--nocapture",
            ],
        )?;
    }
    Ok(())
}

fn workspace_root() -> std::path::PathBuf {
    let manifest = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or(manifest)
}

fn test() -> Result<(), String> {
    ensure_tool("spirv-val", "spirv-tools")?;
    ensure_tool("glslangValidator", "glslang-tools")?;
    ensure_lavapipe()?;
    // The native module first: the differential GPU tests run `python3 -m spirthon run`,
    // which checks each kernel with the compiler through it, as a user's runs do.
    python::native(false)?;
    run("cargo", &["test", "--workspace", "--all-targets"])?;
    let Some(python) = python::python_with_numpy()? else {
        return run(
            "python3",
            &["-m", "unittest", "discover", "-s", "python/tests"],
        );
    };
    // The native module is built and NumPy is there: its tests must not skip.
    std::env::set_var("SPIRTHON_REQUIRE_NATIVE", "1");
    run(
        &python.to_string_lossy(),
        &["-m", "unittest", "discover", "-s", "python/tests"],
    )?;
    // And again on the newest Python here, when it is newer (the module is abi3).
    if let Some(newest) = python::newest_python_with_numpy() {
        run(
            &newest.to_string_lossy(),
            &["-m", "unittest", "discover", "-s", "python/tests"],
        )?;
    }
    Ok(())
}

/// Mesa's lavapipe (a Vulkan implementation on the CPU) when no Vulkan driver is installed.
fn ensure_lavapipe() -> Result<(), String> {
    let icd_dirs = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"];
    let has_driver = icd_dirs
        .iter()
        .any(|d| std::fs::read_dir(d).is_ok_and(|mut e| e.next().is_some()));
    let has_loader = [
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists());
    if has_driver && has_loader {
        return Ok(());
    }
    apt_install("mesa-vulkan-drivers libvulkan1", "the GPU tests")
}

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

fn on_path(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Makes sure `tool` is on PATH, installing Debian package `package` with apt if needed.
fn ensure_tool(tool: &str, package: &str) -> Result<(), String> {
    if on_path(tool) {
        return Ok(());
    }
    apt_install(package, &format!("the tests that need {tool}"))?;
    if !on_path(tool) && ci() {
        return Err(format!(
            "{tool} is required under CI but is still missing after installing {package}"
        ));
    }
    Ok(())
}

/// Installs Debian packages with apt-get (through sudo when not root). Under CI a failure
/// is an error; locally a warning, and `what` skips.
fn apt_install(packages: &str, what: &str) -> Result<(), String> {
    eprintln!("installing {packages} with apt-get (needed by {what})");
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let (program, prefix): (&str, &[&str]) = if root {
        ("apt-get", &[])
    } else {
        ("sudo", &["apt-get"])
    };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = prefix.to_vec();
        all.extend_from_slice(args);
        all.extend(packages.split_whitespace());
        run(program, &all)
    };
    let installed = apt(&["install", "-y", "-q"]).or_else(|_| {
        run(program, &[prefix, &["update", "-q"]].concat())
            .and_then(|_| apt(&["install", "-y", "-q"]))
    });
    match installed {
        Ok(()) => Ok(()),
        Err(e) if ci() => Err(format!(
            "{packages} is required under CI and could not be installed: {e}"
        )),
        Err(_) => {
            eprintln!("warning: could not install {packages}; {what} will skip");
            Ok(())
        }
    }
}

fn bench(extra: &[String]) -> Result<(), String> {
    let quick = extra.iter().any(|a| a == "--quick");
    let mut args = vec!["bench", "-p", "spirthon-ssa", "--"];
    args.extend(extra.iter().map(String::as_str));
    run("cargo", &args)?;
    if quick {
        return Ok(());
    }
    run("cargo", &["bench", "-p", "spirthon", "--bench", "compile"])
}

fn run_gpu(extra: &[String]) -> Result<(), String> {
    let mut args = vec!["run", "--release", "--quiet", "--example", "run_gpu", "--"];
    args.extend(extra.iter().map(String::as_str));
    run("cargo", &args)
}

//! Comparing a kernel's run on the device with the CPython reference executor's, the way
//! the differential tests (`tests/gpu.rs`) and `cargo xtask run-gpu` (the `run_gpu`
//! example, which includes this file) do.

#![allow(dead_code)]

use serde_json::Value;

/// Relative tolerance for floats of kernels that call functions computed to the
/// device's precision (docs/language.md), with an absolute floor.
pub const REL: f64 = 1e-4;
pub const ABS: f64 = 1e-5;
/// ULPs allowed between float32 results of kernels of arithmetic alone: the reference
/// executor computes in float32 as the GPU does, and Vulkan allows division 2.5 ULP.
pub const ULPS: u64 = 4;

/// How close two float results must be.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Tolerance {
    /// Within this many float32 ULPs (units in the last place).
    Ulps(u64),
    /// Within `REL` relative, or `ABS` absolute.
    Relative,
}

/// Whether `word` names a function whose device results are not exact (the built-in
/// table's precision of it: Vulkan gives it an error bound of ULPs, or the module's own
/// stays within 4, and later arithmetic can magnify either); a kernel that calls one is
/// compared within `Relative`, any other within `Ulps(ULPS)`.
fn inexact(word: &str) -> bool {
    spirthon_ir::library::inexact_names().any(|n| n == word)
}

impl Tolerance {
    /// The tolerance for the kernel file `source`: `Relative` when it calls a function of
    /// `inexact` or raises to a power that is not a literal int, else `Ulps(ULPS)`.
    pub fn for_source(source: &str) -> Tolerance {
        let mut inexact = source
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(inexact);
        // `x ** y` with a float or run-time exponent is `pow`.
        inexact |= source.match_indices("**").any(|(at, _)| {
            let rest = source[at + 2..].trim_start();
            let rest = rest.strip_prefix('-').unwrap_or(rest);
            !rest.starts_with(|c: char| c.is_ascii_digit()) || {
                let n: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                    .collect();
                n.contains('.') || n.contains('e')
            }
        });
        if inexact {
            Tolerance::Relative
        } else {
            Tolerance::Ulps(ULPS)
        }
    }
}

/// The distance in float32 ULPs between two floats (each rounded to float32); equal
/// values (and `0.0`, `-0.0`) are 0 apart.
pub fn ulps(p: f64, q: f64) -> u64 {
    let key = |x: f64| {
        let b = (x as f32).to_bits();
        // Ordered so that adjacent floats are adjacent integers across zero.
        if b & 0x8000_0000 != 0 {
            -i64::from(b & 0x7FFF_FFFF)
        } else {
            i64::from(b)
        }
    };
    key(p).abs_diff(key(q))
}

/// The gap between the float32 `|x|` and the next larger float32.
pub fn ulp_of(x: f64) -> f64 {
    let a = (x.abs() as f32).min(f32::MAX);
    f64::from(f32::from_bits(a.to_bits() + 1)) - f64::from(a)
}

/// The largest finite magnitude among the floats of `v` (numbers nested in lists and
/// objects), by an explicit stack.
fn float_scale(v: &Value) -> f64 {
    let mut worst: f64 = 0.0;
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Number(n) if n.is_f64() => {
                let x = n.as_f64().unwrap_or(0.0).abs();
                if x.is_finite() {
                    worst = worst.max(x);
                }
            }
            Value::Array(items) => work.extend(items),
            Value::Object(m) => work.extend(m.values()),
            _ => {}
        }
    }
    worst
}

/// Compares the `args` of two outputs: ints exactly, floats within `tol`,
/// `"nan"`/`"inf"` strings exactly. Returns the largest float error (ULPs, or relative
/// error or absolute under the floor), or the first mismatch.
///
/// Within `Ulps(n)`, two floats agree when they are at most `n` ULPs apart, or when
/// they differ by at most `n` ULPs of the run's scale (the largest float magnitude of
/// the arrays, read or written). The second case is a sum that cancels: a driver may
/// reassociate `a*c + b*c` into `(a + b)*c` although the module forbids it (lavapipe
/// does), which moves a cancelling result by a few ULPs of its terms, not of itself.
pub fn outputs(gpu: &Value, reference: &Value, tol: Tolerance) -> Result<f64, String> {
    let (Some(a), Some(b)) = (gpu["args"].as_object(), reference["args"].as_object()) else {
        return Err("an output has no \"args\" object".into());
    };
    let mut names: Vec<&String> = a.keys().collect();
    names.sort();
    let mut theirs: Vec<&String> = b.keys().collect();
    theirs.sort();
    if names != theirs {
        return Err(format!("different arrays: {names:?} vs {theirs:?}"));
    }
    let mut worst: f64 = 0.0;
    let scale = ulp_of(float_scale(&gpu["args"]).max(float_scale(&reference["args"])));
    for name in names {
        let (Some(x), Some(y)) = (a[name].as_array(), b[name].as_array()) else {
            return Err(format!("`{name}` is not a list in both"));
        };
        if x.len() != y.len() {
            return Err(format!("`{name}` has {} elements vs {}", x.len(), y.len()));
        }
        // Rows of a multi-dimensional array and vector elements are lists, struct elements
        // objects: their items are compared one by one (an explicit stack).
        let mut pairs: Vec<(String, &Value, &Value)> = Vec::new();
        let mut work: Vec<(String, &Value, &Value)> = x
            .iter()
            .zip(y)
            .enumerate()
            .rev()
            .map(|(i, (p, q))| (format!("[{i}]"), p, q))
            .collect();
        while let Some((at, p, q)) = work.pop() {
            match (p, q) {
                (Value::Array(ps), Value::Array(qs)) if ps.len() == qs.len() => work.extend(
                    ps.iter()
                        .zip(qs)
                        .enumerate()
                        .rev()
                        .map(|(k, (a, b))| (format!("{at}[{k}]"), a, b)),
                ),
                // A struct element: its fields, by name.
                (Value::Object(ps), Value::Object(qs))
                    if ps.keys().eq(qs.keys()) && !ps.is_empty() =>
                {
                    work.extend(
                        ps.iter()
                            .zip(qs.values())
                            .rev()
                            .map(|((f, a), b)| (format!("{at}.{f}"), a, b)),
                    )
                }
                _ => pairs.push((at, p, q)),
            }
        }
        for (i, p, q) in pairs {
            let bad = || format!("`{name}{i}`: GPU {p}, CPython {q}");
            match (p, q) {
                (Value::Number(p), Value::Number(q)) if p.is_f64() || q.is_f64() => {
                    let (p, q) = (
                        p.as_f64().unwrap_or(f64::NAN),
                        q.as_f64().unwrap_or(f64::NAN),
                    );
                    let (err, limit) = match tol {
                        Tolerance::Ulps(n) if (p - q).abs() <= n as f64 * scale => (0.0, 0.0),
                        Tolerance::Ulps(n) => (ulps(p, q) as f64, n as f64),
                        Tolerance::Relative => {
                            let diff = (p - q).abs();
                            let err = if diff <= ABS {
                                0.0
                            } else {
                                diff / q.abs().max(p.abs())
                            };
                            (err, REL)
                        }
                    };
                    if err.is_nan() || err > limit {
                        return Err(match tol {
                            Tolerance::Ulps(_) => format!("{} ({err} ULPs apart)", bad()),
                            Tolerance::Relative => bad(),
                        });
                    }
                    worst = worst.max(err);
                }
                (Value::Number(p2), Value::Number(q2)) => {
                    if p2.as_i64() != q2.as_i64() || p2.as_u64() != q2.as_u64() {
                        return Err(bad());
                    }
                }
                _ if p == q => {}
                _ => return Err(bad()),
            }
        }
    }
    Ok(worst)
}

/// The CPython reference executor's output (`python3 -m spirthon run`, with the package
/// from `python_dir`) for a kernel file and a run-JSON file.
pub fn cpython(
    python_dir: &std::path::Path,
    py: &std::path::Path,
    inputs: &std::path::Path,
) -> Result<Value, String> {
    cpython_with(python_dir, py, inputs, &[])
}

/// The device's subgroup size, for the reference executor ([`cpython_with`]), once a test
/// has opened the device.
pub static SUBGROUP_SIZE: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// [`cpython`] with more arguments for `python3 -m spirthon run` (`--program`).
pub fn cpython_with(
    python_dir: &std::path::Path,
    py: &std::path::Path,
    inputs: &std::path::Path,
    extra: &[&str],
) -> Result<Value, String> {
    let (_, json) = split_printed(&cpython_stdout(python_dir, py, inputs, extra)?)?;
    Ok(json)
}

/// What `python3 -m spirthon run PY --inputs INPUTS` (with `extra`) wrote on stdout, or its
/// error.
fn cpython_stdout(
    python_dir: &std::path::Path,
    py: &std::path::Path,
    inputs: &std::path::Path,
    extra: &[&str],
) -> Result<Vec<u8>, String> {
    let mut cmd = std::process::Command::new("python3");
    cmd.args(["-m", "spirthon", "run"])
        .args(extra)
        .arg(py)
        .arg("--inputs")
        .arg(inputs)
        .env("PYTHONPATH", python_dir);
    // The executor's subgroups as the device's, so results that depend on their size agree.
    if let Some(n) = SUBGROUP_SIZE.get() {
        cmd.env("SPIRTHON_SUBGROUP_SIZE", n.to_string());
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the reference executor failed on {}: {}",
            py.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

/// What `python3 -m spirthon run` (or `spirthon run`) wrote on stdout: the kernel's printed
/// text, then the output JSON on the last line.
pub fn split_printed(stdout: &[u8]) -> Result<(String, Value), String> {
    let text = String::from_utf8_lossy(stdout);
    let body = text.strip_suffix('\n').unwrap_or(&text);
    let (printed, last) = match body.rfind('\n') {
        Some(at) => (&text[..at + 1], &body[at + 1..]),
        None => ("", body),
    };
    let json =
        serde_json::from_str(last).map_err(|e| format!("the runner printed bad JSON: {e}"))?;
    Ok((printed.to_string(), json))
}

/// [`cpython`], with what the kernel printed.
pub fn cpython_printed(
    python_dir: &std::path::Path,
    py: &std::path::Path,
    inputs: &std::path::Path,
) -> Result<(Value, String), String> {
    let (printed, json) = split_printed(&cpython_stdout(python_dir, py, inputs, &[])?)?;
    Ok((json, printed))
}

//! `cargo xtask sizes`: the Rust files over [`FILE_LIMIT`] lines and the functions over
//! [`FN_LIMIT`] lines in the workspace's sources (tests and generated tables excluded), the
//! limits of the project's style (docs/architecture.md, "Style": small functions, one concern per file).
//!
//! A function is found by its `fn` line and ends at the first later line that closes a brace
//! at the same indentation (rustfmt's layout, which CI enforces).

use std::path::{Path, PathBuf};

const FILE_LIMIT: usize = 600;
const FN_LIMIT: usize = 80;

pub fn sizes(root: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    for dir in ["src", "crates", "xtask/src"] {
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let (mut long_files, mut long_fns) = (Vec::new(), Vec::new());
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > FILE_LIMIT {
            long_files.push((lines.len(), shown.clone()));
        }
        for (name, start, len) in functions(&lines) {
            if len > FN_LIMIT {
                long_fns.push((len, format!("{shown}:{} {name}", start + 1)));
            }
        }
    }
    long_files.sort_by(|a, b| b.cmp(a));
    long_fns.sort_by(|a, b| b.cmp(a));
    println!("files over {FILE_LIMIT} lines: {}", long_files.len());
    for (n, f) in &long_files {
        println!("  {n:5}  {f}");
    }
    println!("functions over {FN_LIMIT} lines: {}", long_fns.len());
    for (n, f) in &long_fns {
        println!("  {n:5}  {f}");
    }
    Ok(())
}

/// The `.rs` files under `dir`, without tests, benches and generated tables.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                if !matches!(name, "tests" | "benches" | "target") {
                    stack.push(p);
                }
            } else if name.ends_with(".rs") && !matches!(name, "tests.rs" | "cases.rs") {
                out.push(p);
            }
        }
    }
}

/// `(name, first line index, length in lines)` of each function in `lines`.
fn functions(lines: &[&str]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let Some(at) = fn_name_at(trimmed) else {
            continue;
        };
        if trimmed.ends_with(';') {
            continue; // a declaration without a body
        }
        let opens = trimmed.matches('{').count();
        if opens > 0 && opens == trimmed.matches('}').count() {
            out.push((name_at(trimmed, at), i, 1));
            continue;
        }
        let name = name_at(trimmed, at);
        let close = " ".repeat(indent) + "}";
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.starts_with(&close) && l[indent..].starts_with('}'))
            .map_or(lines.len(), |k| i + 1 + k);
        out.push((name, i, end - i + 1));
    }
    out
}

fn name_at(trimmed: &str, at: usize) -> String {
    trimmed[at..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Where the name starts, if the line begins a function item.
fn fn_name_at(trimmed: &str) -> Option<usize> {
    let mut rest = trimmed;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "extern \"C\" ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    rest.strip_prefix("fn ")?;
    Some(trimmed.len() - rest.len() + 3)
}

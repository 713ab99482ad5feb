//! The parser's fast path (`fast::parse`) against the reference path over Ruff's parser
//! (`parse::parse_reference`): wherever the fast path accepts a file, the reference path must
//! accept it too, without diagnostics, and build the identical AST (nodes, arena order,
//! spans). Checked on every Python file in the repository and on mutations of each (bytes
//! deleted, snippets inserted, the file cut short), so that the fast path is shown to give up
//! rather than misread. The fast path must also accept every corpus and `ok` kernel, or the
//! compiler would be slow where it matters and this test would prove little.

use std::path::{Path, PathBuf};

use spirthon_frontend::{ast, fast, parse};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python_files(dir: &str) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(repo().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no Python files in {dir}");
    files
}

/// Whether the fast path accepted `source`; panics if it accepted it differently.
fn agree(source: &str, what: &str) -> bool {
    let Some(fast_ast) = fast::parse(source) else {
        return false;
    };
    match parse::parse_reference(source, "x.py") {
        Ok((reference, diags)) => {
            assert!(
                diags.is_empty(),
                "{what}: the fast path accepted a file the reference path has diagnostics for: {diags:?}\n{source}"
            );
            if fast_ast != reference {
                panic!(
                    "{what}: the paths disagree\n--- source\n{source}\n--- fast\n{}\n--- reference\n{}",
                    ast::dump(&fast_ast),
                    ast::dump(&reference)
                );
            }
        }
        Err(diags) => {
            panic!("{what}: the fast path accepted a file with a syntax error: {diags:?}\n{source}")
        }
    }
    true
}

/// Whether `text` has a statement the fast path leaves to the reference parser: `match`,
/// whose translation into the kernel AST is written once, there, and `print` with string
/// or f-string arguments.
fn left_to_the_reference(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("match ")
            || (l.starts_with("print(") && (l.contains('"') || l.contains('\'')))
    })
}

#[test]
fn fast_path_reads_every_corpus_and_ok_kernel_as_the_reference_does() {
    for dir in ["shaders", "tests/kernels/ok", "tests/run"] {
        for (path, text) in python_files(dir) {
            let taken = agree(&text, &path.display().to_string());
            assert!(
                taken || (dir != "shaders" && left_to_the_reference(&text)),
                "the fast path gave up on {}",
                path.display()
            );
        }
    }
}

/// Every Python file under `dir`, at any depth (walked with a stack).
fn python_files_under(dir: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut work = vec![repo().join(dir)];
    while let Some(d) = work.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                work.push(p);
            } else if p.extension().is_some_and(|x| x == "py") {
                let text = std::fs::read_to_string(&p).unwrap();
                files.push((p, text));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_python_file_of_the_project_is_read_alike_or_left_to_the_reference() {
    // Kernel files, the corpus in today's Python (tests/modern/), test programs, examples,
    // the fuzzers' generators: whatever the fast path takes, it takes as the reference does.
    let (mut files, mut taken) = (0, 0);
    for dir in ["tests", "shaders", "examples", "python"] {
        for (path, text) in python_files_under(dir) {
            files += 1;
            taken += agree(&text, &path.display().to_string()) as usize;
        }
    }
    eprintln!("the fast path took {taken} of {files} files");
    assert!(files > 250 && taken > 100, "{taken} of {files}");
}

#[test]
fn fast_path_leaves_every_parse_error_to_the_reference() {
    // Errors found while parsing come from the reference path only; later stages' errors
    // (types, names…) come from files either path may read.
    let mut left = 0;
    for (path, text) in python_files("tests/kernels/err") {
        let parse_error =
            !matches!(parse::parse_reference(&text, "x.py"), Ok((_, d)) if d.is_empty());
        let accepted = agree(&text, &path.display().to_string());
        assert!(!(parse_error && accepted), "{}", path.display());
        left += parse_error as usize;
    }
    assert!(left >= 10, "only {left} error cases fail while parsing");
}

const SNIPPETS: &[&str] = &[
    " ",
    "\n",
    "(",
    ")",
    ",",
    ":",
    "=",
    "-",
    "**",
    "not ",
    " if c else d",
    "[0]",
    ".x",
    "#",
    "\"\"\"",
    "'",
    "0",
    "1.5",
    "a",
    "    ",
    "elif c:\n",
    "else:\n",
    "\t",
    " and ",
    "==",
    "< ",
    "1e3",
    "0x1F",
    "(a, b)",
    "()",
    "@kernel\n",
    "return\n",
    "x = ",
    "\n    ",
    "\\\n",
];

#[test]
fn mutations_are_read_alike_or_left_to_the_reference() {
    let mut files = Vec::new();
    for dir in [
        "shaders",
        "tests/kernels/ok",
        "tests/kernels/err",
        "tests/run",
    ] {
        files.extend(python_files(dir));
    }
    let (mut tried, mut accepted) = (0usize, 0usize);
    for (path, text) in &files {
        let step = (text.len() / 16).max(1);
        for at in (0..text.len()).step_by(step) {
            if !text.is_char_boundary(at) {
                continue;
            }
            let next = text[at..].chars().next().map_or(0, char::len_utf8);
            let mut mutants = vec![format!("{}{}", &text[..at], &text[at + next..])];
            mutants.push(text[..at].to_string());
            for snippet in SNIPPETS {
                mutants.push(format!("{}{snippet}{}", &text[..at], &text[at..]));
            }
            for m in &mutants {
                tried += 1;
                accepted += agree(m, &format!("{} mutated at {at}", path.display())) as usize;
            }
        }
    }
    eprintln!("{accepted} of {tried} mutants accepted by the fast path");
    // The check means something only if many mutants reach the comparison.
    assert!(
        accepted * 10 > tried,
        "only {accepted} of {tried} mutants were accepted by the fast path"
    );
}

/// Random expressions over every binary operator level, unary operators, `**`, comparisons,
/// `and`/`or`/`not`, conditional expressions and parentheses: both paths build one AST, so
/// the fast path's precedence and associativity are Python's.
#[test]
fn operator_precedence_agrees_on_random_expressions() {
    const OPS: &[&str] = &[
        "|", "^", "&", "<<", ">>", "+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=",
        "and", "or",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for case in 0..400 {
        let mut expr = String::from("a");
        let mut depth = 0;
        for k in 0..(2 + next(10)) {
            let op = OPS[next(OPS.len() as u64) as usize];
            let operand = match next(6) {
                0 => format!("-b{k}"),
                1 => format!("~c{k}"),
                2 => format!("(not d{k})"),
                3 => {
                    depth += 1;
                    format!("(e{k}")
                }
                _ => format!("x[{k}]"),
            };
            expr = format!("{expr} {op} {operand}");
            if depth > 0 && next(3) == 0 {
                expr.push(')');
                depth -= 1;
            }
        }
        expr.push_str(&")".repeat(depth));
        if next(4) == 0 {
            expr = format!("{expr} if q else r");
        }
        let source = format!("@kernel\ndef k(x: Array[f32]):\n    y = {expr}\n");
        assert!(
            agree(&source, &format!("case {case}")),
            "the fast path gave up on {source}"
        );
    }
}

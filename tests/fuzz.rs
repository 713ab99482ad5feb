//! In-process mutation fuzzing of the compiler. Every kernel file of the project (the corpus,
//! the golden and run cases) is a seed; each mutant is the seed with a few random edits
//! (lines deleted, duplicated, swapped, re-indented or spliced from another file; tokens
//! inserted; numbers replaced by edge values; a loop's or branch's condition wrapped in
//! conditional expressions, chained comparisons and `and`/`or`) and must compile to one of
//! two outcomes:
//! located errors, or a module that naga accepted and `spirv-val` accepts. A panic, an
//! internal compiler error, a rejected module or a compile that takes more than ten seconds
//! is a failure; the input is written to the temp directory and named in the report.
//!
//! The files of `tests/fuzz/regress/` (inputs that once broke the compiler) run first.
//!
//! A second test mutates the run inputs of the corpus (edge numbers, wrong types, missing and
//! extra keys, emptied and grown lists) and checks them as `spirthon run` does before it
//! touches a device: a plan or a clear error, never a panic (`SPIRTHON_FUZZ_INPUTS` per
//! kernel, default 100).
//!
//! `SPIRTHON_FUZZ_MUTANTS` sets how many mutants (default 3000), `SPIRTHON_FUZZ_SECONDS` a
//! time budget instead, `SPIRTHON_FUZZ_SEED` the seed; `cargo xtask fuzz --minutes N` runs
//! this test for N minutes. The run is deterministic for a given seed and mutant count.

mod common;

use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;
use spirthon::{CompileError, CompileOptions};

/// xorshift64*: small, seedable, good enough to pick edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Tokens a mutation may insert: the language's keywords, operators and edge values.
const TOKENS: &[&str] = &[
    "match ",
    "case ",
    "case _:",
    " | ",
    " := ",
    "(w := ",
    "if ",
    "elif ",
    "else:",
    "while ",
    "for ",
    " in range(",
    "break",
    "continue",
    "return",
    "pass",
    "and ",
    "or ",
    "not ",
    " if ",
    " else ",
    "lambda",
    "def ",
    "@kernel",
    "@func",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    "//",
    "%",
    "**",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "-",
    "+",
    "*",
    "/",
    ".x",
    ".y",
    ".z",
    ".shape",
    "0",
    "-1",
    "1",
    "2",
    "31",
    "32",
    "-2**31",
    "2**31",
    "2**32",
    "0x7FFFFFFF",
    "1e400",
    "-0.0",
    "0.5",
    "math.inf",
    "math.nan",
    "True",
    "False",
    "None",
    "i32(",
    "u32(",
    "f32(",
    "int(",
    "float(",
    "bool(",
    "abs(",
    "min(",
    "max(",
    "round(",
    "len(",
    "global_id()",
    "local_id()",
    "workgroup_id()",
    "local_index()",
    "math.sqrt(",
    "math.floor(",
    "import numpy as np\n",
    "from os import path\n",
    "np.",
    "path(",
    "\"s\"",
    "\\",
    "\t",
    "    ",
    "\n",
    "\r",
    "#",
    ";",
    "x",
    "i",
    "n",
    "out",
    "acc",
    "_",
];

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "-2",
    "31",
    "32",
    "33",
    "-2**31",
    "2**31 - 1",
    "2**31",
    "2**32",
    "2**63",
    "1 << 40",
    "0.0",
    "-0.0",
    "1e-45",
    "1e38",
    "1e400",
    "0.1",
    "-0.5",
    "1023",
    "1024",
    "65536",
    "0x8000",
    "0xFFFFFFFF",
];

fn mutate(rng: &mut Rng, seed: &str, other: &str) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    let others: Vec<&str> = other.lines().collect();
    // Mostly one edit, so that many mutants still compile and reach the back end.
    let edits = if rng.below(4) == 0 {
        2 + rng.below(3)
    } else {
        1
    };
    for _ in 0..edits {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let at = rng.below(lines.len());
        match rng.below(15) {
            0 => {
                lines.remove(at);
            }
            13 => wrap_condition(rng, &mut lines, at),
            14 => walrus_assignment(rng, &mut lines, at),
            1 => {
                let l = lines[at].clone();
                lines.insert(at, l);
            }
            2 => {
                let b = rng.below(lines.len());
                lines.swap(at, b);
            }
            3 => {
                let l = &mut lines[at];
                if rng.below(2) == 0 {
                    l.insert_str(0, "    ");
                } else if let Some(rest) = l.strip_prefix("    ") {
                    *l = rest.to_string();
                }
            }
            4 if !others.is_empty() => {
                let l = rng.pick(&others).to_string();
                lines.insert(at, l);
            }
            5 | 6 => {
                let l = &mut lines[at];
                let cut = char_boundary(l, rng.below(l.len() + 1));
                let token: &str = rng.pick::<&str>(TOKENS);
                l.insert_str(cut, token);
            }
            7 => {
                let l = &mut lines[at];
                if !l.is_empty() {
                    let a = char_boundary(l, rng.below(l.len()));
                    let b = char_boundary(l, (a + 1 + rng.below(8)).min(l.len()));
                    l.replace_range(a..b, "");
                }
            }
            8..=10 => replace_number(rng, &mut lines[at]),
            _ => {
                // A whole block repeated: nesting and length grow quickly.
                let n = (1 + rng.below(6)).min(lines.len() - at);
                let block: Vec<String> = lines[at..at + n].to_vec();
                for (k, l) in block.into_iter().enumerate() {
                    lines.insert(at + n + k, l);
                }
            }
        }
    }
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Control flow inside a condition: the condition of the first `while`, `if` or `elif` at or
/// after `at` becomes a conditional expression, a chained comparison or an `and`/`or` of
/// itself (and sometimes the `if` becomes a `while`), so that loop conditions branch.
fn wrap_condition(rng: &mut Rng, lines: &mut [String], at: usize) {
    const TEMPLATES: &[&str] = &[
        "({c}) and ({c} if {c} else {c})",
        "({c} if {c} else False) or ({c})",
        "not ({c} if not ({c}) else {c})",
        "({c}) and (0 <= 1 < 2 or {c})",
        "({c}) or (({c}) and ({c}))",
        "(({c}) if ({c}) else ({c}) if ({c}) else ({c}))",
    ];
    rewrite_first(lines, at, |_, line| {
        let body = line.strip_suffix(':')?;
        let (keyword, cond) = ["while ", "if ", "elif "]
            .iter()
            .find_map(|kw| body.strip_prefix(kw).map(|c| (*kw, c)))?;
        let keyword = if keyword == "if " && rng.below(4) == 0 {
            "while "
        } else {
            keyword
        };
        let wrapped = rng.pick(TEMPLATES).replace("{c}", cond);
        Some(format!("{keyword}{wrapped}:"))
    });
}

/// An assignment expression: the first plain assignment `name = value` at or after `at`
/// assigns through `:=` as well (to itself, to a new local, or inside a condition that
/// always holds), so that walruses meet every kind of value and place.
fn walrus_assignment(rng: &mut Rng, lines: &mut [String], at: usize) {
    const TEMPLATES: &[&str] = &[
        "{n} = ({n} := ({v}))",
        "{n} = (w := ({v})) if True else w",
        "{n} = ({v}) if (w := 0) == 0 else w",
    ];
    rewrite_first(lines, at, |indent, line| {
        let (name, value) = line.split_once(" = ")?;
        if indent.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        Some(
            rng.pick(TEMPLATES)
                .replace("{n}", name)
                .replace("{v}", value),
        )
    });
}

/// The first line at or after `at` (going round) that `rewrite` takes, given its indentation
/// and the rest, becomes the indentation and what `rewrite` gives.
fn rewrite_first(
    lines: &mut [String],
    at: usize,
    mut rewrite: impl FnMut(&str, &str) -> Option<String>,
) {
    let n = lines.len();
    for k in (0..n).map(|k| (at + k) % n) {
        let line = &lines[k];
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some(new) = rewrite(indent, trimmed) {
            lines[k] = format!("{indent}{new}");
            return;
        }
    }
}

fn char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn replace_number(rng: &mut Rng, line: &mut String) {
    let digits: Vec<usize> = line
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    let Some(&start) = digits
        .get(rng.below(digits.len()))
        .filter(|_| !digits.is_empty())
    else {
        return;
    };
    let end = line[start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .map_or(line.len(), |k| start + k);
    let number: &str = rng.pick::<&str>(NUMBERS);
    line.replace_range(start..end, number);
}

fn seeds() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in [
        "shaders",
        "tests/kernels/ok",
        "tests/kernels/err",
        "tests/run",
        "tests/checked",
    ] {
        files.extend(kernels(dir));
    }
    files
        .into_iter()
        .filter_map(|p| Some((display_path(&p), std::fs::read_to_string(&p).ok()?)))
        .collect()
}

fn regressions() -> Vec<(String, String)> {
    let dir = root().join("tests/fuzz/regress");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .filter_map(|p| Some((display_path(&p), std::fs::read_to_string(&p).ok()?)))
        .collect();
    out.sort();
    out
}

/// Whether `source` compiled, and what is wrong with the compiler's answer, if anything. A
/// file that compiles is compiled in checked mode too, and that module is judged alike; one
/// that does not is compiled as a Python program's file too (other imports allowed, as the
/// `spirthon` package compiles it), and judged alike.
fn verdict(source: &str, name: &str, validated: &mut HashSet<u64>) -> (bool, Option<String>) {
    let host = CompileOptions {
        host_imports: true,
        ..CompileOptions::default()
    };
    let (ok, wrong) = verdict_in(source, name, validated, &CompileOptions::default());
    if wrong.is_some() {
        return (ok, wrong);
    }
    if !ok {
        return match verdict_in(source, name, validated, &host) {
            (_, Some(why)) => (false, Some(format!("as a program's file: {why}"))),
            _ => (false, None),
        };
    }
    // Checked mode may reject what compiles unchecked: an `assert` runs there, so a certain
    // fault in its test (`assert x[-1] > 0`) is a compile error, as elsewhere.
    let checked = CompileOptions {
        checked: true,
        ..CompileOptions::default()
    };
    match verdict_in(source, name, validated, &checked) {
        (_, Some(why)) => (true, Some(format!("with --checked: {why}"))),
        _ => (true, None),
    }
}

fn verdict_in(
    source: &str,
    name: &str,
    validated: &mut HashSet<u64>,
    opts: &CompileOptions,
) -> (bool, Option<String>) {
    let result =
        std::panic::catch_unwind(AssertUnwindSafe(|| spirthon::compile(source, name, opts)));
    match result {
        Err(_) => (false, Some("the compiler panicked".into())),
        Ok(Err(CompileError::Internal(e))) => {
            (false, Some(format!("internal compiler error: {e}")))
        }
        Ok(Err(CompileError::Source(diags))) => {
            let outside = diags
                .iter()
                .any(|d| d.primary.span.start as usize > source.len());
            (
                false,
                outside.then(|| "an error is located outside the file".into()),
            )
        }
        Ok(Ok(c)) => {
            // spirv-val once per distinct module.
            let key = c.words.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, w| {
                (h ^ u64::from(*w)).wrapping_mul(0x100_0000_01b3)
            });
            if !validated.insert(key) {
                return (true, None);
            }
            (true, spirv_val(&c.words, name).err())
        }
    }
}

/// Writes a failing input where the report can name it.
fn keep(failures: &mut Vec<String>, name: &str, source: &str, why: String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spirthon-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(format!("{name}.py"));
    std::fs::write(&p, source).expect("keep failing input");
    failures.push(format!("{}: {why}", p.display()));
    p
}

/// A number from the environment, decimal or `0x` hex (the seed is printed in hex); one that
/// does not parse stops the test rather than being silently replaced by the default.
fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let t = v.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse(),
    };
    match parsed {
        Ok(n) => Some(n),
        Err(_) => panic!("{name}={v:?} is not a number (decimal or 0x hex)"),
    }
}

#[test]
fn mutants_compile_or_fail_cleanly() {
    let seed = env_u64("SPIRTHON_FUZZ_SEED").unwrap_or(0x5EED);
    let budget = env_u64("SPIRTHON_FUZZ_SECONDS").map(Duration::from_secs);
    let mutants =
        env_u64("SPIRTHON_FUZZ_MUTANTS").unwrap_or(if budget.is_some() { u64::MAX } else { 3000 });
    let seeds = seeds();
    assert!(seeds.len() > 20, "the fuzz corpus is missing");
    let regress = regressions();

    // The compiler runs on a thread with the command line's stack; this thread is the
    // watchdog that reports a compile that does not finish.
    let (to_worker, inputs) = mpsc::channel::<(String, String)>();
    let (to_main, verdicts) = mpsc::channel::<(bool, Option<String>)>();
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut validated = HashSet::new();
            for (name, source) in inputs {
                let v = verdict(&source, &name, &mut validated);
                if to_main.send(v).is_err() {
                    break;
                }
            }
        })
        .expect("fuzz worker");
    let mut failures: Vec<String> = Vec::new();
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let mut ran = 0u64;
    let mut rejected = 0u64;
    let mut compiled = 0u64;
    let mut cases = regress.into_iter().map(|(n, s)| (n, s, true));
    loop {
        let (name, source, _regress) = match cases.next() {
            Some(c) => c,
            None => {
                if ran >= mutants || budget.is_some_and(|b| start.elapsed() > b) {
                    break;
                }
                let (_, a) = rng.pick(&seeds).clone();
                let (_, b) = rng.pick(&seeds).clone();
                let m = mutate(&mut rng, &a, &b);
                ran += 1;
                (format!("mutant{ran}"), m, false)
            }
        };
        to_worker
            .send((name.clone(), source.clone()))
            .expect("worker alive");
        match verdicts.recv_timeout(Duration::from_secs(10)) {
            Ok((ok, None)) => compiled += u64::from(ok),
            Ok((_, Some(why))) => {
                rejected += 1;
                keep(&mut failures, &name, &source, why);
                if failures.len() >= 20 {
                    break;
                }
            }
            Err(_) => {
                let p = keep(
                    &mut failures,
                    &name,
                    &source,
                    "the compile took more than 10 s".into(),
                );
                panic!("fuzzing stopped at a hang: {}", p.display());
            }
        }
    }
    drop(to_worker);
    let _ = worker.join();
    eprintln!(
        "fuzz: seed {seed:#x}, {ran} mutants in {:.1} s: {compiled} compiled (each distinct module through spirv-val), {rejected} failures",
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} inputs broke the compiler (seed {seed:#x}); copy each into tests/fuzz/regress/ once fixed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A value a mutated run input may take: edge numbers, wrong types, odd shapes.
fn odd_value(rng: &mut Rng) -> serde_json::Value {
    use serde_json::json;
    match rng.below(16) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(i64::MIN),
        4 => json!(1e308),
        5 => json!(-0.5),
        6 => json!("nan"),
        7 => json!(null),
        8 => json!(true),
        9 => json!([]),
        10 => json!([[1, 2], [3]]),
        11 => json!({"zeros": u64::MAX}),
        12 => json!({"zeros": -3}),
        13 => json!({"zeros": 4, "extra": 1}),
        14 => json!({}),
        _ => json!(2u64.pow(32)),
    }
}

/// Every JSON pointer into `v` ("" is `v` itself), found without recursion.
fn pointers(v: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut work = vec![(String::new(), v)];
    while let Some((p, v)) = work.pop() {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    work.push((
                        format!("{p}/{}", k.replace('~', "~0").replace('/', "~1")),
                        x,
                    ));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    work.push((format!("{p}/{i}"), x));
                }
            }
            _ => {}
        }
        out.push(p);
    }
    out
}

/// One random edit somewhere in `v`: a value replaced, a key removed or added, a list grown
/// or emptied.
fn mutate_json(rng: &mut Rng, v: &mut serde_json::Value) {
    let ps = pointers(v);
    let p = rng.pick(&ps).clone();
    let Some(target) = v.pointer_mut(&p) else {
        return;
    };
    match (rng.below(3), target) {
        (0, serde_json::Value::Object(map)) if !map.is_empty() => {
            let k = map
                .keys()
                .nth(rng.below(map.len()))
                .cloned()
                .unwrap_or_default();
            map.remove(&k);
        }
        (1, serde_json::Value::Object(map)) => {
            map.insert(format!("extra{}", rng.below(3)), odd_value(rng));
        }
        (0, serde_json::Value::Array(items)) => items.clear(),
        (1, serde_json::Value::Array(items)) if !items.is_empty() => {
            let x = items[rng.below(items.len())].clone();
            items.push(x);
        }
        (_, t) => *t = odd_value(rng),
    }
}

/// Mutated run inputs for every corpus kernel: checking them (`run::plan`, all that happens
/// before a device is touched) gives a result or a clear error, never a panic.
#[test]
fn mutated_run_inputs_fail_cleanly() {
    let mut rng = Rng(env_u64("SPIRTHON_FUZZ_SEED").unwrap_or(0x5EED) | 1);
    let per_kernel = env_u64("SPIRTHON_FUZZ_INPUTS").unwrap_or(100);
    let mut checked = 0;
    for py in kernels("shaders") {
        let inputs = py.with_extension("inputs.json");
        let Ok(text) = std::fs::read_to_string(&inputs) else {
            continue;
        };
        let source = std::fs::read_to_string(&py).expect("read kernel");
        let compiled = spirthon::compile(&source, "k.py", &CompileOptions::default())
            .unwrap_or_else(|_| panic!("{} compiles", py.display()));
        let base: serde_json::Value = serde_json::from_str(&text).expect("corpus inputs are JSON");
        for n in 0..per_kernel {
            let mut v = base.clone();
            for _ in 0..1 + rng.below(3) {
                mutate_json(&mut rng, &mut v);
            }
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
                spirthon::run::plan(&compiled, &v, None)
            }));
            assert!(
                r.is_ok(),
                "checking mutant {n} of {} panicked on:\n{v}",
                inputs.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no corpus inputs were found");
}

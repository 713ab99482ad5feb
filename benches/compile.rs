//! Compile-time benchmark over the kernel corpus (`cargo bench --bench compile`, or
//! `cargo xtask bench`): for each `shaders/NAME.py`, spirthon's time from source text to
//! naga-validated SPIR-V words with its phases, beside naga compiling the hand-written
//! `NAME.wgsl` twin to SPIR-V (parse, validate, write), and the SPIR-V word counts of both.
//!
//! Each time is the median of many runs in one process, the two compilers taking turns run
//! by run. Targets (summed over the corpus, and over the kernels of the language's vectors,
//! tuples, 2-D arrays, workgroup memory and atomics on a line of their own): compile time
//! <= 1.0x naga's, words <= 1.0x naga's. naga writes no `OpName`s, so "stripped" (spirthon
//! without them, `--strip`) is the like-for-like word count. Then how many files the
//! parser's fast path takes and both parse paths' times (the rest fall back). Then a scale table: generated files
//! far larger than any kernel (a 40,000-link `elif` chain, 12,000 loops in one kernel, 120
//! kernels of 100 `while` loops with `break`/`continue`/`else`), each compiled whole with its
//! phases, to show that compile time stays linear (target: the 12,000 loops under 0.5 s).
//! Without `--bench` (as `cargo test --all-targets` runs it) it does a few iterations only,
//! on files a hundred times smaller, as a smoke test.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use spirthon::CompileOptions;

/// The corpus kernels written for the language's vectors, tuples, 2-D arrays, workgroup
/// memory, barriers and atomics, summed on their own line.
const LANGUAGE_KERNELS: [&str; 11] = [
    "black_scholes",
    "conv_rows",
    "heat2d",
    "histogram",
    "julia",
    "matmul_tiled",
    "nbody",
    "raytrace",
    "reduce",
    "scan",
    "spherical",
];

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

struct Row {
    name: String,
    phases: Vec<(&'static str, Duration)>,
    total: Duration,
    naga: [Duration; 3],
    /// Median of naga's whole compile (parse, validate, write together).
    naga_total: Duration,
    words: usize,
    words_stripped: usize,
    naga_words: usize,
    /// `--checked`: median compile time and words.
    checked: Duration,
    checked_words: usize,
}

fn naga_compile(src: &str) -> ([Duration; 3], Vec<u32>) {
    let t0 = Instant::now();
    let module = naga::front::wgsl::parse_str(src).expect("the WGSL twin parses");
    let t1 = Instant::now();
    // The twin of an `f64` (`u64`) kernel uses naga's `f64` (`u64`, 64-bit atomics), a
    // subgroup kernel's its subgroup operations.
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default()
            | naga::valid::Capabilities::FLOAT64
            | naga::valid::Capabilities::SHADER_INT64
            | naga::valid::Capabilities::SHADER_INT64_ATOMIC_ALL_OPS
            | naga::valid::Capabilities::SUBGROUP,
    )
    .subgroup_stages(naga::valid::ShaderStages::COMPUTE)
    .subgroup_operations(naga::valid::SubgroupOperationSet::all())
    .validate(&module)
    .expect("the WGSL twin validates");
    let t2 = Instant::now();
    let words =
        naga::back::spv::write_vec(&module, &info, &naga::back::spv::Options::default(), None)
            .expect("naga writes SPIR-V");
    let t3 = Instant::now();
    ([t1 - t0, t2 - t1, t3 - t2], words)
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let iters = if full { 300 } else { 3 };
    let files = python_files("shaders");
    let mut rows = Vec::new();
    for py in &files {
        let name = py
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        let src = std::fs::read_to_string(py).expect("kernel source");
        let wgsl = std::fs::read_to_string(py.with_extension("wgsl")).expect("WGSL twin");
        let opts = CompileOptions::default();
        let mut totals = Vec::new();
        let mut phase_runs: Vec<Vec<Duration>> = Vec::new();
        let mut words = 0;
        let mut naga_runs: [Vec<Duration>; 3] = Default::default();
        let mut naga_totals = Vec::new();
        let mut naga_words = 0;
        // The two compilers take turns, so that a change in the machine's speed during the
        // run (frequency, a neighbour's load) falls on both alike.
        for _ in 0..iters {
            let t = Instant::now();
            let c = spirthon::compile(&src, &name, &opts).expect("corpus kernel compiles");
            totals.push(t.elapsed());
            words = c.words.len();
            if phase_runs.is_empty() {
                phase_runs = vec![Vec::new(); c.phases.len()];
            }
            for (k, (_, d)) in c.phases.iter().enumerate() {
                phase_runs[k].push(*d);
            }
            drop(c);
            let (t, w) = naga_compile(&wgsl);
            for k in 0..3 {
                naga_runs[k].push(t[k]);
            }
            naga_totals.push(t[0] + t[1] + t[2]);
            naga_words = w.len();
        }
        let c = spirthon::compile(&src, &name, &opts).expect("compiles");
        let stripped = spirthon::compile(
            &src,
            &name,
            &CompileOptions {
                names: false,
                ..CompileOptions::default()
            },
        )
        .expect("compiles");
        let phases = c
            .phases
            .iter()
            .zip(phase_runs)
            .map(|((n, _), runs)| (*n, median(runs)))
            .collect();
        let naga = naga_runs.map(median);
        let checked_opts = CompileOptions {
            checked: true,
            ..CompileOptions::default()
        };
        let mut checked_runs = Vec::new();
        let mut checked_words = 0;
        for _ in 0..iters {
            let t = Instant::now();
            let c = spirthon::compile(&src, &name, &checked_opts).expect("compiles checked");
            checked_runs.push(t.elapsed());
            checked_words = c.words.len();
        }
        rows.push(Row {
            name,
            phases,
            total: median(totals),
            naga,
            naga_total: median(naga_totals),
            words,
            words_stripped: stripped.words.len(),
            naga_words,
            checked: median(checked_runs),
            checked_words,
        });
    }
    print_table(&rows, full);
    parse_paths(&files, iters);
    specializations(iters);
    scale(full);
}

/// What a generic kernel's specialization costs: the generic `blend` of
/// `tests/run/generic_kernels.py` compiled for one and for three sets of types, beside the
/// same kernel written with its types (one compile each).
fn specializations(iters: usize) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let generic = std::fs::read_to_string(root.join("tests/run/generic_kernels.py"))
        .expect("tests/run/generic_kernels.py");
    let written = generic
        .replace(
            "a: Array[T], b: Array[T], w: T, out: Array[T]",
            "a: Array[f32], b: Array[f32], w: f32, out: Array[f32]",
        )
        .replace(
            "from spirthon import kernel",
            "from spirthon import f32, kernel",
        );
    let spec = |types: &[&str]| CompileOptions {
        kernel: Some("blend".into()),
        types: types
            .iter()
            .map(|t| ("blend".to_string(), vec![("T".to_string(), t.to_string())]))
            .collect(),
        ..CompileOptions::default()
    };
    let cases = [
        (
            "written with f32",
            written.as_str(),
            CompileOptions {
                kernel: Some("blend".into()),
                ..CompileOptions::default()
            },
        ),
        ("generic, T=f32", generic.as_str(), spec(&["f32"])),
        (
            "generic, T=f32, f64, i32",
            generic.as_str(),
            spec(&["f32", "f64", "i32"]),
        ),
    ];
    println!("\nspecializations: median µs to compile kernel `blend`");
    println!("| kernel                     | entry points |   µs |");
    println!("|----------------------------|-------------:|-----:|");
    for (what, src, opts) in cases {
        let mut runs = Vec::new();
        let mut n = 0;
        for _ in 0..iters.max(3) {
            let t = Instant::now();
            let c = spirthon::compile(src, "generic_kernels.py", &opts).expect("compiles");
            runs.push(t.elapsed());
            n = c.module.entry_points.len();
        }
        println!(
            "| {what:<26} | {n:>12} | {:>4.0} |",
            median(runs).as_secs_f64() * 1e6
        );
    }
}

/// The `.py` files of the repository's directory `dir`, sorted.
fn python_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir))
            .unwrap_or_else(|e| panic!("{dir}/: {e}"))
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
    files.sort();
    files
}

/// How many files the parser's fast path takes (the rest fall back to the reference path,
/// Ruff's parser), and both paths' parse times summed over the corpus and over the files of
/// `tests/modern/` (today's Python around kernels, which only the reference path reads).
fn parse_paths(corpus: &[PathBuf], iters: usize) {
    let modern = python_files("tests/modern");
    println!("\nparse paths: median µs summed over the files");
    println!("| files          | files | fast path takes | fast path µs | reference µs |");
    println!("|----------------|------:|----------------:|-------------:|-------------:|");
    for (what, files) in [("shaders/", corpus), ("tests/modern/", &modern[..])] {
        let (mut taken, mut fast, mut reference) = (0, 0.0, 0.0);
        for py in files {
            let src = std::fs::read_to_string(py).expect("source");
            let time = |f: &dyn Fn() -> bool| {
                let runs = (0..iters.max(3))
                    .map(|_| {
                        let t = Instant::now();
                        std::hint::black_box(f());
                        t.elapsed()
                    })
                    .collect();
                us(median(runs))
            };
            if spirthon_frontend::fast::parse(&src).is_some() {
                taken += 1;
                fast += time(&|| spirthon_frontend::fast::parse(&src).is_some());
            }
            reference += time(&|| spirthon_frontend::parse::parse_reference(&src, "x.py").is_ok());
        }
        println!(
            "| {what:<14} | {:>5} | {taken:>15} | {fast:>12.1} | {reference:>12.1} |",
            files.len()
        );
    }
}

/// A kernel with an `if`/`elif` chain of `links` links on one value.
fn elif_chain(links: usize) -> String {
    let mut s = String::from(
        "from spirthon import kernel, Array, i32, global_id\n\n@kernel\ndef chain(x: Array[i32]):\n    i = global_id().x\n    v = x[i]\n    r = 0\n    if v == 0:\n        r = 1\n",
    );
    for k in 1..links {
        s += &format!("    elif v == {k}:\n        r = {}\n", k * 3 % 1000);
    }
    s + "    x[i] = r\n"
}

/// A kernel of `n` consecutive counted loops, each reading the array (about 110 bytes each).
fn many_loops(n: usize) -> String {
    let mut s = String::from(
        "from spirthon import kernel, Array, i32, global_id\n\n@kernel\ndef big(x: Array[i32]):\n    i = global_id().x\n    acc = x[i]\n",
    );
    for k in 0..n {
        s += &format!(
            "    for k{k} in range(x[{}] % 4):\n        acc = (acc * {} + k{k} ^ x[(i + {k}) % 64]) & 0xFFFF  # loop {k}\n",
            k % 5,
            k % 13 + 3
        );
    }
    s + "    x[i] = acc\n"
}

/// `kernels` kernels of 100 `while` loops each, with `continue`, `break` and a loop `else`.
fn many_kernels(kernels: usize) -> String {
    let mut s = String::from("from spirthon import kernel, Array, i32, f32, global_id\n\n");
    for kk in 0..kernels {
        s += &format!("@kernel\ndef k{kk}(x: Array[i32], y: Array[f32]):\n    i = global_id().x\n    acc = x[i]\n    f = y[i]\n");
        for k in 0..100 {
            s += &format!(
                "    n{k} = x[{}] % 5\n    while n{k} > 0:\n        n{k} -= 1\n        if acc > {}:\n            acc = acc // 2 + {k}\n            continue\n        f = f * 0.5 + {k}.25\n        if f > 1e6:\n            break\n    else:\n        acc += {k}\n",
                k % 7,
                k * 7
            );
        }
        s += "    x[i] = acc\n    y[i] = f\n\n";
    }
    s
}

/// The scale table: each generated file compiled whole (median of 3 in a full run).
fn scale(full: bool) {
    let k = if full { 1 } else { 100 };
    let files = [
        (
            format!("elif chain, {} links", 40_000 / k),
            elif_chain(40_000 / k),
        ),
        (format!("{} loops", 12_000 / k), many_loops(12_000 / k)),
        (
            format!("{} kernels x 100 whiles", 120 / k.min(60)),
            many_kernels(120 / k.min(60)),
        ),
    ];
    println!("\nscale: generated files compiled whole, median ms (target: 12,000 loops < 500 ms)");
    println!("| file                       |    bytes | parse | check | lower |   ssa |  emit | valid | total |    words |");
    println!("|----------------------------|---------:|------:|------:|------:|------:|------:|------:|------:|---------:|");
    for (name, src) in &files {
        let mut runs = Vec::new();
        let mut last = None;
        for _ in 0..if full { 3 } else { 1 } {
            let t = Instant::now();
            let c = spirthon::compile(src, "scale.py", &CompileOptions::default())
                .expect("the generated file compiles");
            runs.push(t.elapsed());
            last = Some(c);
        }
        let c = last.expect("one run");
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let phases: Vec<String> = c
            .phases
            .iter()
            .map(|(_, d)| format!("{:5.0}", ms(*d)))
            .collect();
        println!(
            "| {:<26} | {:8} | {} | {:5.0} | {:8} |",
            name,
            src.len(),
            phases.join(" | "),
            ms(median(runs)),
            c.words.len()
        );
    }
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn print_table(rows: &[Row], full: bool) {
    println!(
        "spirthon compile vs naga (WGSL twin -> SPIR-V), median µs{}",
        if full {
            ""
        } else {
            " (smoke run: 3 iterations)"
        }
    );
    println!("| kernel        | parse | check | lower |   ssa |  emit | valid | spirthon | naga parse | naga valid | naga write |  naga | ratio | words | stripped | naga words |");
    println!("|---------------|------:|------:|------:|------:|------:|------:|---------:|-----------:|-----------:|-----------:|------:|------:|------:|---------:|-----------:|");
    let (mut st, mut nt, mut sw, mut ss, mut nw) = (0.0, 0.0, 0, 0, 0);
    for r in rows {
        let p: Vec<String> = r
            .phases
            .iter()
            .map(|(_, d)| format!("{:5.1}", us(*d)))
            .collect();
        let naga_total = us(r.naga_total);
        println!(
            "| {:<13} | {} | {:8.1} | {:10.1} | {:10.1} | {:10.1} | {:5.1} | {:5.2} | {:5} | {:8} | {:10} |",
            r.name,
            p.join(" | "),
            us(r.total),
            us(r.naga[0]),
            us(r.naga[1]),
            us(r.naga[2]),
            naga_total,
            us(r.total) / naga_total,
            r.words,
            r.words_stripped,
            r.naga_words
        );
        st += us(r.total);
        nt += naga_total;
        sw += r.words;
        ss += r.words_stripped;
        nw += r.naga_words;
    }
    println!(
        "total: spirthon {st:.1} µs, naga {nt:.1} µs, time ratio {:.2} (target <= 1.0)",
        st / nt
    );
    println!("words: spirthon {sw} ({ss} without OpName), naga {nw}: ratio {:.2} ({:.2} stripped; target <= 1.0)", sw as f64 / nw as f64, ss as f64 / nw as f64);
    let lang: Vec<&Row> = rows
        .iter()
        .filter(|r| LANGUAGE_KERNELS.contains(&r.name.as_str()))
        .collect();
    let lt: f64 = lang.iter().map(|r| us(r.total)).sum();
    let ln: f64 = lang.iter().map(|r| us(r.naga_total)).sum();
    let lw: usize = lang.iter().map(|r| r.words).sum();
    let ls: usize = lang.iter().map(|r| r.words_stripped).sum();
    let lnw: usize = lang.iter().map(|r| r.naga_words).sum();
    let worst = lang
        .iter()
        .map(|r| (us(r.total) / us(r.naga_total), r.name.as_str()))
        .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
    println!(
        "the {} kernels of vectors, tuples, 2-D arrays, workgroup memory and atomics: time ratio {:.2}, words ratio {:.2} ({:.2} stripped) (highest time ratio: {} {:.2})",
        lang.len(),
        lt / ln,
        lw as f64 / lnw as f64,
        ls as f64 / lnw as f64,
        worst.1,
        worst.0
    );
    let ct: f64 = rows.iter().map(|r| us(r.checked)).sum();
    let cw: usize = rows.iter().map(|r| r.checked_words).sum();
    println!(
        "--checked: {ct:.1} µs ({:.2}x unchecked), {cw} words ({:.2}x unchecked)",
        ct / st,
        cw as f64 / sw as f64
    );
}

//! The command line end to end: outputs, exit codes, and hostile input.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn spirthon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spirthon"))
        .args(args)
        .output()
        .expect("the spirthon binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spirthon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn write(name: &str, text: &str) -> String {
    let p = scratch(name);
    std::fs::write(&p, text).expect("write input");
    p.display().to_string()
}

fn saxpy() -> String {
    common::root()
        .join("shaders/saxpy.py")
        .display()
        .to_string()
}

const SPIRV_MAGIC: [u8; 4] = 0x0723_0203u32.to_le_bytes();

#[test]
fn compiles_to_a_file_and_to_stdout() {
    let out = scratch("saxpy.spv");
    let r = spirthon(&[&saxpy(), "-o", &out.display().to_string()]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let bytes = std::fs::read(&out).expect("output written");
    assert_eq!(&bytes[..4], &SPIRV_MAGIC);
    let r = spirthon(&[&saxpy(), "-o", "-"]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(&r.stdout[..4], &SPIRV_MAGIC);
    assert_eq!(r.stdout, bytes, "stdout and file output agree");
}

#[test]
fn source_errors_exit_1_point_at_the_line_and_write_nothing() {
    let src = write("bad.py", "from spirthon import kernel, Array, f32, global_id\n\n@kernel\ndef k(x: Array[f32]):\n    i = global_id().x\n    x[i] = y\n");
    let out = scratch("bad.spv");
    let _ = std::fs::remove_file(&out);
    let r = spirthon(&[&src, "-o", &out.display().to_string()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("error: undefined name `y`"), "{err}");
    assert!(err.contains("bad.py:6:12"), "{err}");
    assert!(err.contains('^'), "a caret under the span: {err}");
    assert!(!out.exists(), "nothing is written when there are errors");
}

#[test]
fn json_errors_carry_line_and_column() {
    let src = write("bad_json.py", "from spirthon import kernel, Array, f32, global_id\n\n@kernel\ndef k(x: Array[f32]):\n    x[0] = [1]\n");
    let r = spirthon(&[&src, "--error-format", "json"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    let first: serde_json::Value =
        serde_json::from_str(err.lines().next().expect("a line")).expect("JSON");
    assert_eq!(first["span"]["line"], 5);
    assert_eq!(first["span"]["column"], 12);
    assert_eq!(first["message"], "lists are not supported in kernels");
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(spirthon(&["/nonexistent/kernel.py"]).status.code(), Some(2));
    assert_eq!(
        spirthon(&[&saxpy(), "--emit", "nonsense"]).status.code(),
        Some(2)
    );
    assert_eq!(spirthon(&[]).status.code(), Some(2));
    let r = spirthon(&[&saxpy(), "-o", "/nonexistent-dir/out.spv"]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn version_and_help() {
    let r = spirthon(&["--version"]);
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("spirthon "));
    let r = spirthon(&["--help"]);
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stdout).contains("Examples:"));
}

#[test]
fn reflect_describes_the_binding_abi() {
    let r = spirthon(&[&saxpy(), "--emit", "reflect"]);
    assert_eq!(r.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["name"], "saxpy");
    assert_eq!(k["workgroup_size"], serde_json::json!([64, 1, 1]));
    let b = &k["bindings"];
    assert_eq!(b[0]["kind"], "uniform");
    assert_eq!(b[0]["fields"][0]["name"], "a");
    assert_eq!(b[0]["fields"][0]["offset"], 0);
    assert_eq!(b[0]["fields"][1]["name"], "threads");
    assert_eq!(b[0]["fields"][1]["offset"], 16);
    assert_eq!(b[0]["fields"][1]["hidden"], true);
    assert_eq!(b[0]["threads"], 16);
    assert_eq!(b[0]["shapes"], serde_json::json!([]));
    assert_eq!(b[1]["name"], "x");
    assert_eq!(b[1]["read_only"], true);
    assert_eq!(b[2]["name"], "y");
    assert_eq!(b[2]["read_only"], false);
}

/// The hidden members of the uniform block are data of their own in the reflection: the
/// offset of `threads`, and each shape axis by array, axis and offset.
#[test]
fn reflect_gives_the_hidden_members_as_data() {
    let file = common::root().join("tests/run/arrays_2d.py");
    let r = spirthon(&[file.to_str().unwrap(), "--emit", "reflect"]);
    assert_eq!(r.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    let u = &v["kernels"][0]["bindings"][0];
    let fields = u["fields"].as_array().expect("fields");
    let shapes = u["shapes"].as_array().expect("shapes");
    assert!(!shapes.is_empty());
    for s in shapes {
        let name = format!("{}.shape[{}]", s["array"].as_str().unwrap(), s["axis"]);
        let field = fields
            .iter()
            .find(|f| f["name"] == name.as_str())
            .expect(&name);
        assert_eq!(field["offset"], s["offset"]);
        assert_eq!(field["hidden"], true);
    }
    let threads = fields
        .iter()
        .find(|f| f["name"] == "threads")
        .expect("threads");
    assert_eq!(threads["offset"], u["threads"]);
}

#[test]
fn kernel_selects_one_entry_point() {
    let file = common::root()
        .join("shaders/activations.py")
        .display()
        .to_string();
    let r = spirthon(&[&file, "--emit", "spvasm", "--kernel", "gelu"]);
    assert_eq!(r.status.code(), Some(0));
    let asm = String::from_utf8_lossy(&r.stdout);
    assert_eq!(asm.matches("OpEntryPoint").count(), 1, "{asm}");
    assert!(asm.contains("\"gelu\""));
    let r = spirthon(&[&file, "--emit", "spvasm"]);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout)
            .matches("OpEntryPoint")
            .count(),
        3
    );
    let r = spirthon(&[&file, "--kernel", "nope"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("its kernels are `"), "{err}");
    assert!(err.contains("`gelu`"), "{err}");
}

#[test]
fn never_overwrites_an_input() {
    let src = scratch("self.py");
    std::fs::copy(saxpy(), &src).expect("copy");
    let before = std::fs::read(&src).expect("read");
    let s = src.display().to_string();
    let r = spirthon(&[&s, "-o", &s]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("is the kernel file itself"));
    // The same file by another name: a hard link is the same device and inode.
    let hard = scratch("self_hard.py");
    let _ = std::fs::remove_file(&hard);
    std::fs::hard_link(&src, &hard).expect("hard link");
    let r = spirthon(&[&s, "-o", &hard.display().to_string()]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let inputs = common::root().join("shaders/saxpy.inputs.json");
    let r = spirthon(&[
        "run",
        &s,
        "--inputs",
        &inputs.display().to_string(),
        "--out",
        &s,
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("is an input of the run"));
    assert_eq!(
        std::fs::read(&src).expect("read"),
        before,
        "the input is intact"
    );
}

#[test]
fn text_emits() {
    for (emit, needle) in [
        ("cfg-dot", "digraph"),
        ("ssa", "phi"),
        ("cfg", "$"),
        ("ast", "def collatz("),
    ] {
        let file = common::root()
            .join("shaders/collatz.py")
            .display()
            .to_string();
        let r = spirthon(&[&file, "--emit", emit]);
        assert_eq!(r.status.code(), Some(0), "--emit {emit}");
        assert!(
            String::from_utf8_lossy(&r.stdout).contains(needle),
            "--emit {emit} lacks {needle}"
        );
    }
}

fn kernel_with_body(body: &str) -> String {
    format!("from spirthon import kernel, Array, f32, global_id\n\n@kernel\ndef k(x: Array[f32]):\n    i = global_id().x\n{body}")
}

#[test]
fn hostile_nesting_gives_a_clean_result() {
    // CPython takes 200 nested brackets and refuses 201: so do we.
    for (depth, status) in [(200, 0), (201, 1), (5000, 1)] {
        let parens = kernel_with_body(&format!(
            "    x[i] = {}1.0{}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        ));
        let r = spirthon(&[
            &write("parens.py", &parens),
            "-o",
            &scratch("parens.spv").display().to_string(),
        ]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(status), "{depth}: {err}");
        assert_eq!(
            status == 1,
            err.contains("too many nested parentheses"),
            "{err}"
        );
    }

    let mut ifs = String::new();
    for d in 0..1000 {
        ifs.push_str(&format!("{}if x[i] > {d}.0:\n", "    ".repeat(d + 1)));
    }
    ifs.push_str(&format!("{}x[i] = 1.0\n", "    ".repeat(1001)));
    let r = spirthon(&[&write("ifs.py", &kernel_with_body(&ifs))]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("too many levels of indentation"));

    let negs = kernel_with_body(&format!("    x[i] = {}1.0\n", "-".repeat(5000)));
    let r = spirthon(&[&write("negs.py", &negs)]);
    assert_eq!(r.status.code(), Some(1));

    let long_sum = kernel_with_body(&format!("    x[i] = {}\n", vec!["x[i]"; 200].join(" + ")));
    let r = spirthon(&[
        &write("sum.py", &long_sum),
        "-o",
        &scratch("sum.spv").display().to_string(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}

#[test]
fn input_far_past_cpythons_limits_is_refused_never_a_crash() {
    // Trees far deeper than the stack allows if walked or dropped recursively: each is a
    // clean, located error (the parser grows its stack; the rest is refused or sized).
    let n = 100_000;
    let cases = [
        (
            format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
            "too many nested parentheses",
        ),
        (
            format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n - 1)),
            "too many nested parentheses",
        ),
        (
            format!("x = {}1{}\n", "f\"{".repeat(n), "}\"".repeat(n)),
            "too many nested parentheses",
        ),
        (format!("x = {}1\n", "-".repeat(n)), "too complex to parse"),
        (
            format!("x = {}1\n", "not ".repeat(n)),
            "too complex to parse",
        ),
        (
            format!("x = {}1\n", "lambda: ".repeat(n)),
            "too complex to parse",
        ),
        (
            format!("x = 1{}\n", "**1".repeat(n)),
            "too complex to parse",
        ),
        (
            format!("x = {}1\n", "1 if 1 else ".repeat(n)),
            "too complex to parse",
        ),
        (format!("x = {}1\n", "1+".repeat(n)), "too complex to parse"),
        (format!("x = f{}\n", ".a".repeat(n)), "too complex to parse"),
    ];
    for (k, (body, message)) in cases.iter().enumerate() {
        let file = write(
            &format!("deep{k}.py"),
            &format!("from spirthon import kernel\n{body}"),
        );
        let r = spirthon(&[&file, "-o", &scratch("deep.spv").display().to_string()]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "case {k}: {err}");
        assert!(
            err.contains(message) && err.contains(":2:"),
            "case {k}: {err}"
        );
    }
    // Deep but within CPython's limits: read, and the file's lack of a kernel is the error.
    for body in [
        format!("x = {}1\n", "-".repeat(5_000)),
        format!("x = {}1\n", "lambda: ".repeat(2_000)),
        format!("x = [{}]\n", vec!["-1"; 50_000].join(", ")),
    ] {
        let file = write(
            "deep_ok.py",
            &format!("from spirthon import kernel\n{body}"),
        );
        let r = spirthon(&[&file, "-o", &scratch("deep.spv").display().to_string()]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains("has no `@kernel`"), "{err}");
    }
}

/// An `elif` chain of `n` links over `v`, each assigning `r` (which has no earlier value:
/// the chain's `else` makes it definitely assigned), indented by `indent` levels.
fn elif_chain(n: usize, indent: usize, extra: &str) -> String {
    let pad = "    ".repeat(indent);
    let mut s = String::new();
    for j in 0..n {
        let kw = if j == 0 { "if" } else { "elif" };
        s.push_str(&format!(
            "{pad}{kw} v == {j}.0:\n{pad}    r = {j}.0\n{extra}"
        ));
    }
    s.push_str(&format!("{pad}else:\n{pad}    r = -1.0\n"));
    s
}

#[test]
fn long_elif_chains_stay_within_spirv_limits() {
    // 1100 links: nested, that would be 1100 levels (spirv-val allows 1023).
    let body = format!("    v = x[i]\n{}    x[i] = r\n", elif_chain(1100, 1, ""));
    let out = scratch("elif.spv");
    let r = spirthon(&[
        &write("elif.py", &kernel_with_body(&body)),
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let bytes = std::fs::read(&out).expect("output written");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    common::spirv_val(&words, "elif1100").unwrap();

    // A `break` of the enclosing loop in every branch keeps the chain nested: a located
    // error at the link that passes the limit, not an invalid module.
    let body = format!(
        "    v = x[i]\n    r = 0.0\n    while v < 10.0:\n{}        v += 1.0\n    x[i] = r\n",
        elif_chain(1100, 2, "            break\n")
    );
    let r = spirthon(&[&write("elif_break.py", &kernel_with_body(&body))]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("nested more than 1023 levels"), "{err}");
    assert!(err.contains("elif v == 1022.0"), "{err}");

    // Every `break` of a loop joins at its end: past what one phi can hold, an error.
    let mut breaks = String::from("    v = x[i]\n    while True:\n");
    for j in 0..32_001 {
        breaks.push_str(&format!("        if v == {j}.0:\n            break\n"));
    }
    breaks.push_str("        v = 0.0\n    x[i] = v\n");
    let r = spirthon(&[&write("breaks.py", &kernel_with_body(&breaks))]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("more than 32000 branches"), "{err}");
}

#[test]
fn source_files_must_be_utf8_and_bounded() {
    let p = scratch("latin1.py");
    std::fs::write(
        &p,
        b"from spirthon import kernel, Array, f32\n@kernel\ndef k(x: Array[f32]):\n    x[0] = 1.0  # caf\xe9\n",
    )
    .expect("write input");
    let r = spirthon(&[&p.display().to_string()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not valid UTF-8"), "{err}");
    assert!(err.contains("latin1.py:4:22"), "{err}");
    assert!(err.contains("byte 0xe9"), "{err}");

    // An endless file stops at the size limit instead of filling memory.
    if std::path::Path::new("/dev/zero").exists() {
        let r = spirthon(&["/dev/zero"]);
        assert_eq!(r.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&r.stderr).contains("larger than 64 MiB"));
    }
}

#[test]
fn lone_cr_line_ends_count_lines() {
    let src = write(
        "mac.py",
        "from spirthon import *\r@kernel\rdef k(C: Array[f32]):\r    C[0] = y\r",
    );
    let r = spirthon(&[&src]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("mac.py:4:12"), "{err}");
}

#[test]
fn garbage_input_never_crashes() {
    let inputs = [
        "\0\u{1}\u{2}",
        "def",
        "@kernel\n",
        "from spirthon import *\n@kernel\ndef k(:\n",
        "from spirthon import *\n@kernel(workgroup_size=\"a\")\ndef k(x: Array[f32]):\n    pass\n",
        "from spirthon import *\n@kernel\ndef k(x: Array[f32]):\n    x[0] = 1e400\n",
        "from spirthon import *\nN = 1 << 70\n@kernel\ndef k(x: Array[i32]):\n    x[0] = N\n",
        "from spirthon import *\n@kernel\ndef k(x: Array[i32]):\n    x[0] = 7 // 0\n",
        "from spirthon import *\n@kernel\ndef k(x: Array[i32]):\n    while True:\n        pass\n",
        "from spirthon import *\n@kernel\ndef k(x: Array[i32]):\n    return\n    x[0] = 1\n",
    ];
    for (n, text) in inputs.iter().enumerate() {
        let r = spirthon(&[
            &write(&format!("garbage{n}.py"), text),
            "-o",
            &scratch("g.spv").display().to_string(),
        ]);
        let code = r.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "input {n} exited with {code:?}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
}

#[test]
fn run_rejects_bad_inputs_before_touching_the_gpu() {
    let inputs = |text: &str, name: &str| write(name, text);
    let cases = [
        (
            r#"{"threads": [4], "args": {"x": [1.0], "y": [1.0]}}"#,
            "argument `a` is missing",
        ),
        (
            r#"{"threads": [4], "args": {"a": 1.0, "x": [1.0], "y": [1.0], "z": 2}}"#,
            "argument `z`",
        ),
        (
            r#"{"threads": [4], "args": {"a": "fast", "x": [1.0], "y": [1.0]}}"#,
            "argument `a`",
        ),
        (
            r#"{"threads": [4], "args": {"a": 1.0, "x": [1.0, true], "y": [1.0]}}"#,
            "argument `x[1]`",
        ),
        (
            r#"{"kernel": "nope", "threads": [4], "args": {}}"#,
            "no kernel named `nope`",
        ),
        (
            r#"{"threads": "all", "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}"#,
            "\"threads\"",
        ),
        (r#"{"threads": [4], "args": {"#, "not valid JSON"),
        // Sizes are checked before anything is allocated (this would be 4 TiB).
        (
            r#"{"threads": [4], "args": {"a": 1.0, "x": [1.0], "y": {"zeros": 1099511627776}}}"#,
            "more than an array can hold",
        ),
        (
            r#"{"threads": 5, "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}"#,
            "\"threads\" must be a list",
        ),
        (
            r#"{"threads": [4294967296], "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}"#,
            "4294967296, more than a launch can have",
        ),
        (
            r#"{"kernel": 5, "threads": [4], "args": {"a": 1.0, "x": [1.0], "y": [1.0]}}"#,
            "\"kernel\" must be a kernel's name",
        ),
    ];
    for (n, (text, needle)) in cases.iter().enumerate() {
        let r = spirthon(&[
            "run",
            &saxpy(),
            "--inputs",
            &inputs(text, &format!("in{n}.json")),
        ]);
        assert_eq!(r.status.code(), Some(2), "case {n}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains(needle), "case {n}: {err}");
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error:")).count(),
            1,
            "one line: {err}"
        );
    }
    let bad_int = write("int.py", "from spirthon import kernel, Array, i32, global_id\n\n@kernel\ndef k(n: i32, x: Array[i32]):\n    x[global_id().x] = n\n");
    let r = spirthon(&[
        "run",
        &bad_int,
        "--inputs",
        &inputs(
            r#"{"threads": [1], "args": {"n": 1.5, "x": [0]}}"#,
            "int.json",
        ),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("not an integer"));
    let r = spirthon(&[
        "run",
        &bad_int,
        "--inputs",
        &inputs(
            r#"{"threads": [1], "args": {"n": 18446744073709551616, "x": [0]}}"#,
            "int_big.json",
        ),
    ]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("18446744073709551616 does not fit in i32"),
        "{err}"
    );
}

/// A path that is not valid UTF-8 is a path like any other (no panic in argument parsing).
#[cfg(unix)]
#[test]
fn non_utf8_paths_are_accepted() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("");
    let name = std::ffi::OsStr::from_bytes(b"bad\xffname.py");
    let path = dir.join(name);
    std::fs::copy(saxpy(), &path).expect("copy saxpy");
    let out = Command::new(env!("CARGO_BIN_EXE_spirthon"))
        .arg(&path)
        .arg("-o")
        .arg("-")
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&out.stdout[..4], &SPIRV_MAGIC);
    let missing = dir.join(std::ffi::OsStr::from_bytes(b"missing\xfe.py"));
    let r = Command::new(env!("CARGO_BIN_EXE_spirthon"))
        .arg(&missing)
        .output()
        .expect("runs");
    assert_eq!(r.status.code(), Some(2));
    let r = Command::new(env!("CARGO_BIN_EXE_spirthon"))
        .arg("run")
        .arg(&path)
        .arg("--inputs")
        .arg(&missing)
        .output()
        .expect("runs");
    assert_eq!(
        r.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}

#[test]
fn a_barrier_kernel_without_a_guard_compiles_with_a_warning() {
    let unguarded = write(
        "unguarded.py",
        "from spirthon import kernel, Array, i32, local_id, shared_array, barrier\n\n\
         @kernel(workgroup_size=16)\n\
         def k(out: Array[i32]):\n    tile = shared_array(i32, 16)\n    lid = local_id().x\n    \
         tile[lid] = lid\n    barrier()\n    out[lid] = tile[15 - lid]\n",
    );
    let out_path = scratch("unguarded.spv");
    let out = spirthon(&[&unguarded, "-o", out_path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: kernel `k` reaches `barrier()`"),
        "{stderr}"
    );
    assert!(stderr.contains("unguarded.py:4:1"), "{stderr}");
    assert!(out_path.exists());
    // With a guard of its own, no warning.
    let guarded = write(
        "guarded.py",
        "from spirthon import kernel, Array, i32, global_id, local_id, shared_array, barrier\n\n\
         @kernel(workgroup_size=16)\n\
         def k(out: Array[i32]):\n    tile = shared_array(i32, 16)\n    lid = local_id().x\n    \
         tile[lid] = lid\n    barrier()\n    i = global_id().x\n    if i < len(out):\n        \
         out[i] = tile[15 - lid]\n",
    );
    let out = spirthon(&[&guarded, "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn emits_other_shading_languages() {
    let histogram = common::root()
        .join("shaders/histogram.py")
        .display()
        .to_string();
    for (emit, expect) in [
        ("wgsl", "@compute @workgroup_size(64, 1, 1)"),
        ("msl", "kernel void histogram("),
        ("hlsl", "[numthreads(64, 1, 1)]"),
        ("glsl", "layout(std430, binding = 2)"),
    ] {
        let out = spirthon(&[&histogram, "--emit", emit]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{emit}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(expect), "{emit} lacks `{expect}`:\n{text}");
    }
    // The WGSL keeps the binding layout of the SPIR-V.
    let out = spirthon(&[&histogram, "--emit", "wgsl"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("@group(0) @binding(2)"), "{text}");
    // A target that cannot express the kernel says so at the line, naming itself.
    let floats = common::root()
        .join("tests/run/float_atomics.py")
        .display()
        .to_string();
    for (emit, name, status) in [
        ("wgsl", "WGSL", 1),
        ("glsl", "GLSL", 1),
        ("hlsl", "HLSL", 1),
        ("msl", "", 0),
    ] {
        let out = spirthon(&[&floats, "--emit", emit]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{emit}: {err}");
        if status == 1 {
            assert!(
                err.contains(&format!("{name} has no atomic operations on floats")),
                "{err}"
            );
            assert!(err.contains("float_atomics.py:8:5"), "{err}");
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn checked_modules_describe_their_error_buffer_and_unchecked_ones_do_not_change() {
    let load = common::root()
        .join("tests/checked/index_2d.py")
        .display()
        .to_string();
    let out = spirthon(&[&load, "--checked", "--emit", "reflect"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("reflection JSON");
    let checks = &json["checks"];
    assert_eq!(
        (checks["set"].as_u64(), checks["binding"].as_u64()),
        (Some(1), Some(0))
    );
    let sites = checks["sites"].as_array().expect("sites");
    // Two reads and a store, each checked on both axes.
    assert_eq!(sites.len(), 6);
    assert_eq!(sites[1]["array"], "src");
    assert_eq!(sites[1]["axis"], 1);
    assert_eq!(
        (sites[2]["line"].as_u64(), sites[2]["column"].as_u64()),
        (Some(9), Some(34))
    );
    // Without --checked: no "checks" (the golden tests hold unchecked modules byte for byte).
    let plain = spirthon(&[&load, "--emit", "reflect"]);
    let json: serde_json::Value = serde_json::from_slice(&plain.stdout).expect("reflection JSON");
    assert!(json.get("checks").is_none());
    let a = spirthon(&[&load, "-o", "-"]);
    let b = spirthon(&[&load, "--checked", "-o", "-"]);
    assert!(a.status.success() && b.status.success());
    assert!(b.stdout.len() > a.stdout.len());
}

#[test]
fn an_assert_message_must_be_a_string_literal() {
    let src = write(
        "assert_msg.py",
        "from spirthon import kernel, Array, f32, global_id\n\n@kernel\ndef k(x: Array[f32]):\n    i = global_id().x\n    assert x[i] > 0.0, i\n",
    );
    let out = spirthon(&[&src, "--checked"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("an assert message must be a string literal"),
        "{stderr}"
    );
    assert!(stderr.contains("assert_msg.py:6:24"), "{stderr}");
}

#[test]
fn fast_math_keeps_the_devices_inverse_trigonometry() {
    let src = write(
        "trig.py",
        "import math\nfrom spirthon import kernel, Array, f32, global_id\n\n@kernel\ndef trig(x: Array[f32]):\n    i = global_id().x\n    x[i] = math.asin(x[i]) + math.acos(x[i]) + math.atan(x[i]) + math.atan2(x[i], 2.0)\n",
    );
    let asm = |extra: &[&str]| {
        let mut args = vec![src.as_str(), "--emit", "spvasm"];
        args.extend_from_slice(extra);
        let out = spirthon(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let own = asm(&[]);
    let fast = asm(&["--fast-math"]);
    for op in ["Asin", "Acos", "Atan", "Atan2"] {
        let count = |text: &str| {
            text.lines()
                .filter(|l| l.contains("OpExtInst ") && l.split_whitespace().any(|w| w == op))
                .count()
        };
        assert_eq!(count(&own), 0, "{op} in the default module:\n{own}");
        assert!(count(&fast) > 0, "no {op} with --fast-math:\n{fast}");
    }
}

/// A closed stdout or stderr (`2>&1 | head -c 100`) ends the run quietly with its own
/// status: no panic, no abort, no "internal compiler error".
#[test]
fn closed_pipes_end_the_run_quietly() {
    use std::process::Stdio;
    let run = |args: &[&str], close_stdout: bool| {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_spirthon"));
        cmd.args(args);
        if close_stdout {
            cmd.stdout(Stdio::from(writer)).stderr(Stdio::piped());
        } else {
            cmd.stderr(Stdio::from(writer)).stdout(Stdio::piped());
        }
        cmd.output().expect("runs")
    };
    let bad = common::root().join("tests/kernels/err/maybe_unassigned_loop_else.py");
    let bad = bad.display().to_string();
    // Errors to a closed stderr: the status of a file with errors.
    let r = run(&[&bad], false);
    assert_eq!(r.status.code(), Some(1), "{r:?}");
    let r = run(&["run", &bad, "--inputs", "/nonexistent.json"], false);
    assert_eq!(r.status.code(), Some(1), "{r:?}");
    let r = run(&["run", &saxpy(), "--inputs", "/nonexistent.json"], false);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    // Output to a closed stdout: the reader wanted no more.
    let r = run(&[&saxpy(), "--emit", "spvasm"], true);
    assert_eq!(r.status.code(), Some(0), "{r:?}");
    assert!(
        r.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}

/// Run inputs are capped as sources are (`/dev/zero` would be read forever).
#[cfg(unix)]
#[test]
fn run_inputs_are_bounded() {
    let r = spirthon(&["run", &saxpy(), "--inputs", "/dev/zero"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("larger than 64 MiB"), "{err}");
}

#[test]
fn todays_python_around_kernels_compiles_as_a_program() {
    // tests/modern/: PEP 701 f-strings, PEP 695, template strings, `except A, B:`, `match`
    // and walrus, async helpers and classes, beside kernels (tests/gpu.rs runs them).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modern");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for (k, file) in files.iter().enumerate() {
        let f = file.to_str().unwrap();
        let out = scratch(&format!("modern{k}.spv"));
        // A generic kernel's types, from the file's run JSON (`KERNEL:NAME=TYPE,...`), and
        // that kernel alone, as `spirthon run` compiles it.
        let inputs: serde_json::Value = std::fs::read_to_string(file.with_extension("inputs.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let types = inputs["types"].as_object().map(|t| {
            let each: Vec<String> = t
                .iter()
                .map(|(n, v)| format!("{n}={}", v.as_str().unwrap_or_default()))
                .collect();
            format!(
                "{}:{}",
                inputs["kernel"].as_str().unwrap_or_default(),
                each.join(",")
            )
        });
        let mut args = vec!["--program", f, "-o", out.to_str().unwrap()];
        if let Some(t) = &types {
            let kernel = inputs["kernel"].as_str().unwrap_or_default();
            args.extend(["--kernel", kernel, "--types", t.as_str()]);
        }
        let r = spirthon(&args);
        assert!(
            r.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(std::fs::metadata(&out).unwrap().len() > 100);
        // As a kernel file for the command line, its imports of NumPy are refused, and the
        // note names the flag.
        args.remove(0);
        let r = spirthon(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        if std::fs::read_to_string(file)
            .unwrap()
            .contains("import numpy")
        {
            assert_eq!(r.status.code(), Some(1), "{f}");
            assert!(err.contains("--program"), "{f}: {err}");
        }
    }
}

/// `--types` compiles a generic kernel's specializations, each an entry point that the
/// reflection lists with its generic kernel and types; wrong types are errors that name
/// what is wrong.
#[test]
fn types_specialize_generic_kernels() {
    let generic = common::root()
        .join("tests/run/generic_kernels.py")
        .display()
        .to_string();
    let r = spirthon(&[
        &generic,
        "--types",
        "blend:T=f32",
        "--types",
        "blend:T=f64",
        "--types",
        "transpose_any:src=vec2,dst=vec2",
        "--emit",
        "reflect",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON");
    let names: Vec<&str> = v["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| k["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        ["blend__f32", "blend__f64", "transpose_any__vec2__vec2"]
    );
    let k = &v["kernels"][1];
    assert_eq!(k["specializes"]["kernel"], "blend");
    assert_eq!(k["specializes"]["types"]["T"], "f64");
    assert_eq!(k["bindings"][0]["fields"][0]["name"], "w");
    assert_eq!(k["bindings"][0]["fields"][0]["type"], "f64");
    assert_eq!(k["bindings"][1]["type"], "f64");
    // Without types, each generic kernel is an error that says how to give them.
    let r = spirthon(&[&generic, "-o", "-"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("kernel `blend` is generic (`T`)"), "{err}");
    assert!(err.contains("--types 'blend:T=f32'"), "{err}");
    for (spec, want) in [
        ("blend:U=f32", "kernel `blend` has no generic name `U`"),
        ("blend:T=f32,T=i32", "`T` is given two types"),
        ("blend:T=f33", "`T=f33`: `f33` is no type"),
        ("blend:T=Array[f32]", "it is an array's element type here"),
        ("transpose_any:src=f32", "no type is given for `dst`"),
        ("nothing:T=f32", "no kernel of this file has that name"),
        (
            "blend:T=bool",
            "`Array[bool]` has no portable storage layout",
        ),
    ] {
        let r = spirthon(&[&generic, "--types", spec, "--kernel", "blend", "-o", "-"]);
        assert_eq!(r.status.code(), Some(1), "{spec}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains(want), "{spec}: {err}");
    }
    let r = spirthon(&[&generic, "--types", "blend", "-o", "-"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("KERNEL:NAME=TYPE"));
}

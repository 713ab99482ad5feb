//! The compiler against the operator table (`spirthon_ir::operators`): every operator on
//! every pair of operand kinds is compiled, and the compiler must accept exactly what the
//! table accepts, giving the result the type the table gives. The reference executor is
//! held to the same table by `python/tests/test_reference.py`, so the two agree with each
//! other through it.

use spirthon_frontend::{compile, Options};
use spirthon_ir::operators::{binary, unary, Kind, BINARY, KINDS, UNARY};
use spirthon_ir::{Scalar, Ty};

/// An expression of each kind: parameters and a comparison for the typed ones.
fn operand(k: Kind) -> &'static str {
    match k {
        Kind::Typed(Scalar::I32) => "ti",
        Kind::Typed(Scalar::U32) => "tu",
        Kind::Typed(Scalar::F32) => "tf",
        Kind::Typed(Scalar::Bool) => "tb",
        Kind::Typed(Scalar::F64) => "td",
        Kind::Typed(Scalar::I8) => "tb8",
        Kind::Typed(Scalar::U8) => "tu8",
        Kind::Typed(Scalar::I16) => "th",
        Kind::Typed(Scalar::U16) => "tw",
        Kind::Typed(Scalar::F16) => "thf",
        Kind::Typed(Scalar::I64) => "tl",
        Kind::Typed(Scalar::U64) => "tul",
        Kind::Int => "3",
        Kind::NegInt => "(-2)",
        Kind::Float => "2.5",
    }
}

/// What the compiler makes of `expr`: `Err` with the first message when it refuses it,
/// else the type of the local `r` it is assigned to, and whether an instruction computes it
/// (`false` when it folded to a literal).
fn compiled(expr: &str) -> Result<(Ty, bool), String> {
    let head = "from spirthon import kernel, Array, i32, u32, f32, f64, i8, u8, i16, u16, f16, \
                i64, u64\n\n\
                @kernel\ndef k(ti: i32, tu: u32, tf: f32, td: f64, tb8: i8, tu8: u8, th: i16, \
                tw: u16, thf: f16, tl: i64, tul: u64, out: Array[i32]):\n    tb = ti > 0\n    r = ";
    // `r` is used, so that no pass removes it before the middle end's checks.
    let source = format!("{head}{expr}\n    out[0] = 1 if r else 0\n");
    // The whole compiler decides acceptance (the middle end refuses some constant faults);
    // the frontend's lowered function tells the type.
    if let Err(e) = spirthon::compile(&source, "ops.py", &spirthon::CompileOptions::default()) {
        return Err(format!("{e:?}"));
    }
    let out = compile(&source, "ops.py", &Options::default()).map_err(|d| d[0].message.clone())?;
    let start = head.len() as u32;
    let end = start + expr.len() as u32;
    let f = &out.program.functions[0].func;
    let computed = f
        .insts
        .iter()
        .any(|i| i.span.start == start && i.span.end == end);
    let r = f.vars.iter().find(|v| v.name == "r").expect("the local r");
    Ok((r.ty, computed))
}

/// The table's result kind as the compiler shows it: the local's type (a literal's own type
/// when the expression folds: ints `i32`, floats `f32`), and whether it is computed at run
/// time (never when every operand is a literal; `+x` is `x` itself).
fn shown(k: Kind, operands: &[Kind], op: &str) -> (Ty, bool) {
    let folds = operands.iter().all(|o| !matches!(o, Kind::Typed(_)));
    let ty = match k {
        Kind::Typed(s) => Ty::Scalar(s),
        Kind::Int | Kind::NegInt => Ty::I32,
        Kind::Float => Ty::F32,
    };
    (ty, !folds && op != "+")
}

fn check(
    expr: String,
    want: Option<Kind>,
    operands: &[Kind],
    op: &str,
    failures: &mut Vec<String>,
) {
    let got = compiled(&expr);
    let agrees = match (&got, want) {
        (Err(_), None) => true,
        (Ok((ty, computed)), Some(k)) => {
            let (want_ty, want_computed) = shown(k, operands, op);
            *ty == want_ty && (*computed || !want_computed || operands.len() == 1)
        }
        _ => false,
    };
    if !agrees {
        failures.push(format!(
            "`{expr}`: the table says {want:?}, the compiler {got:?}"
        ));
    }
}

#[test]
fn the_compiler_follows_the_operator_table() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for op in BINARY {
        for a in KINDS {
            for b in KINDS {
                cases += 1;
                let expr = format!("{} {op} {}", operand(a), operand(b));
                check(expr, binary(op, a, b), &[a, b], op, &mut failures);
            }
        }
    }
    for op in UNARY {
        for a in KINDS {
            cases += 1;
            let space = if op == "not" { " " } else { "" };
            let expr = format!("{op}{space}({})", operand(a));
            check(expr, unary(op, a), &[a], op, &mut failures);
        }
    }
    assert_eq!(cases, 18 * KINDS.len().pow(2) + 4 * KINDS.len());
    assert!(
        failures.is_empty(),
        "{} of {cases} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

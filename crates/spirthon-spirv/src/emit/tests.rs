//! Emission on hand-built modules (each through naga's validator), and the built-in table's
//! word on who computes each function.

use spirthon_ir::library::{Precision, LIBRARY};
use spirthon_ir::Scalar;

/// A function the table leaves to the device has a device instruction (or, for `dot`,
/// `OpDot`); one the module computes even under `--fast-math` has none (else the device's
/// would do there); one that `--fast-math` hands to the device has an instruction or a
/// short sequence of them (`log10`, `hypot`, `fmod` in `arith::math`).
#[test]
fn the_table_and_the_device_instructions_agree() {
    for row in LIBRARY {
        let Some(f) = row.func else { continue };
        let device = super::glsl::instruction(f, Scalar::F32);
        match row.precision {
            Precision::Device => assert!(
                device.is_some() || f == spirthon_ir::MathFn::Dot,
                "{} is the device's but has no instruction",
                row.name
            ),
            Precision::OwnAlways => {
                assert!(device.is_none(), "{} has a device instruction", row.name)
            }
            Precision::Own | Precision::OwnExact | Precision::Exact => {}
        }
    }
}

use spirthon_ir::{
    ArrayId, BinOp, Block, BlockData, Builtin, Const, EntryPoint, FuncId, Function, GlobalArray,
    IndexVec, Inst, Module, Op, Ref, Span, Term, Ty, UniformLayout, Value,
};

/// A kernel `out[i] = i // d` (or `%`, or the float forms) over one array, built by hand.
fn kernel_of(op: BinOp, ty: Ty, divisor: Option<Const>) -> Module {
    let mut insts = Vec::new();
    let mut push = |op: Op, ty: Option<Ty>, args: Vec<Ref>| {
        insts.push(Inst {
            op,
            ty,
            args: args.into(),
            span: Span::new(0, 0),
            var: None,
        });
        Ref::Inst(Value::new(insts.len() - 1))
    };
    let gid = push(
        Op::Builtin(Builtin::GlobalId),
        Some(Ty::Vector(spirthon_ir::Scalar::I32, 3)),
        vec![],
    );
    let i = push(Op::Extract(0), Some(Ty::I32), vec![gid]);
    let x = if ty == Ty::I32 {
        i
    } else {
        push(Op::Convert, Some(ty), vec![i])
    };
    let d = match divisor {
        Some(c) => push(Op::Const(c), Some(ty), vec![]),
        None => push(Op::Load(ArrayId(0)), Some(ty), vec![i]),
    };
    let q = push(Op::Binary(op), Some(ty), vec![x, d]);
    push(Op::Store(ArrayId(0)), None, vec![i, q]);
    let placed: Vec<Value> = (0..insts.len())
        .map(Value::new)
        .filter(|v| !matches!(insts[v.index()].op, Op::Const(_)))
        .collect();
    let f = Function {
        name: "k".into(),
        span: Span::new(0, 0),
        params: vec![],
        ret: None,
        insts: insts.into(),
        blocks: IndexVec::from(vec![BlockData {
            insts: placed,
            term: Term::Return(None),
            merge: Default::default(),
        }]),
        order: vec![Block::new(0)],
        vars: IndexVec::new(),
        phis: IndexVec::new(),
        reachable: vec![true].into(),
    };
    Module {
        arrays: vec![GlobalArray {
            written: true,
            ..GlobalArray::buffer("out".into(), ty, 1)
        }]
        .into(),
        functions: vec![f].into(),
        entry_points: vec![EntryPoint {
            specializes: None,
            name: "k".into(),
            function: FuncId(0),
            workgroup_size: [64, 1, 1],
            uniform: UniformLayout::std140([]),
            arrays: vec![ArrayId(0)],
        }],
        ..Module::default()
    }
}

fn emitted(m: &Module) -> String {
    let words = crate::emit(m, crate::EmitOptions::default()).expect("emits");
    crate::validate(&words).expect("naga accepts the module");
    crate::disassemble(&words).expect("disassembles")
}

#[test]
fn python_division_needs_no_signed_remainder_instructions() {
    for (op, ty) in [
        (BinOp::FloorDiv, Ty::I32),
        (BinOp::Mod, Ty::I32),
        (BinOp::FloorDiv, Ty::F32),
        (BinOp::Mod, Ty::F32),
    ] {
        let text = emitted(&kernel_of(op, ty, None));
        assert!(
            !text.contains("OpSRem") && !text.contains("OpSMod"),
            "{op:?} {ty:?}:\n{text}"
        );
        if ty == Ty::I32 {
            // Divisor -1 is guarded (INT_MIN / -1 is undefined for OpSDiv).
            assert!(text.contains("OpSDiv"), "{text}");
        } else {
            // The module's exact remainder (`accurate::fmod`), not the device's `OpFRem`.
            assert!(text.contains("%spirthon_fmod = OpFunction"), "{text}");
            assert!(!text.contains("OpFRem"), "{text}");
        }
    }
}

#[test]
fn a_constant_divisor_other_than_minus_one_needs_no_guard() {
    let guarded = emitted(&kernel_of(BinOp::FloorDiv, Ty::I32, None));
    let plain = emitted(&kernel_of(BinOp::FloorDiv, Ty::I32, Some(Const::I32(3))));
    assert!(plain.lines().count() < guarded.lines().count(), "{plain}");
}

#[test]
fn a_missing_result_type_is_an_error_not_a_guess() {
    let mut m = kernel_of(BinOp::Mod, Ty::I32, None);
    let f = &mut m.functions[FuncId(0)];
    let rem = f
        .insts
        .iter()
        .position(|i| i.op == Op::Binary(BinOp::Mod))
        .expect("a `%`");
    f.insts[Value::new(rem)].ty = None;
    let e = crate::emit(&m, crate::EmitOptions::default()).expect_err("emits anyway");
    assert!(e.0.contains("no result type"), "{}", e.0);
}

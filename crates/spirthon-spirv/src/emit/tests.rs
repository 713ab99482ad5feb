//! Emission on hand-built modules (each through naga's validator), and the built-in table's
//! GLSL numbers.

use rspirv::spirv::GlslStd450Op as G;
use spirthon_ir::library::{Glsl, LIBRARY};
use spirthon_ir::MathFn::*;

/// The built-in table's GLSL.std.450 numbers are the instructions their names say.
#[test]
fn library_glsl_numbers_match_the_extended_instruction_set() {
    for row in LIBRARY {
        let Some(f) = row.func else { continue };
        let want = |f32: Option<G>, i32: Option<G>, u32: Option<G>| Glsl {
            f32: f32.map(|g| g as u32),
            i32: i32.map(|g| g as u32),
            u32: u32.map(|g| g as u32),
        };
        let expected = match f {
            Sqrt => want(Some(G::Sqrt), None, None),
            Sin => want(Some(G::Sin), None, None),
            Cos => want(Some(G::Cos), None, None),
            Tan => want(Some(G::Tan), None, None),
            Asin => want(Some(G::Asin), None, None),
            Acos => want(Some(G::Acos), None, None),
            Atan => want(Some(G::Atan), None, None),
            Atan2 => want(Some(G::Atan2), None, None),
            Sinh => want(Some(G::Sinh), None, None),
            Cosh => want(Some(G::Cosh), None, None),
            Tanh => want(Some(G::Tanh), None, None),
            Exp => want(Some(G::Exp), None, None),
            Exp2 => want(Some(G::Exp2), None, None),
            Log => want(Some(G::Log), None, None),
            Log2 => want(Some(G::Log2), None, None),
            Pow => want(Some(G::Pow), None, None),
            Floor => want(Some(G::Floor), None, None),
            Ceil => want(Some(G::Ceil), None, None),
            Trunc => want(Some(G::Trunc), None, None),
            RoundEven => want(Some(G::RoundEven), None, None),
            Abs if row.name == "fabs" => want(Some(G::FAbs), None, None),
            Abs => want(Some(G::FAbs), Some(G::SAbs), Some(G::SAbs)),
            Min => want(Some(G::FMin), Some(G::SMin), Some(G::UMin)),
            Max => want(Some(G::FMax), Some(G::SMax), Some(G::UMax)),
            Cross => want(Some(G::Cross), None, None),
            Length => want(Some(G::Length), None, None),
            Distance => want(Some(G::Distance), None, None),
            Normalize => want(Some(G::Normalize), None, None),
            Mix => want(Some(G::FMix), None, None),
            Step => want(Some(G::Step), None, None),
            SmoothStep => want(Some(G::SmoothStep), None, None),
            Log10 | Copysign | Hypot | Fmod | IsNan | IsInf | Dot => want(None, None, None),
        };
        assert_eq!(row.glsl, expected, "{}", row.name);
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

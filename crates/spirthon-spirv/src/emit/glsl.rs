//! The device's instruction for each built-in math operation: its GLSL.std.450 extended
//! instruction per operand type. The emitter takes it unless the built-in table
//! (`spirthon_ir::library`, [`Precision`](spirthon_ir::library::Precision)) says the module
//! computes the function itself; `None` where the emitter writes its own sequence.
//!
//! Invariant: an instruction named here computes the operation as the IR defines it for
//! that operand type (there is no `Abs` of a `u32`: lowering gives Python's `abs` of one as
//! the value itself).

use rspirv::spirv::GlslStd450Op as G;
use spirthon_ir::cfg::MathFn;
use spirthon_ir::types::Scalar;

/// The GLSL.std.450 instruction computing `f` on operands of scalar type `s`.
pub(super) fn instruction(f: MathFn, s: Scalar) -> Option<G> {
    use MathFn::*;
    // On `f64`: the `math` functions the device computes (the table's), and the shading
    // functions, whose precision is the device's on every type.
    let shading = matches!(
        f,
        Cross | Length | Distance | Normalize | Mix | Step | SmoothStep
    );
    let float = s == Scalar::F32 || (s == Scalar::F64 && (f.takes_f64() || shading));
    Some(match f {
        Sqrt if float => G::Sqrt,
        Sin if float => G::Sin,
        Cos if float => G::Cos,
        Tan if float => G::Tan,
        Asin if float => G::Asin,
        Acos if float => G::Acos,
        Atan if float => G::Atan,
        Atan2 if float => G::Atan2,
        Sinh if float => G::Sinh,
        Cosh if float => G::Cosh,
        Tanh if float => G::Tanh,
        Exp if float => G::Exp,
        Exp2 if float => G::Exp2,
        Log if float => G::Log,
        Log2 if float => G::Log2,
        Pow if float => G::Pow,
        Floor if float => G::Floor,
        Ceil if float => G::Ceil,
        Trunc if float => G::Trunc,
        RoundEven if float => G::RoundEven,
        Abs if float => G::FAbs,
        Abs if s.is_int() && s.is_signed() => G::SAbs,
        Min if float => G::FMin,
        Min if s.is_int() && s.is_signed() => G::SMin,
        Min if s.is_int() => G::UMin,
        Max if float => G::FMax,
        Max if s.is_int() && s.is_signed() => G::SMax,
        Max if s.is_int() => G::UMax,
        Cross if float => G::Cross,
        Length if float => G::Length,
        Distance if float => G::Distance,
        Normalize if float => G::Normalize,
        Mix if float => G::FMix,
        Step if float => G::Step,
        SmoothStep if float => G::SmoothStep,
        _ => return None,
    })
}

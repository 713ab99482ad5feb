//! Checks that need folded constants: faults that the program is certain to commit whenever
//! it reaches an instruction, found before [`crate::opt::optimize`] (dead code included: an
//! unused `r = x // 0` still raises in Python) and after it has folded what it can.
//!
//! - An integer `//` or `%` whose divisor is the constant 0. Python raises
//!   `ZeroDivisionError` there; a literal `7 // 0` is already a compile error, and a divisor
//!   that folds to zero (`z = 0; x // z`, `x // (1 - 1)`) is one too, so the rule does not
//!   depend on how the zero was spelt. (Naga, like WGSL, also rejects such a module.)
//! - A shift by a negative constant count (`x << -1`, `n = -2; x >> n`): Python raises
//!   `ValueError`.
//! - An array index that is a negative constant (`x[-1]`, `j = -1; x[j]`). Kernels do not
//!   wrap negative indices as Python lists do: such an access is always out of bounds. So is
//!   a constant index past the end of a `shared_array` or a constant tuple, whose length is
//!   known. (A constant tuple's index written as a constant expression, `W[-1]`, never gets
//!   here: the frontend takes the item, counting from the end as Python does.)
//!
//! Invariant: only instructions in reachable blocks are checked, once each; the result is one
//! diagnostic per faulty instruction, at its span. What it does not do: reason about values
//! that are not constants (checked mode does that at run time).

use spirthon_ir::cfg::*;
use spirthon_ir::diag::Diagnostic;
use spirthon_ir::types::Const;

/// The certain faults of `f` (see the module docs); `arrays` names the module's arrays.
pub fn constant_faults(f: &Function<Ref>, arrays: &[GlobalArray]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for &b in &f.order {
        if !f.reachable[b] {
            continue;
        }
        for &v in &f.blocks[b].insts {
            let inst = &f.insts[v];
            let fault = match inst.op {
                Op::Binary(BinOp::FloorDiv | BinOp::Mod) => zero_divisor(f, inst),
                Op::Binary(BinOp::Shl | BinOp::Shr) => negative_count(f, inst),
                Op::Load(a)
                | Op::Store(a)
                | Op::Atomic(_, a)
                | Op::LoadField(a, _)
                | Op::StoreField(a, _) => constant_index(f, inst, &arrays[a.index()]),
                _ => None,
            };
            out.extend(fault);
        }
    }
    out
}

fn zero_divisor(f: &Function<Ref>, inst: &Inst<Ref>) -> Option<Diagnostic> {
    let divisor = f.as_const(*inst.args.get(1)?)?;
    if divisor.int_value() != Some(0) {
        return None;
    }
    Some(
        Diagnostic::error(inst.span, "integer division by zero")
            .with_label("the divisor is always 0 here")
            .with_note("Python raises `ZeroDivisionError` here; the GPU has no such error"),
    )
}

fn negative_count(f: &Function<Ref>, inst: &Inst<Ref>) -> Option<Diagnostic> {
    let n = f.as_const(*inst.args.get(1)?)?.int_value()?;
    if n >= 0 {
        return None;
    }
    Some(
        Diagnostic::error(inst.span, format!("negative shift count {n}"))
            .with_label("the count is always negative here")
            .with_note("Python raises `ValueError` here; the GPU has no such error"),
    )
}

fn constant_index(f: &Function<Ref>, inst: &Inst<Ref>, a: &GlobalArray) -> Option<Diagnostic> {
    let Const::I32(i) = f.as_const(*inst.args.first()?)? else {
        return None;
    };
    let array = &a.name;
    if let Some(len) = a.known_len().filter(|&n| i >= 0 && i as u32 >= n) {
        let what = a.kind();
        return Some(
            Diagnostic::error(
                inst.span,
                format!("index {i} is out of range for `{array}`"),
            )
            .with_label(format!("`{array}` is {what} of {len} elements")),
        );
    }
    if i >= 0 {
        return None;
    }
    if let Some(len) = a.constant().map(<[Const]>::len) {
        return Some(
            Diagnostic::error(inst.span, format!("index {i} is out of range for `{array}`"))
                .with_label(format!("`{array}` is a constant tuple of {len} elements"))
                .with_note(format!("an index written as a constant counts from the end as in Python (`{array}[-1]` is its last item, down to `{array}[-{len}]`); one computed at run time does not")),
        );
    }
    Some(
        Diagnostic::error(inst.span, format!("index {i} is out of range for `{array}`"))
            .with_label("this index is always negative")
            .with_note("kernels do not wrap negative indices as Python lists do: index from the end with `len(a) - 1`"),
    )
}

//! spirthon's vector and shading functions: `dot cross length distance normalize clamp mix
//! step smoothstep`, on float numbers and vectors (int vectors promote), numbers broadcast
//! to the vector's size. `clamp` is `min(max(x, lo), hi)` on any numeric type; integer
//! `dot` is the sum of products; the others are one GLSL.std.450 instruction.

use super::*;
use spirthon_ir::library;

impl Lower<'_, '_> {
    /// The float type an operand of a shading function is taken as: a vector's size with
    /// `f32` components (int vectors promote; `f64` when some operand is an `f64` or a
    /// `dvec`), else that float scalar.
    fn float_ty(x: &Ex, fs: Scalar) -> Ty {
        match x {
            Ex::Val(_, t @ Ty::Vector(..)) => t.with_scalar(fs),
            _ => Ty::Scalar(fs),
        }
    }

    /// `f64` when some operand of a shading function is an `f64` or a `dvec` (the others
    /// must then be too, or ints), else `f32`.
    fn float_scalar(exs: &[(Ex, Span)]) -> Scalar {
        let f64_in = |x: &Ex| matches!(x, Ex::Val(_, t) if t.scalar() == Scalar::F64);
        if exs.iter().any(|(x, _)| f64_in(x)) {
            Scalar::F64
        } else {
            Scalar::F32
        }
    }

    /// `dot cross length distance normalize clamp mix step smoothstep`.
    pub(super) fn geometry_call(&mut self, row: &library::Row, args: &[ExprId], span: Span) -> Ex {
        if !self.arity(row.name, args, row.arity.0 as usize, span) {
            return Ex::Err;
        }
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return Ex::Err;
        }
        let name = row.name;
        // A quaternion is a `vec4` to `dot`, `length` and `normalize` (whose result is a
        // quaternion again); the other functions do not take one.
        if let Some(&(_, sp)) = exs.iter().find(|(x, _)| x.is_quat()) {
            if !matches!(name, "dot" | "length" | "normalize") {
                self.error(
                    sp,
                    format!("`{name}` does not take a quat (`dot`, `length` and `normalize` do)"),
                );
                return Ex::Err;
            }
            let quat_in = exs[0].0.is_quat();
            let exs: Vec<(Ex, Span)> = exs
                .iter()
                .map(|&(x, sp)| (self.quat_as_vec4(x, sp), sp))
                .collect();
            let r = self.geometry_on(row, &exs, span);
            return if quat_in && name == "normalize" {
                self.vec4_as_quat(r, span)
            } else {
                r
            };
        }
        let half = |x: &Ex| matches!(x, Ex::Val(_, t) if t.scalar() == Scalar::F16);
        if name != "clamp" && exs.iter().any(|(x, _)| half(x)) {
            return self.geometry_in_halves(row, &exs, span);
        }
        self.geometry_on(row, &exs, span)
    }

    /// A shading function of `f16`s and `f16vec`s, as a `math` function of an `f16` is:
    /// the `f32` function of the widened values, its result rounded to half. No other float
    /// type meets them.
    fn geometry_in_halves(&mut self, row: &library::Row, exs: &[(Ex, Span)], span: Span) -> Ex {
        let mut wide = Vec::with_capacity(exs.len());
        for &(x, sp) in exs {
            match x {
                Ex::Val(o, t) if t.scalar() == Scalar::F16 => {
                    let ft = t.with_scalar(Scalar::F32);
                    wide.push((Ex::Val(self.val(Op::Convert, ft, [o], sp), ft), sp));
                }
                Ex::Val(_, t) if t.scalar().is_float() => {
                    self.error(
                        sp,
                        format!(
                            "`{}` cannot mix f16 and {}: convert one side",
                            row.name,
                            t.scalar().name()
                        ),
                    );
                    return Ex::Err;
                }
                other => wide.push((other, sp)),
            }
        }
        match self.geometry_on(row, &wide, span) {
            Ex::Val(o, t) if t.scalar() == Scalar::F32 => {
                let ht = t.with_scalar(Scalar::F16);
                Ex::Val(self.val(Op::Convert, ht, [o], span), ht)
            }
            other => other,
        }
    }

    /// `geometry_call` once the arguments are lowered.
    fn geometry_on(&mut self, row: &library::Row, exs: &[(Ex, Span)], span: Span) -> Ex {
        let name = row.name;
        if name == "cross" {
            let v3 = |x: &Ex| matches!(x, Ex::Val(_, Ty::Vector(_, 3)));
            if let Some(&(_, sp)) = exs.iter().find(|(x, _)| !v3(x)) {
                self.error(sp, "`cross` needs two 3-component vectors");
                return Ex::Err;
            }
        }
        match name {
            "clamp" => return self.clamp(exs, span),
            "dot" => return self.dot(exs, span),
            _ => {}
        }
        let Some(f) = row.func else {
            return Ex::Err;
        };
        // The operand whose type the others broadcast to: the last (`x` of `step` and
        // `smoothstep`) or the first (`mix`, and the one- and two-vector functions).
        let main = if matches!(f, MathFn::Step | MathFn::SmoothStep) {
            exs.len() - 1
        } else {
            0
        };
        let fs = Self::float_scalar(exs);
        let t = match (f, exs.get(1)) {
            // Two vectors of one size, or a float: the second decides when the first is a
            // scalar (`mix(0.0, v, t)` is as wide as `v`).
            (MathFn::Mix, Some((b, _))) if !exs[0].0.is_vector() && b.is_vector() => {
                Self::float_ty(b, fs)
            }
            _ => Self::float_ty(&exs[main].0, fs),
        };
        let mut ops = Vec::new();
        for &(x, sp) in exs {
            let x = match x {
                Ex::Val(o, xt @ Ty::Vector(s, _)) if s.is_int() => {
                    let ft = xt.with_scalar(fs);
                    Ex::Val(self.val(Op::Convert, ft, [o], sp), ft)
                }
                other => other,
            };
            let o = match t {
                Ty::Vector(..) => self.broadcast(x, t, sp, name),
                _ => self.coerce_float(x, Ty::Scalar(fs), sp, name),
            };
            match o {
                Some(o) => ops.push(o),
                None => return Ex::Err,
            }
        }
        if f == MathFn::Normalize && t.as_scalar().is_some() {
            // `x / abs(x)`: naga takes `Normalize` only on vectors.
            let a = self.val(Op::Math(MathFn::Abs), t, ops.clone(), span);
            let q = self.val(Op::Binary(BinOp::Div), t, [ops[0], a], span);
            return Ex::Val(q, t);
        }
        let rt = match f {
            MathFn::Length | MathFn::Distance => Ty::Scalar(fs),
            _ => t,
        };
        Ex::Val(self.val(Op::Math(f), rt, ops, span), rt)
    }

    /// `dot(a, b)`: `OpDot` on float vectors, the sum of products on integer ones.
    fn dot(&mut self, exs: &[(Ex, Span)], span: Span) -> Ex {
        let (a, sa) = exs[0];
        let (b, sb) = exs[1];
        if !a.is_vector() || !b.is_vector() {
            let sp = if a.is_vector() { sb } else { sa };
            self.error(sp, "`dot` needs two vectors");
            return Ex::Err;
        }
        let Some((x, y, t)) = self.unify_vectors(a, b, sa, sb, "dot") else {
            return Ex::Err;
        };
        let st = Ty::Scalar(t.scalar());
        if matches!(t.scalar(), Scalar::F32 | Scalar::F64) {
            return Ex::Val(self.val(Op::Math(MathFn::Dot), st, [x, y], span), st);
        }
        let mut acc: Option<Operand> = None;
        for i in 0..t.components() {
            let cx = self.component(x, t, i, sa);
            let cy = self.component(y, t, i, sb);
            let p = self.val(Op::Binary(BinOp::Mul), st, [cx, cy], span);
            acc = Some(match acc {
                None => p,
                Some(s) => self.val(Op::Binary(BinOp::Add), st, [s, p], span),
            });
        }
        match acc {
            Some(r) => Ex::Val(r, st),
            None => Ex::Err,
        }
    }

    /// `clamp(x, lo, hi)` is `min(max(x, lo), hi)` (so `lo > hi` gives `hi`, as in Python),
    /// on numbers or vectors; `lo` and `hi` broadcast to a vector `x`.
    fn clamp(&mut self, exs: &[(Ex, Span)], span: Span) -> Ex {
        let (x, sx) = exs[0];
        let (lo, slo) = exs[1];
        let (hi, shi) = exs[2];
        if let (Ex::Lit(a), Ex::Lit(l), Ex::Lit(h)) = (x, lo, hi) {
            let m = if lit::compare(CmpOp::Lt, a, l) { l } else { a };
            return Ex::Lit(if lit::compare(CmpOp::Lt, h, m) { h } else { m });
        }
        let (x, lo, t) = if x.is_vector() || lo.is_vector() {
            match self.unify_vectors(x, lo, sx, slo, "clamp") {
                Some(v) => v,
                None => return Ex::Err,
            }
        } else {
            match self.unify(x, lo, sx, slo, "clamp") {
                Some(v) => v,
                None => return Ex::Err,
            }
        };
        let hi = match t {
            Ty::Vector(..) => self.broadcast(hi, t, shi, "clamp"),
            _ => self.coerce(hi, t, shi, "the upper bound of `clamp`"),
        };
        let Some(hi) = hi else { return Ex::Err };
        if t.scalar() == Scalar::Bool {
            self.error(span, "`clamp` needs numbers");
            return Ex::Err;
        }
        let m = self.val(Op::Math(MathFn::Max), t, [x, lo], span);
        Ex::Val(self.val(Op::Math(MathFn::Min), t, [m, hi], span), t)
    }
}

//! Quaternions: `quat` (`x, y, z, w` as Warp holds them, `w` the real part), its
//! constructors, `*` as the Hamilton product, `+ -` of two, `*` and `/` by a number, and
//! `quat_identity quat_from_axis_angle quat_rotate quat_rotate_inv quat_inverse
//! quat_to_matrix`; components read and assigned as a vector's (`q.w`, `q[k]`), and `dot`,
//! `length`, `normalize` as on a `vec4` (see `geometry`).
//!
//! As for matrices, each operation is written out in scalar `f32` operations in one order,
//! Warp's formulas, which the reference executor (`spirthon/matrices.py`) repeats: the
//! product `a * b` is `(a.w*b.x + b.w*a.x + a.y*b.z) - b.y*a.z` and so on, and
//! `quat_rotate(q, v)` is `v*(2w² - 1) + cross(q.xyz, v)*w*2 + q.xyz*dot(q.xyz, v)*2`, each
//! sum left to right.

use super::*;

/// One component of the float vector or quaternion `o`.
type Parts = Vec<Operand>;

impl Lower<'_, '_> {
    fn quat_of(&mut self, parts: Parts, span: Span) -> Ex {
        Ex::Val(self.val(Op::Construct, Ty::Quat, parts, span), Ty::Quat)
    }

    /// `quat(x, y, z, w)`, `quat(v, w)` (a `vec3` and the real part), or `quat(q)` (a copy;
    /// a `vec4` too).
    pub(super) fn quat_ctor(&mut self, args: &[ExprId], span: Span) -> Ex {
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return Ex::Err;
        }
        let what = "a component of a quat";
        match exs[..] {
            [(Ex::Val(o, Ty::Quat), _)] => Ex::Val(o, Ty::Quat),
            [(Ex::Val(o, Ty::Vector(Scalar::F32, 4)), sp)] => {
                let p = self.components(o, Ty::Vector(Scalar::F32, 4), sp);
                self.quat_of(p, span)
            }
            [(Ex::Val(v, Ty::Vector(Scalar::F32, 3)), vsp), (w, wsp)] => {
                let Some(w) = self.coerce(w, Ty::F32, wsp, what) else {
                    return Ex::Err;
                };
                let mut p = self.components(v, Ty::Vector(Scalar::F32, 3), vsp);
                p.push(w);
                self.quat_of(p, span)
            }
            _ if exs.len() == 4 => {
                let mut p = Vec::with_capacity(4);
                for &(x, sp) in &exs {
                    let Some(c) = self.coerce(x, Ty::F32, sp, what) else {
                        return Ex::Err;
                    };
                    p.push(c);
                }
                self.quat_of(p, span)
            }
            _ => {
                self.cx.diags.push(
                    Diagnostic::error(span, "`quat` takes four numbers `(x, y, z, w)`, a `vec3` and `w`, or a quat")
                        .with_help("`quat_identity()` is the rotation by nothing; `quat_from_axis_angle(axis, angle)` makes a rotation"),
                );
                Ex::Err
            }
        }
    }

    /// A binary operator with a quaternion operand.
    pub(super) fn quat_binary(
        &mut self,
        op: BinaryOp,
        a: Ex,
        b: Ex,
        a_span: Span,
        b_span: Span,
        span: Span,
    ) -> Ex {
        let Some(((x, xt), (y, yt))) = self.operands(a, b, a_span, b_span) else {
            return Ex::Err;
        };
        let sym = op.symbol();
        let number = |t: Ty| t.as_scalar().is_some_and(Scalar::is_numeric);
        match (op, xt, yt) {
            (BinaryOp::Mul, Ty::Quat, Ty::Quat) => {
                let (p, q) = (
                    self.components(x, Ty::Quat, span),
                    self.components(y, Ty::Quat, span),
                );
                let out = self.hamilton(&p, &q, span);
                self.quat_of(out, span)
            }
            (BinaryOp::Add | BinaryOp::Sub, Ty::Quat, Ty::Quat) => {
                let (p, q) = (
                    self.components(x, Ty::Quat, span),
                    self.components(y, Ty::Quat, span),
                );
                let bop = if op == BinaryOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let out = (0..4).map(|k| self.fop(bop, p[k], q[k], span)).collect();
                self.quat_of(out, span)
            }
            (BinaryOp::Mul, Ty::Quat, s) if number(s) => {
                let k = self.as_float(y, s, span);
                let p = self.components(x, Ty::Quat, span);
                let out = p
                    .into_iter()
                    .map(|c| self.fop(BinOp::Mul, c, k, span))
                    .collect();
                self.quat_of(out, span)
            }
            (BinaryOp::Mul, s, Ty::Quat) if number(s) => {
                let k = self.as_float(x, s, span);
                let p = self.components(y, Ty::Quat, span);
                let out = p
                    .into_iter()
                    .map(|c| self.fop(BinOp::Mul, k, c, span))
                    .collect();
                self.quat_of(out, span)
            }
            (BinaryOp::Div, Ty::Quat, s) if number(s) => {
                let k = self.as_float(y, s, span);
                let p = self.components(x, Ty::Quat, span);
                let out = p
                    .into_iter()
                    .map(|c| self.fop(BinOp::Div, c, k, span))
                    .collect();
                self.quat_of(out, span)
            }
            _ => {
                let help = if op == BinaryOp::Mul
                    && matches!(xt, Ty::Quat)
                    && matches!(yt, Ty::Vector(..))
                {
                    "rotate a vector with `quat_rotate(q, v)`; `*` is the Hamilton product of two quats, or scales by a number"
                } else {
                    "quats take `*` (the Hamilton product) with a quat, `+` and `-` with a quat, and `*` and `/` by a number"
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{sym}` cannot combine {} and {}",
                            xt.with_article(),
                            yt.with_article()
                        ),
                    )
                    .with_help(help),
                );
                Ex::Err
            }
        }
    }

    /// The Hamilton product of `a` and `b`, as Warp writes it.
    fn hamilton(&mut self, a: &[Operand], b: &[Operand], span: Span) -> Parts {
        let (ax, ay, az, aw) = (a[0], a[1], a[2], a[3]);
        let (bx, by, bz, bw) = (b[0], b[1], b[2], b[3]);
        // `p0*q0 + p1*q1 + p2*q2 - p3*q3` for the three imaginary parts, left to right.
        let term = |l: &mut Self, [p0, q0, p1, q1, p2, q2, p3, q3]: [Operand; 8]| {
            let s = l.fop(BinOp::Mul, p0, q0, span);
            let t = l.fop(BinOp::Mul, p1, q1, span);
            let s = l.fop(BinOp::Add, s, t, span);
            let t = l.fop(BinOp::Mul, p2, q2, span);
            let s = l.fop(BinOp::Add, s, t, span);
            let t = l.fop(BinOp::Mul, p3, q3, span);
            l.fop(BinOp::Sub, s, t, span)
        };
        let x = term(self, [aw, bx, bw, ax, ay, bz, by, az]);
        let y = term(self, [aw, by, bw, ay, az, bx, bz, ax]);
        let z = term(self, [aw, bz, bw, az, ax, by, bx, ay]);
        // `a.w*b.w - a.x*b.x - a.y*b.y - a.z*b.z`.
        let mut w = self.fop(BinOp::Mul, aw, bw, span);
        for (p, q) in [(ax, bx), (ay, by), (az, bz)] {
            let t = self.fop(BinOp::Mul, p, q, span);
            w = self.fop(BinOp::Sub, w, t, span);
        }
        vec![x, y, z, w]
    }

    /// `-q`, `+q`.
    pub(super) fn quat_negate(&mut self, o: Operand, span: Span) -> Ex {
        let p = self.components(o, Ty::Quat, span);
        let out = p
            .into_iter()
            .map(|c| self.val(Op::Unary(UnOp::Neg), Ty::F32, [c], span))
            .collect();
        self.quat_of(out, span)
    }

    /// `quat_identity quat_from_axis_angle quat_rotate quat_rotate_inv quat_inverse
    /// quat_to_matrix`.
    pub(super) fn quat_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        let exs = self.args(args);
        if exs.iter().any(|(x, _)| matches!(x, Ex::Err)) {
            return Ex::Err;
        }
        let want = |l: &mut Self, k: usize, t: Ty| -> Option<Operand> {
            let (x, sp) = exs[k];
            l.coerce(x, t, sp, &format!("argument {} of `{item}`", k + 1))
        };
        let v3 = Ty::Vector(Scalar::F32, 3);
        match item {
            "quat_identity" => {
                let (z, one) = (self.konst(Const::f32(0.0)), self.konst(Const::f32(1.0)));
                self.quat_of(vec![z, z, z, one], span)
            }
            "quat_inverse" => {
                let Some(q) = want(self, 0, Ty::Quat) else {
                    return Ex::Err;
                };
                let p = self.components(q, Ty::Quat, span);
                let mut out: Parts = p[..3]
                    .iter()
                    .map(|&c| self.val(Op::Unary(UnOp::Neg), Ty::F32, [c], span))
                    .collect();
                out.push(p[3]);
                self.quat_of(out, span)
            }
            "quat_from_axis_angle" => {
                let (Some(axis), Some(angle)) = (want(self, 0, v3), want(self, 1, Ty::F32)) else {
                    return Ex::Err;
                };
                let half = self.konst(Const::f32(0.5));
                let h = self.fop(BinOp::Mul, angle, half, span);
                let w = self.val(Op::Math(MathFn::Cos), Ty::F32, [h], span);
                let s = self.val(Op::Math(MathFn::Sin), Ty::F32, [h], span);
                let mut out: Parts = self
                    .components(axis, Ty::Vector(Scalar::F32, 3), span)
                    .into_iter()
                    .map(|c| self.fop(BinOp::Mul, c, s, span))
                    .collect();
                out.push(w);
                self.quat_of(out, span)
            }
            "quat_rotate" | "quat_rotate_inv" => {
                let (Some(q), Some(v)) = (want(self, 0, Ty::Quat), want(self, 1, v3)) else {
                    return Ex::Err;
                };
                let (q, v) = (
                    self.components(q, Ty::Quat, span),
                    self.components(v, Ty::Vector(Scalar::F32, 3), span),
                );
                let r = self.rotate(&q, &v, item == "quat_rotate_inv", span);
                Ex::Val(self.val(Op::Construct, v3, r, span), v3)
            }
            "quat_to_matrix" => {
                let Some(q) = want(self, 0, Ty::Quat) else {
                    return Ex::Err;
                };
                let q = self.components(q, Ty::Quat, span);
                let (z, one) = (self.konst(Const::f32(0.0)), self.konst(Const::f32(1.0)));
                // Columns: the rotated basis vectors.
                let cols: Vec<Parts> = [[one, z, z], [z, one, z], [z, z, one]]
                    .iter()
                    .map(|e| self.rotate(&q, e, false, span))
                    .collect();
                let entries: Parts = (0..9).map(|k| cols[k % 3][k / 3]).collect();
                Ex::Val(
                    self.val(Op::Construct, Ty::Matrix(Scalar::F32, 3), entries, span),
                    Ty::Matrix(Scalar::F32, 3),
                )
            }
            _ => Ex::Err,
        }
    }

    /// `v` rotated by `q` (or by its inverse): Warp's
    /// `v*(2w² - 1) ± cross(u, v)*w*2 + u*dot(u, v)*2` with `u = q.xyz`.
    fn rotate(&mut self, q: &[Operand], v: &[Operand], inverse: bool, span: Span) -> Parts {
        let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
        let (two, one) = (self.konst(Const::f32(2.0)), self.konst(Const::f32(1.0)));
        let ww = self.fop(BinOp::Mul, w, w, span);
        let ww2 = self.fop(BinOp::Mul, ww, two, span);
        let c = self.fop(BinOp::Sub, ww2, one, span);
        let u = [x, y, z];
        let mut cross = Vec::with_capacity(3);
        for (i, j) in [(1, 2), (2, 0), (0, 1)] {
            let a = self.fop(BinOp::Mul, u[i], v[j], span);
            let b = self.fop(BinOp::Mul, u[j], v[i], span);
            cross.push(self.fop(BinOp::Sub, a, b, span));
        }
        let d0 = self.fop(BinOp::Mul, u[0], v[0], span);
        let d1 = self.fop(BinOp::Mul, u[1], v[1], span);
        let d = self.fop(BinOp::Add, d0, d1, span);
        let d2 = self.fop(BinOp::Mul, u[2], v[2], span);
        let dot = self.fop(BinOp::Add, d, d2, span);
        (0..3)
            .map(|k| {
                let a = self.fop(BinOp::Mul, v[k], c, span);
                let b = self.fop(BinOp::Mul, cross[k], w, span);
                let b = self.fop(BinOp::Mul, b, two, span);
                let s = if inverse {
                    self.fop(BinOp::Sub, a, b, span)
                } else {
                    self.fop(BinOp::Add, a, b, span)
                };
                let e = self.fop(BinOp::Mul, u[k], dot, span);
                let e = self.fop(BinOp::Mul, e, two, span);
                self.fop(BinOp::Add, s, e, span)
            })
            .collect()
    }

    /// A quaternion argument as the `vec4` of its components, for `dot`, `length` and
    /// `normalize`; any other value as it is.
    pub(super) fn quat_as_vec4(&mut self, x: Ex, span: Span) -> Ex {
        match x {
            Ex::Val(o, Ty::Quat) => {
                let v4 = Ty::Vector(Scalar::F32, 4);
                let p = self.components(o, Ty::Quat, span);
                Ex::Val(self.val(Op::Construct, v4, p, span), v4)
            }
            other => other,
        }
    }

    /// A `vec4` result back as a quaternion (`normalize(q)`).
    pub(super) fn vec4_as_quat(&mut self, x: Ex, span: Span) -> Ex {
        match x {
            Ex::Val(o, Ty::Vector(Scalar::F32, 4)) => {
                let p = self.components(o, Ty::Vector(Scalar::F32, 4), span);
                self.quat_of(p, span)
            }
            other => other,
        }
    }
}

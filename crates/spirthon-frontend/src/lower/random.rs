//! Random numbers: spirthon's `Rand` (a struct of one `u32`, `state`) and the functions
//! that draw from it, the same stream on the GPU and under CPython (docs/language.md,
//! "Random numbers").
//!
//! The generator is Warp's: each draw replaces the state by the PCG hash of it,
//! `pcg(s) = (c >> 22) ^ c` with `c = ((b >> ((b >> 28) + 4)) ^ b) * 277803737` and
//! `b = s * 747796405 + 2891336453` (all `u32`, wrapping), a permutation of the 32-bit
//! words; `rand_init(seed, offset)` is `pcg(seed + pcg(offset))`. A draw names the place
//! that holds the state (a local, a field, an array element), which it reads once and writes
//! once, however many words it draws (`randn` draws two, `sample_unit_sphere` three), in
//! this order: the first word drawn is the first `randf` of the formula.
//!
//! Invariant: every float operation here is one `f32` operation in the order the docs give,
//! the one the reference executor (`spirthon/rand.py`) repeats, so the uniform draws are
//! bit-identical on both sides and the others differ only by the `math` functions'
//! tolerance.

use super::*;

/// `2π` rounded to `f32`.
const TAU: f32 = std::f32::consts::TAU;

/// What Warp's `randn` adds to its first uniform draw before the logarithm: `5.96e-8`
/// rounded to `f32`.
const RANDN_EPSILON: f32 = 5.96e-8;

/// Whether `item` draws from a stream (and so advances the `Rand` it is given).
pub(super) fn is_draw(item: &str) -> bool {
    item.starts_with("rand") && !matches!(item, "rand_init" | "Rand")
        || item.starts_with("sample_unit_")
}

impl Lower<'_, '_> {
    /// `rand_init randu randi randf randn sample_unit_disk sample_unit_sphere_surface
    /// sample_unit_sphere`.
    pub(super) fn rand_call(&mut self, item: &str, args: &[ExprId], span: Span) -> Ex {
        // The table's arities; `randi`/`randf` take one or three (`lo` and `hi` go together).
        let (least, most) =
            spirthon_ir::library::lookup(spirthon_ir::library::Module::Spirthon, item)
                .map_or((1, 1), |row| (row.arity.0 as usize, row.arity.1 as usize));
        if args.len() < least || args.len() > most || (most == 3 && args.len() == 2) {
            if !self.has_rejected_arg(args) {
                let usage = match item {
                    "rand_init" => "`rand_init(seed)` or `rand_init(seed, offset)`".to_string(),
                    "randi" => "`randi(rng)` or `randi(rng, lo, hi)`".to_string(),
                    "randf" => "`randf(rng)` or `randf(rng, lo, hi)`".to_string(),
                    _ => format!("`{item}(rng)`"),
                };
                self.cx.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{item}` takes {usage}, but {} arguments were given",
                            args.len()
                        ),
                    )
                    .with_help("`rng = rand_init(seed, i)` makes a stream; each draw advances it"),
                );
            }
            return Ex::Err;
        }
        if item == "rand_init" {
            return self.rand_init(args, span);
        }
        let Some(place) = self.rand_place(args[0], item) else {
            // Still lower the bounds, so that their errors show.
            for &a in &args[1..] {
                self.expr(a);
            }
            return Ex::Err;
        };
        let sp = self.ast.expr(args[0]).span;
        let mut state = self.read_rand(&place, sp);
        let mut draw = |l: &mut Self| {
            state = l.pcg(state, span);
            state
        };
        let out = match item {
            "randu" => Ex::Val(draw(self), Ty::U32),
            "randi" if args.len() == 1 => {
                let w = draw(self);
                Ex::Val(self.val(Op::Bitcast, Ty::I32, [w], span), Ty::I32)
            }
            "randi" => {
                let bounds = self.bounds(&args[1..], Ty::I32, item);
                let w = draw(self);
                let Some([lo, hi]) = bounds else {
                    self.write_rand(&place, state, span);
                    return Ex::Err;
                };
                Ex::Val(self.randi_in(w, lo, hi, span), Ty::I32)
            }
            "randf" if args.len() == 1 => {
                let w = draw(self);
                Ex::Val(self.unit_float(w, span), Ty::F32)
            }
            "randf" => {
                let bounds = self.bounds(&args[1..], Ty::F32, item);
                let w = draw(self);
                let u = self.unit_float(w, span);
                let Some([lo, hi]) = bounds else {
                    self.write_rand(&place, state, span);
                    return Ex::Err;
                };
                // `(hi - lo) * u + lo`.
                let d = self.fop(BinOp::Sub, hi, lo, span);
                let m = self.fop(BinOp::Mul, d, u, span);
                Ex::Val(self.fop(BinOp::Add, m, lo, span), Ty::F32)
            }
            "randn" => {
                let (w1, w2) = (draw(self), draw(self));
                let (u1, u2) = (self.unit_float(w1, span), self.unit_float(w2, span));
                // Warp's `sqrt(-2 * log(u1 + 5.96e-8)) * cos(2π * u2)`: the constant (2⁻²⁴
                // truncated, `RANDN_EPSILON`) keeps the logarithm's operand in (0, 1).
                let eps = self.konst(Const::f32(RANDN_EPSILON));
                let m2 = self.konst(Const::f32(-2.0));
                let q = self.fop(BinOp::Add, u1, eps, span);
                let l = self.math(MathFn::Log, q, span);
                let l = self.fop(BinOp::Mul, m2, l, span);
                let r = self.math(MathFn::Sqrt, l, span);
                let t = self.turn(u2, span);
                let c = self.math(MathFn::Cos, t, span);
                Ex::Val(self.fop(BinOp::Mul, r, c, span), Ty::F32)
            }
            "sample_unit_disk" => {
                let (w1, w2) = (draw(self), draw(self));
                let (u1, u2) = (self.unit_float(w1, span), self.unit_float(w2, span));
                // `sqrt(u1) * (cos(2π u2), sin(2π u2))`.
                let r = self.math(MathFn::Sqrt, u1, span);
                let t = self.turn(u2, span);
                let (c, s) = (
                    self.math(MathFn::Cos, t, span),
                    self.math(MathFn::Sin, t, span),
                );
                let x = self.fop(BinOp::Mul, r, c, span);
                let y = self.fop(BinOp::Mul, r, s, span);
                let v2 = Ty::Vector(Scalar::F32, 2);
                Ex::Val(self.val(Op::Construct, v2, [x, y], span), v2)
            }
            _ => {
                let ball = item == "sample_unit_sphere";
                let (w1, w2) = (draw(self), draw(self));
                let (u1, u2) = (self.unit_float(w1, span), self.unit_float(w2, span));
                // Warp's: `φ = acos(1 - 2 u1)`, `θ = 2π u2`,
                // `(cos θ · sin φ, sin θ · sin φ, cos φ)`; in the ball each is first scaled by
                // `r = pow(u3, 1/3)` (`r · cos θ · sin φ`, …, `r · cos φ`).
                let (one, two) = (self.konst(Const::f32(1.0)), self.konst(Const::f32(2.0)));
                let t = self.fop(BinOp::Mul, two, u1, span);
                let z = self.fop(BinOp::Sub, one, t, span);
                let phi = self.math(MathFn::Acos, z, span);
                let theta = self.turn(u2, span);
                let (c, s) = (
                    self.math(MathFn::Cos, theta, span),
                    self.math(MathFn::Sin, theta, span),
                );
                let (sp, cp) = (
                    self.math(MathFn::Sin, phi, span),
                    self.math(MathFn::Cos, phi, span),
                );
                let mut p = [c, s, cp];
                if ball {
                    let w3 = draw(self);
                    let u3 = self.unit_float(w3, span);
                    let third = self.konst(Const::f32(1.0 / 3.0));
                    let r = self.val(Op::Math(MathFn::Pow), Ty::F32, [u3, third], span);
                    for x in &mut p {
                        *x = self.fop(BinOp::Mul, r, *x, span);
                    }
                }
                let p = vec![
                    self.fop(BinOp::Mul, p[0], sp, span),
                    self.fop(BinOp::Mul, p[1], sp, span),
                    p[2],
                ];
                let v3 = Ty::Vector(Scalar::F32, 3);
                Ex::Val(self.val(Op::Construct, v3, p, span), v3)
            }
        };
        self.write_rand(&place, state, span);
        out
    }

    /// `rand_init(seed)` is `Rand(pcg(seed))`; `rand_init(seed, offset)` is
    /// `Rand(pcg(seed + pcg(offset)))`.
    fn rand_init(&mut self, args: &[ExprId], span: Span) -> Ex {
        let words: Vec<Option<Operand>> = args
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let what = if k == 0 { "the seed" } else { "the offset" };
                self.int_bits(
                    a,
                    &format!("{what} of a random stream (an `i32` or a `u32`)"),
                )
            })
            .collect();
        let Some(words) = words.into_iter().collect::<Option<Vec<_>>>() else {
            return Ex::Err;
        };
        let s = match words[..] {
            [seed] => seed,
            [seed, offset] => {
                let h = self.pcg(offset, span);
                self.val(Op::Binary(BinOp::Add), Ty::U32, [seed, h], span)
            }
            _ => unreachable!("rand_init takes one or two arguments"),
        };
        let state = self.pcg(s, span);
        self.struct_value(ModuleInfo::RAND, vec![state])
    }

    /// `lo, hi` of `randi`/`randf`, each converted to `t`.
    fn bounds(&mut self, args: &[ExprId], t: Ty, item: &str) -> Option<[Operand; 2]> {
        let mut out = [None, None];
        for (k, &a) in args.iter().enumerate() {
            let sp = self.ast.expr(a).span;
            let ex = self.expr(a);
            let what = format!("`{}` of `{item}`", ["lo", "hi"][k]);
            out[k] = self.coerce(ex, t, sp, &what);
        }
        Some([out[0]?, out[1]?])
    }

    /// The place a draw's first argument names, holding a `Rand`: `None` after an error.
    fn rand_place(&mut self, a: ExprId, item: &str) -> Option<structs::StatePlace> {
        match self.state_place(a) {
            Ok(p) => Some(p),
            Err(None) => None,
            Err(Some(what)) => {
                let sp = self.ast.expr(a).span;
                self.cx.diags.push(
                    Diagnostic::error(sp, format!("`{item}` takes the `Rand` it draws from, not {what}"))
                        .with_note("a draw advances the stream in place, so its argument is a variable, a field or an array element that holds a `Rand`")
                        .with_help(format!("`rng = rand_init(seed, i)`, then `{item}(rng)`")),
                );
                None
            }
        }
    }

    /// Warp's PCG hash of a `u32` word.
    fn pcg(&mut self, s: Operand, span: Span) -> Operand {
        let u = |l: &mut Self, v: u32| l.konst(Const::U32(v));
        let bin = |l: &mut Self, op: BinOp, a: Operand, b: Operand| {
            l.val(Op::Binary(op), Ty::U32, [a, b], span)
        };
        let (m1, a1, m2) = (u(self, 747796405), u(self, 2891336453), u(self, 277803737));
        let (k28, k4, k22) = (u(self, 28), u(self, 4), u(self, 22));
        let b = bin(self, BinOp::Mul, s, m1);
        let b = bin(self, BinOp::Add, b, a1);
        let top = bin(self, BinOp::Shr, b, k28);
        let sh = bin(self, BinOp::Add, top, k4);
        let c = bin(self, BinOp::Shr, b, sh);
        let c = bin(self, BinOp::BitXor, c, b);
        let c = bin(self, BinOp::Mul, c, m2);
        let h = bin(self, BinOp::Shr, c, k22);
        bin(self, BinOp::BitXor, h, c)
    }

    /// A word as a float in `[0, 1)`: `f32(w >> 8) * 2⁻²⁴` (exact).
    fn unit_float(&mut self, w: Operand, span: Span) -> Operand {
        let k8 = self.konst(Const::U32(8));
        let top = self.val(Op::Binary(BinOp::Shr), Ty::U32, [w, k8], span);
        let f = self.val(Op::Convert, Ty::F32, [top], span);
        let scale = self.konst(Const::f32(1.0 / 16_777_216.0));
        self.fop(BinOp::Mul, f, scale, span)
    }

    /// `2π * u`.
    fn turn(&mut self, u: Operand, span: Span) -> Operand {
        let tau = self.konst(Const::f32(TAU));
        self.fop(BinOp::Mul, tau, u, span)
    }

    /// `lo + i32(w % max(u32(hi - lo), 1))`, wrapping: `lo` for an empty range.
    fn randi_in(&mut self, w: Operand, lo: Operand, hi: Operand, span: Span) -> Operand {
        let d = self.val(Op::Binary(BinOp::Sub), Ty::I32, [hi, lo], span);
        let d = self.val(Op::Bitcast, Ty::U32, [d], span);
        let one = self.konst(Const::U32(1));
        let d = self.val(Op::Math(MathFn::Max), Ty::U32, [d, one], span);
        let m = self.val(Op::Binary(BinOp::Mod), Ty::U32, [w, d], span);
        let m = self.val(Op::Bitcast, Ty::I32, [m], span);
        self.val(Op::Binary(BinOp::Add), Ty::I32, [lo, m], span)
    }

    fn math(&mut self, f: MathFn, x: Operand, span: Span) -> Operand {
        self.val(Op::Math(f), Ty::F32, [x], span)
    }
}

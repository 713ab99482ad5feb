//! Python's arithmetic where it differs from C's, written once and generic over the width:
//! the frontend folds literals with it in `i128`/`f64` (as CPython computes them) and the
//! middle end folds device constants in `i32`/`f32` (as the device computes them). The
//! emitter's instruction sequences for `//` and `%` follow the same steps.
//!
//! - Integer `//` floors and `%` takes the divisor's sign (both wrap at the type's width).
//! - Float `%` is CPython's `float_rem`: a remainder, zero included, takes the divisor's sign.
//! - Float `//` is CPython's `float_floor_div`: `(a - fmod(a, b)) / b`, less one when the
//!   remainder's sign is wrong, rounded to the nearest integral value; a zero quotient has
//!   the sign of `a / b`.
//!
//! Division by zero is `None` for ints and left to the caller for floats (Python raises;
//! callers refuse to fold it).

use core::ops::{Add, Div, Rem, Sub};

/// The integer types folding uses.
pub trait Int: Copy + Eq + Ord {
    const ZERO: Self;
    const ONE: Self;
    fn wrapping_div(self, b: Self) -> Self;
    fn wrapping_rem(self, b: Self) -> Self;
    fn wrapping_add(self, b: Self) -> Self;
    fn wrapping_sub(self, b: Self) -> Self;
}

/// The float types folding uses.
pub trait Float:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const HALF: Self;
    fn copysign(self, sign: Self) -> Self;
    fn floor(self) -> Self;
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            fn wrapping_div(self, b: $t) -> $t { <$t>::wrapping_div(self, b) }
            fn wrapping_rem(self, b: $t) -> $t { <$t>::wrapping_rem(self, b) }
            fn wrapping_add(self, b: $t) -> $t { <$t>::wrapping_add(self, b) }
            fn wrapping_sub(self, b: $t) -> $t { <$t>::wrapping_sub(self, b) }
        }
    )*};
}
int!(i32, i64, i128);

macro_rules! float {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const HALF: $t = 0.5;
            fn copysign(self, sign: $t) -> $t { <$t>::copysign(self, sign) }
            fn floor(self) -> $t { <$t>::floor(self) }
        }
    )*};
}
float!(f32, f64);

/// Whether a non-zero remainder `r` and the divisor `b` differ in sign.
fn signs_differ<I: Int>(r: I, b: I) -> bool {
    r != I::ZERO && ((r < I::ZERO) != (b < I::ZERO))
}

/// Python's `a // b`; `None` when `b` is zero.
pub fn floor_div<I: Int>(a: I, b: I) -> Option<I> {
    if b == I::ZERO {
        return None;
    }
    let q = a.wrapping_div(b);
    Some(if signs_differ(a.wrapping_rem(b), b) {
        q.wrapping_sub(I::ONE)
    } else {
        q
    })
}

/// Python's `a % b`; `None` when `b` is zero.
pub fn modulo<I: Int>(a: I, b: I) -> Option<I> {
    if b == I::ZERO {
        return None;
    }
    let r = a.wrapping_rem(b);
    Some(if signs_differ(r, b) {
        r.wrapping_add(b)
    } else {
        r
    })
}

/// Python's float `a % b` (CPython's `float_rem`).
pub fn float_mod<F: Float>(a: F, b: F) -> F {
    let r = a % b;
    if r == F::ZERO {
        F::ZERO.copysign(b)
    } else if (r < F::ZERO) != (b < F::ZERO) {
        r + b
    } else {
        r
    }
}

/// Python's float `a // b` (CPython's `float_floor_div`).
pub fn float_floor_div<F: Float>(a: F, b: F) -> F {
    let m = a % b;
    let mut div = (a - m) / b;
    if m != F::ZERO && ((b < F::ZERO) != (m < F::ZERO)) {
        div = div - F::ONE;
    }
    if div == F::ZERO {
        return F::ZERO.copysign(a / b);
    }
    let fl = div.floor();
    if div - fl > F::HALF {
        fl + F::ONE
    } else {
        fl
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPython's values at the sign edges, in both widths (the i32/f32 edges of overflow are
    /// tested against CPython in spirthon-mid's folding tests).
    #[test]
    fn both_widths_agree_with_cpython() {
        for (a, b, q, r) in [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -4, -1),
            (-7, -2, 3, -1),
        ] {
            assert_eq!((floor_div(a, b), modulo(a, b)), (Some(q), Some(r)));
            assert_eq!(
                (floor_div(a as i64, b as i64), modulo(a as i64, b as i64)),
                (Some(q as i64), Some(r as i64))
            );
        }
        assert_eq!(floor_div(i32::MIN, -1), Some(i32::MIN), "wraps");
        assert_eq!(modulo(5, 0), None);
        let cases: [(f64, f64, f64, f64); 5] = [
            (7.5, 2.0, 3.0, 1.5),
            (-7.5, 2.0, -4.0, 0.5),
            (7.5, -2.0, -4.0, -0.5),
            (-0.0, 1.5, -0.0, 0.0),
            (0.0, -2.0, -0.0, -0.0),
        ];
        for (a, b, q, r) in cases {
            let (q64, r64) = (float_floor_div(a, b), float_mod(a, b));
            assert_eq!((q64.to_bits(), r64.to_bits()), (q.to_bits(), r.to_bits()));
            let (q32, r32) = (
                float_floor_div(a as f32, b as f32),
                float_mod(a as f32, b as f32),
            );
            assert_eq!(
                (q32.to_bits(), r32.to_bits()),
                ((q as f32).to_bits(), (r as f32).to_bits())
            );
        }
    }
}

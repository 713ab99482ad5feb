//! IEEE binary16 (`f16`, NumPy's `float16`): rounding a double to it and reading it back,
//! as the compiler folds literals and the runtime reads and prints the run JSON. The
//! device computes an `f16` in `f32` and rounds the result the same way (the emitter's
//! `quantize_f16`); so does the reference executor (`scalars.r16`).
//!
//! Rounding is to nearest, ties to even, with subnormals (down to 2^-24) and overflow to
//! infinity at 65520 and beyond, as IEEE 754 and NumPy round.

/// The largest finite `f16`.
pub const MAX: f64 = 65504.0;

/// `v` rounded to the nearest `f16`, as a double.
pub fn round(v: f64) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let a = v.abs();
    // The exponent of `a`'s leading bit, at least that of the smallest normal half, so
    // that subnormals keep the subnormal quantum 2^-24.
    let e = (a.log2().floor() as i32).clamp(-14, 16);
    // `a` may sit just below a power of two where log2 rounds up: correct the exponent.
    let e = if (2f64).powi(e) > a { e - 1 } else { e }.max(-14);
    let quantum = (2f64).powi(e - 10);
    let r = (a / quantum).round_ties_even() * quantum;
    let r = if r > MAX { f64::INFINITY } else { r };
    r.copysign(v)
}

/// The bits of the `f16` nearest `v`.
pub fn bits(v: f64) -> u16 {
    let r = round(v);
    let sign = if r.is_sign_negative() { 0x8000 } else { 0 };
    let a = r.abs();
    if a.is_nan() {
        return 0x7E00;
    }
    if a.is_infinite() {
        return sign | 0x7C00;
    }
    if a < (2f64).powi(-14) {
        // Subnormal: a multiple of 2^-24.
        return sign | (a * (2f64).powi(24)) as u16;
    }
    let e = a.log2().floor() as i32;
    let e = if (2f64).powi(e) > a { e - 1 } else { e };
    let mant = (a / (2f64).powi(e - 10)) as u32 - 1024;
    sign | (((e + 15) as u16) << 10) | mant as u16
}

/// The value of `f16` bits `h`.
pub fn value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f64::from(h & 0x3FF);
    sign * match exp {
        0 => mant * (2f64).powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1024.0 + mant) * (2f64).powi(e - 25),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_reads_back_and_midpoints_round_to_even() {
        for h in 0..=u16::MAX {
            let v = value(h);
            if v.is_nan() {
                assert!(round(v).is_nan());
                continue;
            }
            assert_eq!(bits(v), h, "{h:#06x} = {v}");
            assert_eq!(round(v).to_bits(), v.to_bits());
            // The midpoint above a finite half rounds to the one of the two with an even
            // mantissa (above the largest, to infinity).
            if v.is_finite() && v >= 0.0 && h < 0x7BFF {
                let next = value(h + 1);
                let mid = (v + next) / 2.0;
                let want = if h % 2 == 0 { v } else { next };
                assert_eq!(round(mid), want, "midpoint of {v} and {next}");
                assert_eq!(round(mid - mid * 1e-9), v);
            }
        }
        assert_eq!(round(65519.99), MAX);
        assert_eq!(round(65520.0), f64::INFINITY);
        assert_eq!(round(-1e9), f64::NEG_INFINITY);
        assert_eq!(round(2f64.powi(-25)), 0.0);
        assert_eq!(round(2f64.powi(-25) * 1.5), 2f64.powi(-24));
        assert_eq!(round(0.1), 0.0999755859375);
    }
}

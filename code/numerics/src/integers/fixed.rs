//! Q16.16 fixed point: an i32 that counts 65 536ths.

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

// ANCHOR: q16
/// A number stored as `value × 2^16` in an i32: 16 integer bits (with sign), 16 fraction bits.
/// Range about ±32 768, constant spacing 2^-16 ≈ 1.5e-5 everywhere (a float's spacing grows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Q16(pub i32);

impl Q16 {
    pub const FRACTION_BITS: u32 = 16;
    pub const ONE: Q16 = Q16(1 << 16);
    pub const MAX: Q16 = Q16(i32::MAX);
    pub const MIN: Q16 = Q16(i32::MIN);

    /// The nearest Q16.16 value, saturating outside the range (NaN becomes 0).
    pub fn from_f32(x: f32) -> Q16 {
        Q16((f64::from(x) * 65_536.0).round() as i32)
    }

    pub fn to_f32(self) -> f32 {
        self.0 as f32 / 65_536.0
    }

    /// The product, rounded to nearest; `None` when it does not fit.
    pub fn checked_mul(self, rhs: Q16) -> Option<Q16> {
        // The full product has 32 fraction bits: widen, add half of the dropped part, shift.
        let wide = i64::from(self.0) * i64::from(rhs.0);
        let rounded = (wide + (1 << 15)) >> Self::FRACTION_BITS;
        i32::try_from(rounded).ok().map(Q16)
    }
    // ANCHOR_END: q16

    /// The quotient, truncated toward zero; `None` for a zero divisor or when it does not fit.
    pub fn checked_div(self, rhs: Q16) -> Option<Q16> {
        if rhs.0 == 0 {
            return None;
        }
        let wide = (i64::from(self.0) << Self::FRACTION_BITS) / i64::from(rhs.0);
        i32::try_from(wide).ok().map(Q16)
    }
}

/// Addition wraps like the hardware; use `checked_add` on the inner i32 to detect overflow.
impl Add for Q16 {
    type Output = Q16;
    fn add(self, rhs: Q16) -> Q16 {
        Q16(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Q16 {
    type Output = Q16;
    fn sub(self, rhs: Q16) -> Q16 {
        Q16(self.0.wrapping_sub(rhs.0))
    }
}

impl Neg for Q16 {
    type Output = Q16;
    fn neg(self) -> Q16 {
        Q16(self.0.wrapping_neg())
    }
}

/// Multiplication saturates: a fixed-point controller should clip, not wrap around.
impl Mul for Q16 {
    type Output = Q16;
    fn mul(self, rhs: Q16) -> Q16 {
        self.checked_mul(rhs)
            .unwrap_or(if (self.0 < 0) != (rhs.0 < 0) {
                Q16::MIN
            } else {
                Q16::MAX
            })
    }
}

impl fmt::Display for Q16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_f32())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn basic_arithmetic() {
        let a = Q16::from_f32(1.5);
        let b = Q16::from_f32(-2.25);
        assert_eq!((a + b).to_f32(), -0.75);
        assert_eq!((a * b).to_f32(), -3.375);
        assert_eq!(a.checked_div(b).map(Q16::to_f32), Some(-0.666_656_5));
        assert_eq!(a.checked_div(Q16(0)), None);
        assert_eq!(Q16::from_f32(20_000.0) * Q16::from_f32(2.0), Q16::MAX);
        assert_eq!(Q16::from_f32(f32::NAN), Q16(0));
    }

    #[test]
    fn a_tenth_is_not_exact_but_the_error_is_fixed() {
        let tenth = Q16::from_f32(0.1);
        let ten_tenths = (0..10).fold(Q16(0), |acc, _| acc + tenth);
        // 0.1 rounds to 6554/65536, so ten of them are 4 units (6e-5) too many.
        assert_eq!(ten_tenths.0 - Q16::ONE.0, 4);
    }

    proptest! {
        #[test]
        fn multiplication_is_within_half_a_unit(a in -30_000i32..30_000, b in -1_000_000i32..1_000_000) {
            let (x, y) = (Q16(a), Q16(b));
            let exact = f64::from(a) * f64::from(b) / 65_536.0;
            let got = f64::from(x.checked_mul(y).unwrap().0);
            prop_assert!((got - exact).abs() <= 0.5);
        }
    }
}

//! Bits to value and value to bits for any [`Format`], written out field by field.

use super::format::{Format, Overflow, Rounding, Specials, exponent_of, pow2};

/// What a bit pattern is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Zero,
    Subnormal,
    Normal,
    Infinite,
    Nan,
}

/// A bit pattern taken apart: the three fields, what they mean, and the value (as f64, which
/// holds every value of every format here exactly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoded {
    pub negative: bool,
    /// The stored exponent field, before the bias is taken off.
    pub exponent_field: u64,
    pub mantissa_field: u64,
    pub class: Class,
    pub value: f64,
}

impl Format {
    // ANCHOR: decode
    /// Takes a bit pattern of this format apart. Bits above `total_bits` are ignored.
    pub fn decode(&self, bits: u64) -> Decoded {
        let m = self.mantissa_bits;
        let mantissa = bits & ((1 << m) - 1);
        let field = (bits >> m) & ((1 << self.exponent_bits) - 1);
        let negative = (bits >> (m + self.exponent_bits)) & 1 == 1;
        let all_ones = field == (1 << self.exponent_bits) - 1;
        let sign = if negative { -1.0 } else { 1.0 };
        let scale = |e: i32| pow2(e - m as i32);
        let (class, value) = match self.specials {
            Specials::Ieee if all_ones && mantissa == 0 => (Class::Infinite, sign * f64::INFINITY),
            Specials::Ieee if all_ones => (Class::Nan, f64::NAN),
            Specials::NanOnlyAllOnes if all_ones && mantissa == (1 << m) - 1 => {
                (Class::Nan, f64::NAN)
            }
            _ if field == 0 && mantissa == 0 => (Class::Zero, sign * 0.0),
            // No hidden bit, and the exponent stays at its minimum: evenly spaced tiny values.
            _ if field == 0 => (
                Class::Subnormal,
                sign * mantissa as f64 * scale(self.min_exponent()),
            ),
            // The hidden 1 in front of the stored fraction.
            _ => {
                let significand = ((1u64 << m) | mantissa) as f64;
                let e = field as i32 - self.bias();
                (Class::Normal, sign * significand * scale(e))
            }
        };
        Decoded {
            negative,
            exponent_field: field,
            mantissa_field: mantissa,
            class,
            value,
        }
    }
    // ANCHOR_END: decode

    /// The value of a bit pattern (NaN for every NaN pattern).
    pub fn value(&self, bits: u64) -> f64 {
        self.decode(bits).value
    }

    // ANCHOR: encode
    /// The bit pattern nearest to `x` under `rounding`; exact for every `x` that is an f32.
    pub fn encode(&self, x: f64, rounding: Rounding, overflow: Overflow) -> u64 {
        let m = self.mantissa_bits;
        let sign_bit = 1u64 << (m + self.exponent_bits);
        if x.is_nan() {
            // A quiet NaN: all-ones exponent and mantissa (the only NaN E4M3 has).
            return (sign_bit - 1) | if x.is_sign_negative() { sign_bit } else { 0 };
        }
        let sign = if x.is_sign_negative() { sign_bit } else { 0 };
        let a = x.abs();
        if a == 0.0 {
            return sign;
        }
        if a.is_infinite() {
            return sign | self.overflow_bits(overflow, Rounding::NearestEven);
        }
        // The quantum: the spacing of the format at a's binade (or the subnormal spacing).
        let mut e = exponent_of(a).max(self.min_exponent());
        let n = a / pow2(e - m as i32);
        let mut r = match rounding {
            Rounding::NearestEven => n.round_ties_even(),
            Rounding::TowardZero => n.trunc(),
        };
        if r >= (1u64 << (m + 1)) as f64 {
            // Rounding carried into the next binade: 1.111…1 became 10.000…0.
            r /= 2.0;
            e += 1;
        }
        if r * pow2(e - m as i32) > self.max_finite() {
            return sign | self.overflow_bits(overflow, rounding);
        }
        let r = r as u64;
        if r < (1 << m) {
            // Subnormal (or rounded down to zero): exponent field 0, no hidden bit.
            return sign | r;
        }
        let field = (e + self.bias()) as u64;
        sign | (field << m) | (r - (1 << m))
    }
    // ANCHOR_END: encode

    fn overflow_bits(&self, overflow: Overflow, rounding: Rounding) -> u64 {
        let m = self.mantissa_bits;
        let max_finite_bits = match self.specials {
            Specials::Ieee => ((self.max_field() - 1) << m) | ((1 << m) - 1),
            Specials::NanOnlyAllOnes => (self.max_field() << m) | ((1 << m) - 2),
        };
        // Rounding toward zero never leaves the finite range.
        if overflow == Overflow::Saturate || rounding == Rounding::TowardZero {
            return max_finite_bits;
        }
        match self.specials {
            Specials::Ieee => self.max_field() << m,
            Specials::NanOnlyAllOnes => (self.max_field() << m) | ((1 << m) - 1),
        }
    }

    /// Rounds `x` to the nearest value of this format (ties to even, IEEE overflow).
    pub fn round(&self, x: f64) -> f64 {
        self.value(self.encode(x, Rounding::NearestEven, Overflow::Infinity))
    }
}

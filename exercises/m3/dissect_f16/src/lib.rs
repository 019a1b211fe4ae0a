//! Dissect an f16: take any 16-bit pattern apart into sign, exponent and mantissa, say what kind
//! of number it is, and compute its value. The work goes in `dissect.rs`.

mod dissect;

pub use dissect::dissect;

/// What kind of number a bit pattern is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Zero,
    Subnormal,
    Normal,
    Infinity,
    Nan,
}

/// An f16 bit pattern taken apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F16Parts {
    /// The sign bit (bit 15): true for negative numbers, -0.0 and negative infinity.
    pub negative: bool,
    /// The stored exponent field (bits 14..10), 0 to 31, before the bias is taken off.
    pub exponent_field: u8,
    /// The stored mantissa field (bits 9..0), 0 to 1023, without the hidden bit.
    pub mantissa_field: u16,
    pub kind: Kind,
    /// The value, exactly (every f16 is exact in f64). NaN for every NaN pattern.
    pub value: f64,
}

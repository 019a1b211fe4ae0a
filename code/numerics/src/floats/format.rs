//! A binary floating-point format described by its field widths, with a decoder and an encoder
//! that work for every width from FP8 to f64. One piece of code for six formats is the point:
//! f64, f32, f16, bf16, E4M3 and E5M2 differ only in how many bits go to the exponent and how
//! many to the mantissa, and in what the all-ones exponent means.

/// What the largest exponent field encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specials {
    /// IEEE 754: all-ones exponent is infinity (mantissa 0) or NaN (anything else).
    Ieee,
    /// OCP FP8 E4M3: no infinities; only all-ones exponent *and* all-ones mantissa is NaN, so the
    /// top binade holds ordinary numbers and the range reaches 448 instead of 240.
    NanOnlyAllOnes,
}

/// What to do with a finite value beyond the largest finite number of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// IEEE behaviour: infinity, or NaN for a format without infinities.
    Infinity,
    /// Clamp to the largest finite value (what ML hardware does when converting to FP8).
    Saturate,
}

/// How to pick one of the two representable neighbours of a value that falls between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// The default of IEEE 754: the nearer neighbour, and on a tie the one with an even mantissa.
    NearestEven,
    /// Drop the extra bits (what a plain `bits >> 16` does for f32 → bf16).
    TowardZero,
}

/// One sign bit, `exponent_bits`, `mantissa_bits` (the stored fraction, without the hidden 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub name: &'static str,
    pub exponent_bits: u32,
    pub mantissa_bits: u32,
    pub specials: Specials,
}

// ANCHOR: formats
impl Format {
    pub const F64: Format = Format::ieee("f64", 11, 52);
    pub const F32: Format = Format::ieee("f32", 8, 23);
    pub const F16: Format = Format::ieee("f16", 5, 10);
    pub const BF16: Format = Format::ieee("bf16", 8, 7);
    pub const E5M2: Format = Format::ieee("fp8 e5m2", 5, 2);
    pub const E4M3: Format = Format {
        name: "fp8 e4m3",
        exponent_bits: 4,
        mantissa_bits: 3,
        specials: Specials::NanOnlyAllOnes,
    };
    // ANCHOR_END: formats

    pub const ALL: [Format; 6] = [
        Format::F64,
        Format::F32,
        Format::F16,
        Format::BF16,
        Format::E5M2,
        Format::E4M3,
    ];

    const fn ieee(name: &'static str, exponent_bits: u32, mantissa_bits: u32) -> Format {
        Format {
            name,
            exponent_bits,
            mantissa_bits,
            specials: Specials::Ieee,
        }
    }

    pub fn total_bits(&self) -> u32 {
        1 + self.exponent_bits + self.mantissa_bits
    }

    // ANCHOR: bias
    /// The stored exponent field minus the bias is the power of two: 127 for f32, 15 for f16.
    pub fn bias(&self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }

    /// The exponent of the smallest normal number, `1 - bias`; below it the hidden bit is 0.
    pub fn min_exponent(&self) -> i32 {
        1 - self.bias()
    }
    // ANCHOR_END: bias

    pub(crate) fn max_field(&self) -> u64 {
        (1 << self.exponent_bits) - 1
    }

    fn mantissa_mask(&self) -> u64 {
        (1 << self.mantissa_bits) - 1
    }

    /// The largest finite value.
    pub fn max_finite(&self) -> f64 {
        let m = self.mantissa_bits as i32;
        let (field, mantissa) = match self.specials {
            Specials::Ieee => (self.max_field() - 1, self.mantissa_mask()),
            Specials::NanOnlyAllOnes => (self.max_field(), self.mantissa_mask() - 1),
        };
        let e = field as i32 - self.bias();
        (1.0 + mantissa as f64 / (1u64 << m) as f64) * pow2(e)
    }

    /// The smallest positive normal value, `2^(1 - bias)`.
    pub fn min_normal(&self) -> f64 {
        pow2(self.min_exponent())
    }

    /// The smallest positive subnormal value, one unit of the last place at the bottom.
    pub fn min_subnormal(&self) -> f64 {
        pow2(self.min_exponent() - self.mantissa_bits as i32)
    }

    /// Machine epsilon: the gap between 1 and the next value up, `2^-mantissa_bits`.
    pub fn epsilon(&self) -> f64 {
        pow2(-(self.mantissa_bits as i32))
    }

    // ANCHOR: spacing
    /// The gap between consecutive values of the format around `x` (its ULP): `2^(e - m)` where
    /// `e` is the exponent of `x`, but never below `2^(min_exponent - m)`, the subnormal spacing.
    /// `None` past the largest finite value or for a non-finite `x`.
    pub fn spacing_at(&self, x: f64) -> Option<f64> {
        let a = x.abs();
        if !a.is_finite() || a > self.max_finite() {
            return None;
        }
        let e = if a == 0.0 {
            self.min_exponent()
        } else {
            exponent_of(a).max(self.min_exponent())
        };
        Some(pow2(e - self.mantissa_bits as i32))
    }
    // ANCHOR_END: spacing
}

/// `floor(log2(a))` for a positive finite `a`, read from the bits (exact, unlike `log2`).
pub(crate) fn exponent_of(a: f64) -> i32 {
    let bits = a.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    if field == 0 {
        // An f64 subnormal: the leading one is somewhere in the fraction.
        let fraction = bits & ((1 << 52) - 1);
        -1074 + (63 - fraction.leading_zeros() as i32)
    } else {
        field - 1023
    }
}

/// `2^e` exactly, built from the bits: `powi` computes `1 / 2^1074` for the smallest
/// subnormal, and `2^1074` is already infinite.
pub(crate) fn pow2(e: i32) -> f64 {
    match e {
        -1022..=1023 => f64::from_bits(((e + 1023) as u64) << 52),
        -1074..=-1023 => f64::from_bits(1 << (e + 1074)),
        _ if e < 0 => 0.0,
        _ => f64::INFINITY,
    }
}

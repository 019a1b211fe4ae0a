//! Chapter 1, floats: the fields of f64, f32, f16, bf16 and FP8, subnormals, NaN and rounding.
//!
//! f16 and bf16 come from the `half` crate (what real code uses); [`Format`] re-derives every
//! format from its field widths, and the tests hold it to `half`, to `f32::from_bits` and to the
//! `float8` crate over every bit pattern they can afford.

mod codec;
mod format;
pub mod scaling;

pub use codec::{Class, Decoded};
pub use format::{Format, Overflow, Rounding, Specials};

use half::{bf16, f16};

// ANCHOR: bf16_rounding
/// f32 → bf16 the cheap way: keep the top 16 bits. Always rounds toward zero.
pub fn bf16_by_truncation(x: f32) -> bf16 {
    bf16::from_bits((x.to_bits() >> 16) as u16)
}

/// f32 → bf16 the right way: `half` rounds to the nearest value, ties to even.
pub fn bf16_nearest(x: f32) -> bf16 {
    bf16::from_f32(x)
}
// ANCHOR_END: bf16_rounding

/// An FP8 E4M3 value converted the way ML hardware converts: nearest, ties to even, saturating.
pub fn to_e4m3(x: f32) -> u8 {
    Format::E4M3.encode(f64::from(x), Rounding::NearestEven, Overflow::Saturate) as u8
}

/// An FP8 E5M2 value converted the way ML hardware converts: nearest, ties to even, saturating.
pub fn to_e5m2(x: f32) -> u8 {
    Format::E5M2.encode(f64::from(x), Rounding::NearestEven, Overflow::Saturate) as u8
}

/// The f32 value of an FP8 bit pattern.
pub fn from_fp8(format: Format, bits: u8) -> f32 {
    format.value(u64::from(bits)) as f32
}

/// f16 through `half`, for comparison with [`Format::F16`].
pub fn f16_bits(x: f32) -> u16 {
    f16::from_f32(x).to_bits()
}

// ANCHOR: relative_error
/// The largest relative error of rounding to `format` over `samples` scattered points of
/// the binade `[2^k, 2^(k+1))`. `None` when the binade overflows the format.
pub fn max_relative_error_in_binade(format: Format, k: i32, samples: u32) -> Option<f64> {
    let lo = 2f64.powi(k);
    let mut worst: f64 = 0.0;
    for i in 0..samples {
        // Points spread by the golden ratio, not on a grid: grid points such as 1 + i/256 are
        // often exactly representable and would hide the error. As f32, as real data arrives.
        let offset = ((f64::from(i) + 0.5) * 0.618_033_988_749_895).fract();
        let x = f64::from((lo * (1.0 + offset)) as f32);
        let rounded = format.round(x);
        if !rounded.is_finite() {
            return None;
        }
        worst = worst.max((rounded - x).abs() / x);
    }
    Some(worst)
}
// ANCHOR_END: relative_error

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
    }

    #[test]
    fn decode_matches_half_for_every_f16_and_bf16_pattern() {
        for bits in 0..=u16::MAX {
            let ours = Format::F16.value(u64::from(bits));
            assert!(same(ours, f16::from_bits(bits).to_f64()), "f16 {bits:#06x}");
            let ours = Format::BF16.value(u64::from(bits));
            assert!(
                same(ours, bf16::from_bits(bits).to_f64()),
                "bf16 {bits:#06x}"
            );
        }
    }

    #[test]
    fn encode_matches_half_on_a_dense_sample_of_f32() {
        // Every 4099th f32 pattern: a million values, all classes, all exponents.
        for bits in (0..=u32::MAX).step_by(4099) {
            let x = f32::from_bits(bits);
            let want = f16::from_f32(x);
            let got = Format::F16.encode(f64::from(x), Rounding::NearestEven, Overflow::Infinity);
            if want.is_nan() {
                assert!(Format::F16.value(got).is_nan(), "{x:e}");
            } else {
                assert_eq!(got as u16, want.to_bits(), "f16 of {x:e}");
            }
            let want = bf16::from_f32(x);
            let got = Format::BF16.encode(f64::from(x), Rounding::NearestEven, Overflow::Infinity);
            if !want.is_nan() {
                assert_eq!(got as u16, want.to_bits(), "bf16 of {x:e}");
            }
        }
    }

    #[test]
    fn f32_and_f64_decode_like_the_hardware() {
        for bits in (0..=u32::MAX).step_by(65_537) {
            let want = f64::from(f32::from_bits(bits));
            assert!(same(Format::F32.value(u64::from(bits)), want), "{bits:#x}");
        }
        for x in [1.0, -0.1, 5e-324, f64::MAX, f64::MIN_POSITIVE] {
            assert!(same(Format::F64.value(x.to_bits()), x));
            let bits = Format::F64.encode(x, Rounding::NearestEven, Overflow::Infinity);
            assert_eq!(bits, x.to_bits());
        }
    }

    #[test]
    fn fp8_matches_the_float8_crate_on_every_pattern_and_a_dense_sample() {
        for bits in 0..=u8::MAX {
            let want = float8::F8E4M3::from_bits(bits).to_f32();
            assert!(same(
                f64::from(from_fp8(Format::E4M3, bits)),
                f64::from(want)
            ));
            let want = float8::F8E5M2::from_bits(bits).to_f32();
            assert!(same(
                f64::from(from_fp8(Format::E5M2, bits)),
                f64::from(want)
            ));
        }
        for i in -200_000..200_000 {
            let x = i as f32 * 0.003_7;
            assert_eq!(to_e4m3(x), float8::F8E4M3::from_f32(x).to_bits(), "{x}");
            assert_eq!(to_e5m2(x), float8::F8E5M2::from_f32(x).to_bits(), "{x}");
        }
    }

    #[test]
    fn ranges_of_the_formats() {
        assert_eq!(Format::F16.max_finite(), 65_504.0);
        assert_eq!(Format::E4M3.max_finite(), 448.0);
        assert_eq!(Format::E5M2.max_finite(), 57_344.0);
        assert_eq!(Format::BF16.max_finite(), f64::from(bf16::MAX.to_f32()));
        assert_eq!(Format::F32.max_finite(), f64::from(f32::MAX));
        assert_eq!(Format::F64.max_finite(), f64::MAX);
        assert_eq!(Format::F16.min_subnormal(), 2f64.powi(-24));
        assert_eq!(Format::E4M3.min_subnormal(), 2f64.powi(-9));
        assert_eq!(Format::F32.epsilon(), f64::from(f32::EPSILON));
    }

    #[test]
    fn spacing_is_the_gap_to_the_next_pattern() {
        for format in [Format::F16, Format::BF16, Format::E4M3, Format::E5M2] {
            let positive = 1u64 << (format.total_bits() - 1);
            for bits in 0..positive - 1 {
                let (here, next) = (format.value(bits), format.value(bits + 1));
                if next.is_finite() && here.is_finite() {
                    assert_eq!(
                        format.spacing_at(here),
                        Some(next - here),
                        "{}",
                        format.name
                    );
                }
            }
        }
    }

    #[test]
    fn specials_subnormals_and_overflow() {
        let f = Format::F16;
        assert_eq!(f.decode(0x0001).class, Class::Subnormal);
        assert_eq!(f.decode(0x7c00).class, Class::Infinite);
        assert_eq!(f.decode(0x7e00).class, Class::Nan);
        assert_eq!(f.decode(0x8000).value.to_bits(), (-0.0f64).to_bits());
        assert_eq!(Format::E4M3.decode(0x7e).value, 448.0);
        assert_eq!(Format::E4M3.decode(0x7f).class, Class::Nan);
        // 70 000 overflows f16 to infinity, saturates to 65 504 on request.
        assert_eq!(
            f.encode(70_000.0, Rounding::NearestEven, Overflow::Infinity),
            0x7c00
        );
        assert_eq!(
            f.encode(70_000.0, Rounding::NearestEven, Overflow::Saturate),
            0x7bff
        );
        assert_eq!(to_e4m3(1000.0), 0x7e);
        assert_eq!(to_e4m3(f32::INFINITY), 0x7e);
    }

    #[test]
    fn truncation_rounds_toward_zero_and_nearest_does_not() {
        // 1 + 2^-8 + 2^-9 lies above the midpoint between two bf16 neighbours.
        let x = 1.0 + 2f32.powi(-8) + 2f32.powi(-9);
        assert_eq!(bf16_by_truncation(x).to_f32(), 1.0);
        assert_eq!(bf16_nearest(x).to_f32(), 1.0 + 2f32.powi(-7));
        let via_format =
            Format::BF16.encode(f64::from(x), Rounding::TowardZero, Overflow::Infinity);
        assert_eq!(via_format as u16, bf16_by_truncation(x).to_bits());
    }

    #[test]
    fn relative_error_is_half_an_epsilon_for_normals() {
        let worst = max_relative_error_in_binade(Format::F16, 0, 4096).unwrap();
        assert!(worst <= Format::F16.epsilon() / 2.0 && worst > Format::F16.epsilon() / 4.0);
        assert_eq!(max_relative_error_in_binade(Format::E4M3, 10, 16), None);
    }
}

//! Making FP8 usable: a per-tensor scale that moves a tensor's range onto the format's, and
//! stochastic rounding, which keeps small updates that round-to-nearest would drop.

use super::{Format, Overflow, Rounding};

// ANCHOR: per_tensor
/// A tensor stored as FP8 codes plus one f32 scale: element i is `scale × value(codes[i])`.
pub struct ScaledTensor {
    pub format: Format,
    pub scale: f32,
    pub codes: Vec<u8>,
}

impl ScaledTensor {
    /// Per-tensor scaling: the scale maps the largest |x| (amax) onto the format's largest
    /// finite value (448 for E4M3, 57 344 for E5M2), so the tensor uses the whole range and
    /// nothing overflows. Codes round to nearest, ties to even, saturating.
    pub fn quantize(xs: &[f32], format: Format) -> ScaledTensor {
        let amax = xs.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let scale = if amax > 0.0 {
            amax / format.max_finite() as f32
        } else {
            1.0
        };
        let codes = xs
            .iter()
            .map(|&x| {
                let scaled = f64::from(x / scale);
                format.encode(scaled, Rounding::NearestEven, Overflow::Saturate) as u8
            })
            .collect();
        ScaledTensor {
            format,
            scale,
            codes,
        }
    }

    pub fn dequantize(&self) -> Vec<f32> {
        let value = |c: u8| self.format.value(u64::from(c)) as f32;
        self.codes.iter().map(|&c| value(c) * self.scale).collect()
    }
}
// ANCHOR_END: per_tensor

// ANCHOR: stochastic
/// Rounds `x` to one of its two neighbours in `format`, the upper one (in magnitude) with
/// probability equal to the distance from the lower one, in units of their spacing: `uniform`
/// is a random number in [0, 1). On average the result is `x` itself.
pub fn round_stochastic(format: &Format, x: f64, uniform: f64) -> f64 {
    let low_bits = format.encode(x, Rounding::TowardZero, Overflow::Saturate);
    let low = format.value(low_bits);
    // The next bit pattern is the next value away from zero (sign and magnitude are separate).
    let high = format.value(low_bits + 1);
    if low == x || !high.is_finite() || high.abs() < low.abs() {
        return low;
    }
    let p_high = (x - low) / (high - low);
    if uniform < p_high { high } else { low }
}
// ANCHOR_END: stochastic

/// Uniform numbers in [0, 1) from a seeded SplitMix64 (53 bits each).
pub fn uniforms(seed: u64) -> impl FnMut() -> f64 {
    let mut rng = bench_harness::rng::SplitMix64::new(seed);
    move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Weights of a layer: about ±0.01, far below E4M3's smallest normal (2^-6 = 0.0156).
    fn small_weights() -> Vec<f32> {
        let mut u = uniforms(3);
        (0..4096).map(|_| (u() as f32 * 2.0 - 1.0) * 0.01).collect()
    }

    fn worst_relative_error(xs: &[f32], ys: &[f32]) -> f32 {
        let big = xs.iter().zip(ys).filter(|(x, _)| x.abs() > 1e-3);
        big.map(|(x, y)| ((y - x) / x).abs()).fold(0.0, f32::max)
    }

    #[test]
    fn without_a_scale_small_weights_fall_into_the_subnormals() {
        let w = small_weights();
        let unscaled: Vec<f32> = w
            .iter()
            .map(|&x| Format::E4M3.round(f64::from(x)) as f32)
            .collect();
        // Spacing 2^-9 ≈ 0.002 down there: a weight of 0.001 becomes 0 or 0.002.
        assert!(worst_relative_error(&w, &unscaled) > 0.4);
        let scaled = ScaledTensor::quantize(&w, Format::E4M3).dequantize();
        // With the scale every weight above amax/2^8 is normal: within u = 2^-4 of itself.
        assert!(worst_relative_error(&w, &scaled) <= 1.0 / 16.0);
    }

    #[test]
    fn the_scale_keeps_large_activations_from_saturating() {
        let xs = [2000.0f32, -1000.0, 3.0, 0.5];
        let scaled = ScaledTensor::quantize(&xs, Format::E4M3);
        assert_eq!(scaled.scale, 2000.0 / 448.0);
        assert_eq!(scaled.dequantize()[0], 2000.0);
        assert!(worst_relative_error(&xs, &scaled.dequantize()) <= 1.0 / 16.0);
        // Without it, 2000 saturates to 448.
        let code = Format::E4M3.encode(2000.0, Rounding::NearestEven, Overflow::Saturate);
        assert_eq!(Format::E4M3.value(code), 448.0);
    }

    #[test]
    fn stochastic_rounding_is_unbiased() {
        let mut u = uniforms(5);
        let x = 1.0 + 0.3 * Format::BF16.epsilon();
        let mean = (0..100_000)
            .map(|_| round_stochastic(&Format::BF16, x, u()))
            .sum::<f64>()
            / 1e5;
        assert!(((mean - x) / Format::BF16.epsilon()).abs() < 0.01, "{mean}");
        assert_eq!(
            Format::BF16.round(x),
            1.0,
            "nearest always rounds down here"
        );
        assert_eq!(
            round_stochastic(&Format::BF16, -1.5, 0.0),
            -1.5,
            "exact values stay"
        );
    }

    #[test]
    fn small_updates_survive_only_with_stochastic_rounding() {
        // 10 000 updates of 1e-3 to a bf16 weight of 1.0 (spacing 2^-7 ≈ 0.0078 there).
        let (mut nearest, mut stochastic) = (1.0f64, 1.0f64);
        let mut u = uniforms(9);
        for _ in 0..10_000 {
            nearest = Format::BF16.round(nearest + 1e-3);
            stochastic = round_stochastic(&Format::BF16, stochastic + 1e-3, u());
        }
        assert_eq!(
            nearest, 1.0,
            "every update is below half a spacing and is lost"
        );
        assert!((stochastic - 11.0).abs() < 0.5, "{stochastic}");
    }
}

//! Wrong: activations saturate to the weights' symmetric range.

use crate::Asymmetric;

/// The asymmetric int8 map of `x`: its range, widened to include 0, spread over the 256 levels
/// -128..=127. `scale = (max − min) / 255` (1.0 when that is 0) and
/// `zero_point = −128 − round_ties_even(min / scale)`, clamped to -128..=127.
pub fn asymmetric_params(x: &[f32]) -> Asymmetric {
    let min = x.iter().copied().fold(0.0f32, f32::min);
    let max = x.iter().copied().fold(0.0f32, f32::max);
    let range = max - min;
    let scale = if range > 0.0 { range / 255.0 } else { 1.0 };
    let zero = -128.0 - (min / scale).round_ties_even();
    Asymmetric {
        scale,
        zero_point: zero.clamp(-128.0, 127.0) as i8,
    }
}

/// Each value mapped to `round_ties_even(x / scale) + zero_point`, saturated to -128..=127.
pub fn quantize_asymmetric(x: &[f32], params: Asymmetric) -> Vec<i8> {
    let zero = f32::from(params.zero_point);
    x.iter()
        // Wrong: the weights' symmetric range; the asymmetric map needs all 256 levels, and
        // the input at the bottom of the range (level -128) is pushed up by a step.
        .map(|v| ((v / params.scale).round_ties_even() + zero).clamp(-127.0, 127.0) as i8)
        .collect()
}

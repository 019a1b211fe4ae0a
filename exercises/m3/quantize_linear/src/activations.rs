use crate::Asymmetric;

/// The asymmetric int8 map of `x`: its range, widened to include 0, spread over the 256 levels
/// -128..=127. `scale = (max − min) / 255` (1.0 when that is 0) and
/// `zero_point = −128 − round_ties_even(min / scale)`, clamped to -128..=127.
pub fn asymmetric_params(_x: &[f32]) -> Asymmetric {
    todo!("min and max (with 0 inside), the scale, the rounded and clamped zero point")
}

/// Each value mapped to `round_ties_even(x / scale) + zero_point`, saturated to -128..=127.
pub fn quantize_asymmetric(_x: &[f32], _params: Asymmetric) -> Vec<i8> {
    todo!("divide, round, shift by the zero point, clamp, cast")
}

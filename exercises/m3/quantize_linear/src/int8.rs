use crate::ShapeError;

/// The symmetric int8 scale of `x`: its largest |value| maps to 127 (1.0 for an all-zero `x`).
pub fn symmetric_scale(_x: &[f32]) -> f32 {
    todo!("largest magnitude / 127")
}

/// Each value divided by `scale`, rounded to nearest (ties to even), saturated to [-127, 127].
pub fn quantize(_x: &[f32], _scale: f32) -> Vec<i8> {
    todo!("divide, round, clamp, cast")
}

/// Each integer times `scale`.
pub fn dequantize(_q: &[i8], _scale: f32) -> Vec<f32> {
    todo!("multiply back")
}

/// `a · b` for int8 `a` (m×k) and `b` (k×n), row-major, summed exactly in i32.
pub fn gemm_i8(
    _a: &[i8],
    _b: &[i8],
    _m: usize,
    _k: usize,
    _n: usize,
) -> Result<Vec<i32>, ShapeError> {
    todo!("check the shapes, then an integer triple loop")
}

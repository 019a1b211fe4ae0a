use crate::{QuantizedWeights, ShapeError};

/// `w` (k×n, row-major) quantized symmetrically with one scale per column (output channel):
/// each column gets the scale `symmetric_scale` gives it and is quantized with `quantize`; the
/// values stay k×n row-major, and each column's sum of integers goes into `column_sums`.
/// A `w` that is not k×n is `ShapeError::WrongLength` named "w".
pub fn quantize_weights(_w: &[f32], _k: usize, _n: usize) -> Result<QuantizedWeights, ShapeError> {
    todo!("check the length, then one scale, one quantized column and one sum per column")
}

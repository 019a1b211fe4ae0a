use crate::{Asymmetric, QuantizedWeights, ShapeError};

/// The f32 outputs from the i32 sums `acc` (m×n, row-major) of `qx · weights.values`:
/// `y[i][j] = x.scale · weights.scales[j] · (acc[i][j] − zx · weights.column_sums[j]) + bias[j]`,
/// with the zero-point correction computed in i32 and converted to f32 once.
/// Lengths that do not fit are `ShapeError::WrongLength`, checked in this order and named
/// "acc" (m×n), "weights.scales" (1×n), "weights.column_sums" (1×n), "bias" (1×n).
pub fn dequantize_accumulators(
    _acc: &[i32],
    _m: usize,
    _n: usize,
    _x: Asymmetric,
    _weights: &QuantizedWeights,
    _bias: &[f32],
) -> Result<Vec<f32>, ShapeError> {
    todo!("check the lengths, then correct each sum in i32 and scale it once")
}
